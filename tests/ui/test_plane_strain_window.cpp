// A 2D (plane-strain) scene in the explorer: it opens in the existing window with the x-y plane
// fixed (no slice axis to choose), runs on the 2D engine with a live slice of the 2D field, its
// result has two components (and exports them), and the dispersion panel draws the square
// element's curves; a 3D scene opened afterwards gets the slice axis back.
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "panels/dispersion_panel.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {

// 60 x 40 squares of 1 mm with a steel disk; a source on the top surface and two receivers.
const char* kScene2d = R"({"format": "voxwave-scene", "version": 1,
 "grid": {"size": [0.06, 0.04], "spacing": 0.001},
 "materials": [{"name": "concrete", "density": 2400, "vp": 4000, "vs": 2450},
               {"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
 "background": "concrete",
 "shapes": [{"type": "sphere", "material": "steel", "center": [0.03, 0.015], "radius": 0.006}],
 "sources": [{"name": "S", "position": [0.03, 0.04], "direction": [0, -1], "amplitude": 1000,
              "wavelet": {"type": "ricker", "frequency": 200000, "delay": 6e-6}}],
 "receivers": [{"name": "R1", "position": [0.015, 0.04]}, {"name": "R2", "position": [0.045, 0.04]}],
 "boundary": {"absorbing": {"faces": ["x-", "x+", "y-"], "thickness": 0.005, "type": "sponge"}},
 "run": {"method": "ovfem", "steps": 120, "backend": "cpu"}})";

// The toolbar's slice-plane box: the combo box offering XY, XZ and YZ.
QComboBox* plane_box(MainWindow& w) {
    for (auto* c : w.findChildren<QComboBox*>())
        if (c->count() == 3 && c->itemText(0) == "XY" && c->itemText(1) == "XZ") return c;
    return nullptr;
}

}  // namespace

class TestPlaneStrainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void twoDimensionalSceneOpensRunsAndShowsItsPlane() {
        DialogCloser closer;
        auto w = shown_window();
        QVERIFY(expose_non_interactive(*w));
        const QString path = dir_.filePath("plane.json");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kScene2d);
        }
        QVERIFY2(w->openScene(path, true), qPrintable(w->lastError()));
        QCOMPARE(w->document()->scene().grid.dimensions, 2);
        // The x-y plane, fixed: no axis or position to choose.
        QCOMPARE(w->painter()->plane(), SlicePlane::XY);
        QComboBox* planes = plane_box(*w);
        QVERIFY(planes);
        QVERIFY(!planes->isEnabled());
        // The dispersion panel: VFEM and OVFEM in both charts, for the square element.
        QCOMPARE(w->dispersion()->seriesCount(), 4);

        QSignalSpy finished(w->controller(), &SimulationController::finished);
        w->startRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        const Result& r = w->controller()->lastResult();
        QCOMPARE(r.components, 2);
        QCOMPARE(r.steps, std::int64_t(120));
        double peak = 0;
        for (double v : r.displacement) peak = std::max(peak, std::fabs(v));
        QVERIFY(peak > 0);
        // The live slice is the 2D field: (nx + 1) x (ny + 1) nodes, with the wave in it.
        const SliceImage& slice = w->wavefield()->slice();
        QCOMPARE(slice.width, 61);
        QCOMPARE(slice.height, 41);
        QVERIFY(slice.max_abs() > 0);
        // Exported, the traces keep their two components.
        const QString out = dir_.filePath("plane.h5");
        QVERIFY2(w->exportTraces(out, true), qPrintable(w->lastError()));
        const Result back = read_result_h5(out.toStdString());
        QCOMPARE(back.components, 2);
        QCOMPARE(back.displacement, r.displacement);

        // A 3D scene afterwards has its slice axis again.
        const QString path3 = dir_.filePath("block.json");
        write_scene_json(path3.toStdString(), small_scene());
        QVERIFY2(w->openScene(path3, true), qPrintable(w->lastError()));
        QVERIFY(planes->isEnabled());
        QVERIFY2(closer.messages.isEmpty(), qPrintable(closer.messages.join("; ")));
    }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestPlaneStrainWindow t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_plane_strain_window.moc"
