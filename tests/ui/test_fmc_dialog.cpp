// Make image... simulating the open scene's array probe (docs/architecture.md#imaging): an FMC of
// a tiny steel block runs on the dialog's worker with progress and opens an image equal to the
// engine's own pipeline (scan, acquisition, TFM) run here; a PWI with an angle past 90 degrees is
// refused with one line naming scan.angles[2] and opens nothing; a PWI sector scan opens a fan
// image; a scene without an array probe cannot simulate.
#include <QComboBox>
#include <QLineEdit>
#include <QProgressBar>
#include <QStandardItemModel>
#include <QtTest>

#include "../engine/scene_builders.hpp"
#include "imaging/image_window.hpp"
#include "imaging/make_image_dialog.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/image_view.hpp"
#include "wave/probe_scan.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

// A 14.8 x 1.5 x 8.9 mm steel block, a 4-element 1 mm array on its top; 6 us, so that the default
// image region (from two wavelengths down) has echoes in the record.
Scene tiny_scene() {
    Scene s = voxwave::testing::array_on_steel_block(4, 1e-3, 0.8e-3);
    s.run.steps = 0;
    s.run.duration = 6e-6;
    return s;
}

void choose(QComboBox* box, const QString& data) {
    const int i = box->findData(data);
    QVERIFY(i >= 0);
    box->setCurrentIndex(i);
}

}  // namespace

class TestFmcDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void simulatedFmcImagesAsTheEngineDoes() {
        const Scene scene = tiny_scene();
        MakeImageDialog d;
        d.setScene(scene, "tiny.json");
        d.show();
        auto* source = d.findChild<QComboBox*>("image-source");
        QVERIFY(source);
        choose(source, "simulate");
        QVERIFY(d.simulating());
        QVERIFY(d.findChild<QComboBox*>("sim-probe")->currentText() == "PA");
        choose(d.findChild<QComboBox*>("sim-type"), "fmc");
        QVERIFY(!d.findChild<QLineEdit*>("sim-angles")->isEnabled());
        choose(d.findChild<QComboBox*>("image-backend"), "cpu");
        QSignalSpy ready(&d, &MakeImageDialog::imageReady);
        QSignalSpy failed(&d.job(), &BackgroundJob::failed);
        QSignalSpy progress(&d.job(), &BackgroundJob::progress);
        d.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count() + failed.count(), 1, 120000);
        QVERIFY2(d.lastError().isEmpty(), qPrintable(d.lastError()));
        QVERIFY(progress.count() > 1);
        auto* bar = d.findChild<QProgressBar*>("image-progress");
        QCOMPARE(bar->value(), bar->maximum());

        // The engine's pipeline, called here: the same image.
        Scene fmc = scene;
        fmc.scan = ScanSpec{};
        fmc.scan->probe = "PA";
        fmc.scan->type = "fmc";
        const VoxelGrid model = rasterise(fmc);
        const ArrayAcquisition a =
            scan_array_acquisition(fmc, model, run_probe_scan(fmc, model, "tiny.json", {}), "tiny.json");
        ImagingRequest r = d.request();
        r.method = ImagingMethod::Tfm;
        const Image want = make_image(a, r, "tiny.json");
        QVERIFY(!want.values.empty());
        QCOMPARE(d.lastImage().values, want.values);
        QCOMPARE(d.lastImage().method, std::string("tfm"));
        auto* w = qobject_cast<ImageWindow*>(d.lastWindow());
        QVERIFY(w && w->isVisible());
        QVERIFY(w->windowTitle().contains("FMC of PA (tiny.json)"));
        w->close();
    }

    void badAnglesAreOneLineAndNoWindow() {
        MakeImageDialog d;
        d.setScene(tiny_scene(), "tiny.json");
        choose(d.findChild<QComboBox*>("image-source"), "simulate");
        choose(d.findChild<QComboBox*>("sim-type"), "pwi");
        auto* angles = d.findChild<QLineEdit*>("sim-angles");
        QVERIFY(angles->isEnabled());
        angles->setText("-10, 0, 95");
        voxwave::ui::test::DialogCloser closer;
        QSignalSpy failed(&d.job(), &BackgroundJob::failed);
        QSignalSpy ready(&d, &MakeImageDialog::imageReady);
        d.start();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY2(d.lastError().contains("scan.angles[2]: must lie strictly between -90 and 90"),
                 qPrintable(d.lastError()));
        QVERIFY(!d.lastError().contains('\n'));
        angles->setText("-10, x");
        d.start();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 20000);
        QVERIFY2(d.lastError().contains("Angles: 'x' is not a number"), qPrintable(d.lastError()));
        QCOMPARE(ready.count(), 0);
        QVERIFY(!d.lastWindow());
    }

    void pwiSectorScanOpensAFan() {
        MakeImageDialog d;
        d.setScene(tiny_scene(), "tiny.json");
        choose(d.findChild<QComboBox*>("image-source"), "simulate");
        choose(d.findChild<QComboBox*>("sim-type"), "pwi");
        d.findChild<QLineEdit*>("sim-angles")->setText("-20 -10 0 10 20");
        choose(d.findChild<QComboBox*>("image-method"), "sector");
        choose(d.findChild<QComboBox*>("image-backend"), "cpu");
        QSignalSpy ready(&d, &MakeImageDialog::imageReady);
        QSignalSpy failed(&d.job(), &BackgroundJob::failed);
        d.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count() + failed.count(), 1, 120000);
        QVERIFY2(d.lastError().isEmpty(), qPrintable(d.lastError()));
        const Image& im = d.lastImage();
        QCOMPARE(im.method, std::string("sector"));
        // The fan: a pixel straight down is inside, the top corners (beyond 20 degrees) are not.
        QVERIFY(im.at(im.n_depth() - 1, im.n_lateral() / 2) > 0);
        QCOMPARE(im.at(0, 0), 0.0);
        QCOMPARE(im.at(0, im.n_lateral() - 1), 0.0);
        auto* w = qobject_cast<ImageWindow*>(d.lastWindow());
        QVERIFY(w && w->isVisible());
        QVERIFY(w->windowTitle().contains("PWI of PA"));
        w->view()->grab().save(QDir::temp().filePath("voxwave-sector.png"));
        w->close();
    }

    void aSceneWithoutAnArrayCannotSimulate() {
        Scene s = tiny_scene();
        s.probes[0].type = "piston";
        s.probes[0].elements = 1;
        s.probes[0].shape = "disk";
        s.probes[0].diameter = 2e-3;
        MakeImageDialog d;
        d.setScene(s, "piston.json");
        auto* source = d.findChild<QComboBox*>("image-source");
        auto* model = qobject_cast<QStandardItemModel*>(source->model());
        QVERIFY(model && !model->item(1)->isEnabled());
        QVERIFY(!d.simulating());
    }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestFmcDialog t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_fmc_dialog.moc"
