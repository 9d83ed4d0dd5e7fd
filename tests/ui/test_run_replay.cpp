// Runs you can replay, and the figures of a run (issue 30): the frames of the shown slice kept in
// a memory-bounded store, a time slider that shows a stored frame exactly as it was shown live
// (during or after a run), the replay's gain fixed from the whole run; steps/s and ETA that
// follow a pause and a stop; the result's wall time measured.
#include <QLabel>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "sim/replay_buffer.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/replay_bar.hpp"
#include "views/trace_panel.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {

// The 99th percentile of |value| over the non-zero values, written here from its definition
// (ascending rank floor(q (n - 1))), independent of the engine's abs_quantile.
double level_of(const std::vector<float>& values) {
    std::vector<double> mags;
    for (float v : values)
        if (v != 0.0f) mags.push_back(std::abs(double(v)));
    if (mags.empty()) return 0;
    std::sort(mags.begin(), mags.end());
    return mags[std::size_t(0.99 * double(mags.size() - 1))];
}

// A frame of w x h values, all `value` but one larger spike, and its own id table.
ReplayFrame frame_of(std::int64_t step, int w, int h, float value) {
    ReplayFrame f;
    f.slice.width = w;
    f.slice.height = h;
    f.slice.values.assign(std::size_t(w) * h, value);
    f.slice.values[0] = 100 * value;
    f.element_ids = std::make_shared<std::vector<MaterialId>>(std::size_t(w - 1) * (h - 1), MaterialId(1));
    f.step = step;
    f.time = double(step) * 1e-7;
    return f;
}

// A 200-step run of the test block at 2 mm (50 x 50 x 25 elements): enough work per step that
// the window gets several frames (the first chunks are a step each, then about 30 ms).
constexpr int kSourcePlane = 25;  // y = 50 mm, through the source
Scene replay_scene() {
    Scene s = small_scene(0.002);
    s.run.steps = 200;
    return s;
}

QLabel* status_label(MainWindow& w, const char* name) { return w.statusBar()->findChild<QLabel*>(name); }

}  // namespace

