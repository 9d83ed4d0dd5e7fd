// Issue 37 in the window: File > Import STL surface... paints what a closed surface encloses (one
// undo step) and refuses an open one without touching the model; File > Export model writes a
// .vti of the model (a bad folder is an error, no file); File > Save wavefield snapshot saves the
// paused run's field as HDF5 + XDMF, and without a run says why.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <fstream>

#include "main_window.hpp"
#include "panels/shapes_panel.hpp"
#include "scene/scene_io.hpp"
#include "scene/snapshots.hpp"
#include "sim/simulation_controller.hpp"
#include "ui_test_support.hpp"
#include "views/trace_panel.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {

// The 12 triangles of the box [lo, hi] (mm) as ASCII STL; `drop_last` leaves a hole.
void write_box_stl(const QString& path, double lo, double hi, bool drop_last = false) {
    auto corner = [&](int i) { return std::array<double, 3>{i & 1 ? hi : lo, i & 2 ? hi : lo, i & 4 ? hi : lo}; };
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    std::ofstream out(path.toStdString());
    out << "solid box\n";
    int written = 0;
    for (const auto& q : quads)
        for (const auto& t : {std::array<int, 3>{q[0], q[1], q[2]}, std::array<int, 3>{q[0], q[2], q[3]}}) {
            if (drop_last && ++written == 12) break;
            out << "facet normal 0 0 0\nouter loop\n";
            for (int v : t) out << "vertex " << corner(v)[0] << " " << corner(v)[1] << " " << corner(v)[2] << "\n";
            out << "endloop\nendfacet\n";
        }
    out << "endsolid box\n";
}

}  // namespace

class TestStlAndSnapshots : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(open_in_window(*w_, dir_.filePath("small.json"), small_scene()));
        for (const char* text :
             {"Import STL surface...", "Export model (VTK .vti)...", "Save wavefield snapshot (XDMF + HDF5)..."})
            QVERIFY2(menu_action(*w_, text), text);
    }

    void importStlPaintsTheEnclosedElementsInOneUndoStep() {
        const QString stl = dir_.filePath("cube_mm.stl");
        write_box_stl(stl, 10, 40);
        const VoxelGrid before = w_->document()->model();
        const int undo_index = w_->document()->undoStack()->index();
        QVERIFY(w_->shapes()->importStl(stl, 1e-3) > 0);
        const VoxelGrid& after = w_->document()->model();
        // 5 mm elements, centres at 2.5 + 5 i mm: i, j, k = 2..7 lie in [10, 40] mm.
        for (int k = 0; k < after.n[2]; ++k)
            for (int j = 0; j < after.n[1]; ++j)
                for (int i = 0; i < after.n[0]; ++i) {
                    const bool inside = i >= 2 && i <= 7 && j >= 2 && j <= 7 && k >= 2 && k <= 7;
                    QCOMPARE(int(after.at(i, j, k)), inside ? 2 : int(before.at(i, j, k)));  // steel is id 2
                }
        QCOMPARE(w_->document()->undoStack()->index(), undo_index + 1);
        w_->document()->undoStack()->undo();
        QVERIFY(w_->document()->model() == before);
    }

    void openStlIsRefusedAndTheModelKept() {
        const QString stl = dir_.filePath("open.stl");
        write_box_stl(stl, 10, 40, true);
        const VoxelGrid before = w_->document()->model();
        QString message;
        try {
            w_->shapes()->importStl(stl, 1e-3);
        } catch (const std::exception& e) {
            message = e.what();
        }
        QVERIFY2(message.contains("open.stl") && message.contains("not a closed surface"), qPrintable(message));
        QVERIFY(w_->document()->model() == before);
    }

    void exportModelWritesVtiAndABadFolderIsAnError() {
        const QString good = dir_.filePath("model.vti");
        QVERIFY(w_->exportModelVti(good, true));
        QFile f(good);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(200).contains("ImageData"));
        const QString bad = dir_.filePath("no-such-folder/model.vti");
        QVERIFY(!w_->exportModelVti(bad, true));
        QVERIFY2(w_->lastError().contains("no-such-folder"), qPrintable(w_->lastError()));
        QVERIFY(!QFile::exists(bad));
    }

    void saveSnapshotNeedsARunAndWritesTheFieldWithItsXdmf() {
        QVERIFY(!w_->saveWavefieldSnapshot(dir_.filePath("idle.h5"), true));
        QVERIFY2(w_->lastError().contains("running simulation"), qPrintable(w_->lastError()));
        QVERIFY(!QFile::exists(dir_.filePath("idle.h5")));

        SimulationController* c = w_->controller();
        QSignalSpy saved(c, &SimulationController::snapshotSaved);
        w_->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(w_->traces()->sampleCount() > 10, 20000);  // the wave has left the source
        w_->pauseRun();
        QTRY_VERIFY_WITH_TIMEOUT(c->state() == SimulationController::State::Paused, 20000);
        const QString path = dir_.filePath("field.h5");
        QVERIFY(w_->saveWavefieldSnapshot(path, true));
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 20000);
        QCOMPARE(saved.at(0).at(1).toString(), QString());
        QVERIFY(QFile::exists(dir_.filePath("field.xmf")));
        const SnapshotFrame u = read_snapshot(path.toStdString(), "u", 0);
        const VoxelGrid& g = w_->document()->model();
        QCOMPARE(u.grid.count[0], g.n[0] + 1);
        QCOMPARE(u.grid.count[1], g.n[1] + 1);
        QCOMPARE(u.grid.count[2], g.n[2] + 1);
        QCOMPARE(u.values.size(), g.node_count() * 3);
        QVERIFY(u.step > 0);
        double peak = 0;
        for (double v : u.values) peak = std::max(peak, std::abs(v));
        QVERIFY(peak > 0);
        w_->stopRun();
        c->waitForIdle();
    }

    void cleanupTestCase() { w_.reset(); }
};

QTEST_MAIN(TestStlAndSnapshots)
#include "test_stl_and_snapshots.moc"
