// Video export (issue 35): the replay's frames as an MP4 through ffmpeg, whose frame count ffprobe
// reports, or as a PNG sequence whose pictures are what the view draws; a failing ffmpeg is one
// clear message and leaves the earlier file alone; an export can be cancelled. Without ffmpeg the
// MP4 case skips, and the run exits 77 when nothing failed.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "sim/replay_buffer.hpp"
#include "ui_test_support.hpp"
#include "video_export.hpp"
#include "views/gl_format.hpp"
#include "views/replay_bar.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {
bool g_mp4_skipped = false;
}

class TestVideoExport : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    // Runs an export to its end; its finished() arguments.
    std::pair<bool, QString> exportAndWait(const QString& path, bool mp4) {
        VideoExport* v = w_->exportVideo(path, mp4, 10);
        if (!v) return {false, w_->lastError()};
        QSignalSpy done(v, &VideoExport::finished);
        if (v->busy()) [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 120000); }();
        if (done.isEmpty()) return {false, w_->lastError()};
        return {done.first().at(0).toBool(), done.first().at(1).toString()};
    }

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(open_in_window(*w_, dir_.filePath("small.json"), small_scene(0.005, 1e-3)));
        w_->painter()->setPlane(SlicePlane::XZ);
        w_->painter()->setNodePlane(10);
    }

    void withoutFramesSaysSo() {
        const auto [ok, message] = exportAndWait(dir_.filePath("none.mp4"), false);
        QVERIFY(!ok);
        QVERIFY2(w_->lastError().contains("no frames"), qPrintable(w_->lastError()));
    }

    void pngSequenceHoldsWhatTheViewDraws() {
        QVERIFY(step_frames(*w_, 12));
        const int frames = int(w_->replay()->buffer().size());
        QVERIFY2(frames >= 10, qPrintable(QString::number(frames)));
        const QString folder = dir_.filePath("png");
        const auto [ok, message] = exportAndWait(folder, false);
        QVERIFY2(ok, qPrintable(message));
        QCOMPARE(QDir(folder).entryList({"frame_*.png"}).size(), frames);
        QVERIFY(w_->replay()->isLive());  // back to the live frame
        for (int k : {0, frames - 1}) {
            w_->replay()->showFrame(k);
            const QImage drawn = w_->wavefield()->grabFramebuffer();
            const QImage file(QDir(folder).filePath(QStringLiteral("frame_%1.png").arg(k, 5, 10, QChar('0'))));
            QCOMPARE(file.size(), drawn.size());
            QVERIFY2(file.convertToFormat(QImage::Format_RGB32) == drawn.convertToFormat(QImage::Format_RGB32),
                     qPrintable(QString("frame %1").arg(k)));
        }
        w_->replay()->goLive();
    }

    void mp4HasEveryFrame() {
        if (VideoExport::ffmpegPath().isEmpty() || QStandardPaths::findExecutable("ffprobe").isEmpty()) {
            g_mp4_skipped = true;
            QSKIP("ffmpeg or ffprobe is not installed");
        }
        const int frames = int(w_->replay()->buffer().size());
        const QString out = dir_.filePath("run.mp4");
        const auto [ok, message] = exportAndWait(out, true);
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(!QFile::exists(out + ".part"));
        QProcess probe;
        probe.start("ffprobe", {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                "stream=nb_read_frames,codec_name", "-of", "default=noprint_wrappers=1", out});
        QVERIFY(probe.waitForFinished(60000));
        const QString said = QString::fromUtf8(probe.readAllStandardOutput());
        QVERIFY2(said.contains(QStringLiteral("nb_read_frames=%1").arg(frames)), qPrintable(said));
        QVERIFY2(said.contains("codec_name=h264"), qPrintable(said));
    }

    // An ffmpeg that fails (a stand-in first on the PATH): its last line in one message, and the
    // earlier video untouched.
    void failingFfmpegIsOneClearMessage() {
        QTemporaryDir bin;
        const QString fake = QDir(bin.path()).filePath("ffmpeg");
        QFile f(fake);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho 'Unknown encoder libx264' >&2\nexit 1\n");
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", bin.path().toUtf8() + ":" + path);
        QCOMPARE(VideoExport::ffmpegPath(), fake);
        const QString out = dir_.filePath("kept.mp4");
        QFile old(out);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("an earlier video");
        old.close();
        const auto [ok, message] = exportAndWait(out, true);
        qputenv("PATH", path);
        QVERIFY(!ok);
        QVERIFY2(message.contains("ffmpeg failed (exit code 1): Unknown encoder libx264"), qPrintable(message));
        QVERIFY(message.startsWith(out));
        QCOMPARE(w_->lastError(), message);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("an earlier video"));
        QVERIFY(!QFile::exists(out + ".part"));
    }

    void cancelStopsTheExport() {
        VideoExport* v = w_->exportVideo(dir_.filePath("cancelled"), false, 10);
        QVERIFY(v && v->busy());
        QSignalSpy done(v, &VideoExport::finished);
        QSignalSpy progress(v, &VideoExport::progress);
        QTRY_VERIFY(progress.count() >= 1);
        v->cancel();
        QCOMPARE(done.count(), 1);
        QCOMPARE(done.first().at(0).toBool(), false);
        QVERIFY(done.first().at(1).toString().contains("cancelled"));
        QVERIFY(!v->busy());
        const int written = int(QDir(dir_.filePath("cancelled")).entryList({"frame_*.png"}).size());
        QVERIFY(written < int(w_->replay()->buffer().size()));
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestVideoExport t;
    const int failed = QTest::qExec(&t, argc, argv);
    return failed == 0 && g_mp4_skipped ? 77 : failed;
}

#include "test_video_export.moc"
