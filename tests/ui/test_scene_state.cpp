// State that follows the scene (issue 30): a new spacing or orientation keeps the slice where it
// was in the model and refits the view; exports write the open scene's own last result, or say
// there is none and write nothing.
#include <QDoubleSpinBox>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/trace_panel.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {

// The slice's coordinate along the plane's normal (metres).
double slice_position(MainWindow& w) {
    const VoxelGrid& g = w.document()->model();
    const int normal = w.painter()->plane() == SlicePlane::XY ? 2 : w.painter()->plane() == SlicePlane::XZ ? 1 : 0;
    return g.origin[normal] + w.painter()->nodePlane() * g.spacing;
}

}  // namespace

class TestSceneState : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    // Runs the open scene until it has some samples, then stops it and waits for its end.
    void runAndStop() {
        QSignalSpy finished(w_->controller(), &SimulationController::finished);
        w_->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(w_->traces()->sampleCount() > 20, 20000);
        w_->stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    }

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }

    void changingTheSpacingFrom4To2mmKeepsTheSlicesPhysicalPositionWithinOneVoxel() {
        const QString path = dir_.filePath("block4.json");
        write_scene_json(path.toStdString(), small_scene(0.004, 5e-2));
        QVERIFY(w_->openScene(path, true));
        SlicePainter* p = w_->painter();
        w_->tabs()->setCurrentWidget(p);
        p->setPlane(SlicePlane::XZ);
        p->setNodePlane(18);  // y = 72 mm, not the middle (50 mm)
        QTest::qWait(50);
        const double before = slice_position(*w_);
        QVERIFY(std::abs(before - 0.072) < 1e-12);

        // Through the run panel, as a user does it: one undoable change of spacing.
        auto* spacing = w_->findChild<QDoubleSpinBox*>("run-spacing");
        QVERIFY(spacing);
        spacing->setValue(2.0);
        emit spacing->editingFinished();
        QCOMPARE(w_->document()->model().spacing, 0.002);
        QCOMPARE(w_->document()->model().n[1], 50);
        const double after = slice_position(*w_);
        QVERIFY2(std::abs(after - before) <= 0.002,
                 qPrintable(QString("y %1 mm -> %2 mm").arg(before * 1e3).arg(after * 1e3)));
        QCOMPARE(p->nodePlane(), 36);

        // Refitted: the whole model is in view (not twice the size it was, off the widget), and so
        // is the steel box painted into it.
        QTest::qWait(50);
        const QRectF shown = p->sliceRect();
        const QRectF widget = QRectF(p->rect()).adjusted(-0.5, -0.5, 0.5, 0.5);
        QVERIFY2(widget.contains(shown), qPrintable(QString("slice %1 x %2 at (%3, %4) in a %5 x %6 widget")
                                                        .arg(shown.width())
                                                        .arg(shown.height())
                                                        .arg(shown.x())
                                                        .arg(shown.y())
                                                        .arg(p->width())
                                                        .arg(p->height())));
        // Filling the view up to the painter's border for marker names (a text line each side): a
        // view left at the old scale would show the slice at half this size.
        QVERIFY2(shown.width() > 0.75 * p->width() || shown.height() > 0.75 * p->height(),
                 qPrintable(QString("slice %1 x %2 in a %3 x %4 widget")
                                .arg(shown.width())
                                .arg(shown.height())
                                .arg(p->width())
                                .arg(p->height())));
        QVERIFY(QRectF(p->rect()).contains(p->pixelOf({0.04, after, 0.015})));

        // Undo goes back to 4 mm, same place.
        w_->document()->undoStack()->undo();
        QCOMPARE(w_->document()->model().spacing, 0.004);
        QVERIFY(std::abs(slice_position(*w_) - before) <= 0.004);
    }

    void changingTheOrientationKeepsTheSlicesPhysicalPosition() {
        SlicePainter* p = w_->painter();
        p->setPlane(SlicePlane::XZ);
        p->setNodePlane(18);  // y = 72 mm
        p->setPlane(SlicePlane::YZ);
        p->setNodePlane(5);  // x = 20 mm
        p->setPlane(SlicePlane::XZ);
        QVERIFY2(std::abs(slice_position(*w_) - 0.072) < 1e-12, qPrintable(QString::number(slice_position(*w_))));
        p->setPlane(SlicePlane::YZ);
        QVERIFY2(std::abs(slice_position(*w_) - 0.020) < 1e-12, qPrintable(QString::number(slice_position(*w_))));
        p->setPlane(SlicePlane::XZ);
    }

    void exportWithNoCurrentResultSaysSoAndWritesNothing() {
        // An untitled scene's run: a result, but not the next scene's.
        w_->document()->reset(small_scene(0.005, 5e-2));
        runAndStop();
        QVERIFY(w_->currentResult());
        QCOMPARE(w_->currentResult()->scene, std::string("untitled"));

        const QString other = dir_.filePath("other.json");
        write_scene_json(other.toStdString(), small_scene(0.005, 5e-2));
        QVERIFY(w_->openScene(other, true));
        QVERIFY(!w_->currentResult());
        for (const char* name : {"none.h5", "none.csv"}) {
            const QString out = dir_.filePath(name);
            QVERIFY(!w_->exportTraces(out, true));
            QVERIFY2(w_->lastError().contains("other.json has no result"), qPrintable(w_->lastError()));
            QVERIFY2(!QFile::exists(out), name);
        }

        // From the menu: one message, and no file dialog to pick a name for nothing.
        for (const QString& item : {tr("Export traces (HDF5)..."), tr("Export traces (CSV)...")}) {
            DialogCloser closer;
            QAction* a = menu_action(*w_, item);
            QVERIFY(a);
            a->trigger();
            QTRY_COMPARE_WITH_TIMEOUT(closer.messages.size(), 1, 3000);
            QCOMPARE(closer.messages[0], w_->lastError());
            QCOMPARE(closer.file_dialogs, 0);
        }

        // While a run is going there is none yet either: the panel's traces are still growing.
        w_->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(w_->traces()->sampleCount() > 5, 20000);
        QVERIFY(!w_->exportTraces(dir_.filePath("running.h5"), true));
        QVERIFY2(w_->lastError().contains("has not ended"), qPrintable(w_->lastError()));
        QVERIFY(!QFile::exists(dir_.filePath("running.h5")));
        w_->resetRun();
        QVERIFY(!w_->currentResult());
    }

    void exportedFileMatchesTheOpenScenesLastRun() {
        // The scene's own receivers, unlike the earlier scenes': names and count tell them apart.
        Scene s = small_scene(0.005, 5e-2);
        s.receivers = {{"top", {0.02, 0.05, 0.05}}, {"mid", {0.05, 0.05, 0.025}}};
        const QString path = dir_.filePath("two.json");
        write_scene_json(path.toStdString(), s);
        QVERIFY(w_->openScene(path, true));
        runAndStop();
        const Result& run = w_->controller()->lastResult();
        QVERIFY(w_->currentResult());

        const QString h5 = dir_.filePath("two.h5");
        QVERIFY2(w_->exportTraces(h5, true), qPrintable(w_->lastError()));
        const Result back = read_result_h5(h5.toStdString());
        QCOMPARE(back.scene, std::string("two.json"));
        QStringList names;
        for (const auto& n : back.receiver_names) names << QString::fromStdString(n);
        QCOMPARE(names, (QStringList{"top", "mid"}));
        QCOMPARE(back.steps, run.steps);
        QCOMPARE(std::size_t(back.steps), w_->traces()->sampleCount());
        QVERIFY(back.displacement == run.displacement);

        // The CSV: the same receivers, one row per step.
        const QString csv = dir_.filePath("two.csv");
        QVERIFY2(w_->exportTraces(csv, true), qPrintable(w_->lastError()));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(run.steps) + 1);
        QCOMPARE(lines[0], QString("time,top_ux,top_uy,top_uz,mid_ux,mid_uy,mid_uz"));

        // An opened result file is the current result while it is shown, with its own scene name.
        QVERIFY(w_->openResult(h5, true));
        QVERIFY(w_->currentResult());
        QCOMPARE(w_->currentResult()->scene, std::string("two.json"));
        QVERIFY(*w_->currentResult() == back);

        // File > New: the old scene's result is no longer current.
        QAction* fresh = menu_action(*w_, tr("&New"));
        QVERIFY(fresh);
        fresh->trigger();
        QVERIFY(w_->document()->path().isEmpty());
        QVERIFY(!w_->currentResult());
        QVERIFY(!w_->exportTraces(dir_.filePath("after-new.h5"), true));
        QVERIFY(!QFile::exists(dir_.filePath("after-new.h5")));
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestSceneState t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_scene_state.moc"
