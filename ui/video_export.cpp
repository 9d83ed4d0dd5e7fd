#include "video_export.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QStandardPaths>
#include <QTimer>

namespace voxwave::ui {

namespace {
QString frame_name(int i) { return QStringLiteral("frame_%1.png").arg(i, 5, 10, QChar('0')); }
}  // namespace

VideoExport::VideoExport(QObject* parent) : QObject(parent) {}

VideoExport::~VideoExport() {
    if (ffmpeg_ && ffmpeg_->state() != QProcess::NotRunning) {
        ffmpeg_->kill();
        ffmpeg_->waitForFinished(2000);
    }
}

QString VideoExport::ffmpegPath() { return QStandardPaths::findExecutable("ffmpeg"); }

bool VideoExport::start(const QString& path, bool mp4, int frames, int fps, std::function<QImage(int)> render) {
    if (busy_) return false;
    path_ = path;
    mp4_ = mp4;
    frames_ = frames;
    fps_ = std::max(1, fps);
    done_ = 0;
    render_ = std::move(render);
    if (frames <= 0) {
        finish(false, tr("%1: no frames to export (run the scene first: the video is made of the frames the replay "
                         "keeps)")
                          .arg(path));
        return false;
    }
    if (mp4) {
        if (ffmpegPath().isEmpty()) {
            finish(false, tr("%1: ffmpeg is not installed (Debian: apt install ffmpeg); export a PNG sequence instead")
                              .arg(path));
            return false;
        }
        temp_ = std::make_unique<QTemporaryDir>();
        if (!temp_->isValid()) {
            finish(false, tr("%1: cannot make a temporary folder for the frames").arg(path));
            return false;
        }
        frame_dir_ = temp_->path();
    } else {
        if (!QDir().mkpath(path)) {
            finish(false, tr("%1: cannot make the folder").arg(path));
            return false;
        }
        frame_dir_ = path;
    }
    busy_ = true;
    QTimer::singleShot(0, this, &VideoExport::nextFrame);
    return true;
}

void VideoExport::nextFrame() {
    if (!busy_ || ffmpeg_) return;
    const QString file = QDir(frame_dir_).filePath(frame_name(done_));
    const QImage img = render_(done_);
    if (img.isNull() || !img.save(file, "PNG")) {
        finish(false, tr("%1: cannot write frame %2").arg(file).arg(done_));
        return;
    }
    ++done_;
    emit progress(done_, totalSteps());
    if (done_ < frames_)
        QTimer::singleShot(0, this, &VideoExport::nextFrame);
    else if (mp4_)
        encode();
    else
        finish(true, tr("Wrote %1 frames to %2").arg(frames_).arg(path_));
}

void VideoExport::encode() {
    const QString part = path_ + QStringLiteral(".part");
    QFile::remove(part);
    ffmpeg_ = new QProcess(this);
    ffmpeg_->setProcessChannelMode(QProcess::SeparateChannels);
    // H.264 in yuv420p plays everywhere (slides, browsers); it needs even sizes, hence the pad.
    const QStringList args = {"-y",
                              "-loglevel",
                              "error",
                              "-framerate",
                              QString::number(fps_),
                              "-i",
                              QDir(frame_dir_).filePath("frame_%05d.png"),
                              "-vf",
                              "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                              "-c:v",
                              "libx264",
                              "-pix_fmt",
                              "yuv420p",
                              "-f",
                              "mp4",
                              part};
    connect(ffmpeg_, &QProcess::finished, this, [this, part](int code, QProcess::ExitStatus status) {
        if (!busy_) return;  // cancelled
        if (status != QProcess::NormalExit || code != 0) {
            const QString said = QString::fromLocal8Bit(ffmpeg_->readAllStandardError()).trimmed();
            QFile::remove(part);
            finish(false,
                   tr("%1: ffmpeg failed (%2): %3")
                       .arg(path_, status == QProcess::NormalExit ? tr("exit code %1").arg(code) : tr("it crashed"),
                            said.isEmpty() ? tr("no message") : said.section('\n', -1)));
            return;
        }
        QFile::remove(path_);
        if (!QFile::rename(part, path_)) {
            finish(false, tr("%1: cannot move the finished video into place").arg(path_));
            return;
        }
        emit progress(totalSteps(), totalSteps());
        finish(true, tr("Wrote %1 (%2 frames, %3 frames/s)").arg(path_).arg(frames_).arg(fps_));
    });
    connect(ffmpeg_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && busy_)
            finish(false, tr("%1: cannot start ffmpeg (%2)").arg(path_, ffmpeg_->errorString()));
    });
    ffmpeg_->start(ffmpegPath(), args);
}

void VideoExport::cancel() {
    if (!busy_) return;
    if (ffmpeg_) {
        ffmpeg_->kill();
        ffmpeg_->waitForFinished(2000);
        QFile::remove(path_ + QStringLiteral(".part"));
    }
    finish(false, mp4_ ? tr("Export cancelled: %1 was not written").arg(path_)
                       : tr("Export cancelled after %1 of %2 frames in %3").arg(done_).arg(frames_).arg(path_));
}

void VideoExport::finish(bool ok, const QString& message) {
    busy_ = false;
    if (ffmpeg_) {
        ffmpeg_->disconnect(this);
        ffmpeg_->deleteLater();
        ffmpeg_ = nullptr;
    }
    temp_.reset();
    emit finished(ok, message);
}

}  // namespace voxwave::ui