class TestRunReplay : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    // Runs the open scene to its end; the slot `each_frame` sees every frame after the window
    // has drawn it. Returns the wall time measured around the run.
    double runToTheEnd(const std::function<void(const SimulationFrame&)>& each_frame = {}) {
        QSignalSpy finished(w_->controller(), &SimulationController::finished);
        QMetaObject::Connection c;
        if (each_frame) c = connect(w_->controller(), &SimulationController::frameReady, this, each_frame);
        const auto t0 = std::chrono::steady_clock::now();
        w_->startRun();
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000); }();
        const double around = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        disconnect(c);
        return around;
    }

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(open_in_window(*w_, dir_.filePath("replay.json"), replay_scene()));
        // The slice through the source (y = 50 mm): the wave is in every frame after the first.
        w_->painter()->setPlane(SlicePlane::XZ);
        w_->painter()->setNodePlane(kSourcePlane);
        QCOMPARE(w_->painter()->nodePlane(), kSourcePlane);
    }

    // The store's arithmetic, against counts worked out here.
    void storeKeepsTheNewestFramesWithinItsLimit() {
        ReplayBuffer b;
        const int w = 10, h = 8;
        const std::size_t values = std::size_t(w) * h * sizeof(float), ids = std::size_t(w - 1) * (h - 1);
        // Room for 5 frames' values and one id table (shared by frames of equal ids).
        b.setLimitBytes(5 * values + ids);
        for (int n = 0; n < 12; ++n) QVERIFY(b.push(frame_of(n, w, h, 1e-9f * float(n + 1))));
        QCOMPARE(b.size(), std::size_t(5));
        QCOMPARE(b.at(0).step, std::int64_t(7));  // 12 pushed, the 7 oldest gone
        QCOMPARE(b.newest().step, std::int64_t(11));
        QCOMPARE(b.dropped(), std::size_t(7));
        QCOMPARE(b.bytes(), 5 * values + ids);
        // The replay's gain: the largest frame level, each the 99th percentile of |value|.
        double peak = 0;
        for (std::size_t i = 0; i < b.size(); ++i) peak = std::max(peak, level_of(b.at(i).slice.values));
        QCOMPARE(b.peakLevel(), peak);
        QCOMPARE(float(b.peakLevel()), 12e-9f);
        // The closing frame of a run repeats the last step: not stored twice.
        QVERIFY(!b.push(frame_of(11, w, h, 1.0f)));
        QCOMPARE(b.size(), std::size_t(5));
        // A smaller limit drops the oldest at once; a frame larger than the limit is not kept.
        b.setLimitBytes(2 * values + ids);
        QCOMPARE(b.size(), std::size_t(2));
        QCOMPARE(b.at(0).step, std::int64_t(10));
        QVERIFY(!b.push(frame_of(12, 100, 100, 1.0f)));
        // Another node plane starts the store over.
        ReplayFrame other = frame_of(13, w, h, 1.0f);
        other.node_plane = 3;
        QVERIFY(b.push(other));
        QCOMPARE(b.size(), std::size_t(1));
        QCOMPARE(b.dropped(), std::size_t(0));
        // Limit 0: the store is off.
        b.setLimitBytes(0);
        QVERIFY(b.empty());
        QVERIFY(!b.push(frame_of(14, w, h, 1.0f)));
    }

    void limitIsShownSettableAndSaved() {
        ReplayBar* bar = w_->replay();
        QCOMPARE(bar->limitMiB(), 256);  // the default, with fresh settings
        QVERIFY(bar->statusText().contains("no frames"));
        bar->setLimitMiB(64);
        QCOMPARE(QSettings().value(ReplayBar::kLimitKey).toInt(), 64);
        QCOMPARE(bar->buffer().limitBytes(), std::size_t(64) << 20);
        ReplayBar another;  // a later session reads it back
        QCOMPARE(another.limitMiB(), 64);
        bar->setLimitMiB(ReplayBar::kDefaultLimitMiB);
    }

    // The check: after a 200-step run, the slider on frame k draws the pixels frame k
    // drew live. Both on one manual gain (the auto gain follows the frames live).
    void scrubbingAfterTheRunShowsFrameKAsItWasShownLive() {
        MainWindow& w = *w_;
        // First run, auto gain: the replay draws every frame on the run's peak level.
        runToTheEnd();
        const ReplayBuffer& store = w.replay()->buffer();
        QVERIFY2(store.size() >= 3, qPrintable(QString::number(store.size())));
        QCOMPARE(store.at(0).step, std::int64_t(0));
        QCOMPARE(store.newest().step, std::int64_t(200));
        QVERIFY(w.replay()->statusText().contains("replay from t = 0.00 µs"));
        double peak = 0;
        for (std::size_t i = 0; i < store.size(); ++i) peak = std::max(peak, level_of(store.at(i).slice.values));
        QVERIFY(peak > 0);
        w.replay()->showFrame(int(store.size()) - 1);
        QVERIFY(w.wavefield()->autoGain());
        QCOMPARE(w.wavefield()->gain(), peak);

        // Second run, manual gain at that peak: every frame drawn live is grabbed.
        w.wavefield()->setManualGain(peak);
        std::map<std::int64_t, QImage> live;
        runToTheEnd([&](const SimulationFrame& f) {
            if (w.replay()->isLive() && !live.count(f.step)) live[f.step] = w.wavefield()->grabFramebuffer();
        });
        QVERIFY(w.replay()->isLive());
        QVERIFY2(store.size() >= 3, qPrintable(QString::number(store.size())));
        QCOMPARE(store.newest().step, std::int64_t(200));
        QImage first, last;
        for (int k = 0; k < int(store.size()); ++k) {
            const std::int64_t step = store.at(std::size_t(k)).step;
            QVERIFY2(live.count(step), qPrintable(QString("frame %1 (step %2) was not seen live").arg(k).arg(step)));
            w.replay()->showFrame(k);
            QCOMPARE(w.replay()->position(), k);
            const QImage replayed = w.wavefield()->grabFramebuffer();
            QCOMPARE(replayed.size(), live[step].size());
            QVERIFY2(replayed == live[step], qPrintable(QString("frame %1 (step %2) differs").arg(k).arg(step)));
            if (k == 0) first = replayed;
            last = replayed;
        }
        // The frames show the wave, not one picture: the last (step 200) is not the first (at rest).
        QVERIFY(first != last);
        // The slider: its left end is the oldest frame, its right end the live one.
        auto* slider = w.replay()->findChild<QSlider*>();
        QVERIFY(slider);
        slider->setValue(0);
        QCOMPARE(w.replay()->position(), 0);
        QVERIFY(w.wavefield()->slice().values == store.at(0).slice.values);
        slider->setValue(slider->maximum());
        QVERIFY(w.replay()->isLive());
        QVERIFY(w.wavefield()->slice().values == store.newest().slice.values);
        // Play runs through the stored frames from the oldest and stops on the newest.
        w.replay()->setPlaying(true);
        QCOMPARE(w.replay()->position(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!w.replay()->isPlaying(), 10000);
        QCOMPARE(w.replay()->position(), int(store.size()) - 1);
        w.replay()->goLive();
        QVERIFY(w.replay()->isLive());
        QCOMPARE(w.wavefield()->fixedGain(), 0.0);
        w.wavefield()->setAutoGain(true);
    }

    // Scrubbing during a run shows the stored frame while the run goes on; Live returns.
    void scrubbingDuringARunKeepsTheStoredFrameUntilLive() {
        MainWindow& w = *w_;
        Scene s = replay_scene();
        s.run.steps = 0;
        s.run.duration = 1.0;  // far more than the test waits for
        const QString path = dir_.filePath("long.json");
        write_scene_json(path.toStdString(), s);
        QVERIFY(w.openScene(path, true));
        w.painter()->setNodePlane(kSourcePlane);
        QSignalSpy finished(w.controller(), &SimulationController::finished);
        w.startRun();
        const ReplayBuffer& store = w.replay()->buffer();
        QTRY_VERIFY_WITH_TIMEOUT(store.size() >= 3, 30000);
        w.replay()->showFrame(1);
        const std::int64_t shown_step = store.at(1).step;
        const std::vector<float> shown = store.at(1).slice.values;
        QVERIFY(w.wavefield()->slice().values == shown);
        const std::size_t stored = store.size();
        QTRY_VERIFY_WITH_TIMEOUT(store.size() >= stored + 3, 30000);  // the run went on
        QVERIFY(w.controller()->busy());
        QVERIFY(!w.replay()->isLive());
        QCOMPARE(store.at(std::size_t(w.replay()->position())).step, shown_step);
        QVERIFY(w.wavefield()->slice().values == shown);
        w.replay()->goLive();
        QVERIFY(w.wavefield()->slice().values == store.newest().slice.values);
        const std::int64_t newest = store.newest().step;
        QTRY_VERIFY_WITH_TIMEOUT(store.newest().step > newest, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(w.wavefield()->slice().values == store.newest().slice.values, 5000);
        w.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    }

    // Steps/s and ETA do not stay frozen: "paused" with no ETA while paused, the run's average
    // and its end once stopped; the progress and time stay those of the run's last step.
    void liveFiguresFollowPauseAndStop() {
        MainWindow& w = *w_;
        QLabel* rate = status_label(w, "rate-label");
        QLabel* eta = status_label(w, "eta-label");
        QLabel* time = status_label(w, "time-label");
        QVERIFY(rate && eta && time);
        w.resetRun();  // a run an earlier failed check left going
        QSignalSpy finished(w.controller(), &SimulationController::finished);
        QSignalSpy started(w.controller(), &SimulationController::started);
        w.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(rate->text().endsWith("steps/s") && eta->text().startsWith("ETA"), 30000);
        w.pauseRun();
        QTRY_COMPARE_WITH_TIMEOUT(w.controller()->state(), SimulationController::State::Paused, 5000);
        QTest::qWait(300);  // frames sent before the pause arrive: they must not bring the rate back
        QCOMPARE(rate->text(), QString("paused"));
        QVERIFY(eta->text().isEmpty());
        w.startRun();  // resumes
        QTRY_VERIFY_WITH_TIMEOUT(rate->text().endsWith("steps/s") && eta->text().startsWith("ETA"), 30000);
        w.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(eta->text(), QString("stopped"));
        QVERIFY2(rate->text().endsWith("steps/s average"), qPrintable(rate->text()));
        const Result& r = w.controller()->lastResult();
        QVERIFY(r.steps > 0);
        QCOMPARE(started.count(), 1);
        const qint64 total = started.front().at(1).toLongLong();
        QVERIFY(total > r.steps);
        QCOMPARE(w.statusBar()->findChild<QProgressBar*>()->value(), int(1000.0 * double(r.steps) / double(total)));
        QCOMPARE(time->text(), QString("t = %1 µs").arg(double(r.steps) * r.dt * 1e6, 0, 'f', 2));
    }

    // The result's wall time: above 0 and within a clock read around the run.
    void resultRecordsItsWallTime() {
        MainWindow& w = *w_;
        const QString path = dir_.filePath("replay.json");
        QVERIFY(w.openScene(path, true));
        const double around = runToTheEnd();
        const Result& r = w.controller()->lastResult();
        QCOMPARE(r.steps, std::int64_t(200));
        QVERIFY2(r.wall_seconds > 0 && r.wall_seconds <= around,
                 qPrintable(QString("%1 of %2").arg(r.wall_seconds).arg(around)));
        QVERIFY(r.setup_seconds > 0 && r.setup_seconds < r.wall_seconds);
        QVERIFY(w.currentResult());
        QCOMPARE(w.currentResult()->wall_seconds, r.wall_seconds);
        // Exported, the file carries it.
        const QString out = dir_.filePath("timed.h5");
        QVERIFY2(w.exportTraces(out, true), qPrintable(w.lastError()));
        QCOMPARE(read_result_h5(out.toStdString()).wall_seconds, r.wall_seconds);
        QCOMPARE(status_label(w, "eta-label")->text().left(8), QString("done in "));
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestRunReplay t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_run_replay.moc"
