// File > Export video...: a run's frames, as the replay keeps them and the wavefield view draws
// them (overlay, colour bar and wavefronts included), written as an MP4 through the ffmpeg program
// when it is installed (H.264 from a temporary PNG sequence, run with QProcess), else as a PNG
// sequence in a folder. Frames are rendered one per event-loop pass, so the window stays live and
// the export can be cancelled; the MP4 is written under a temporary name and renamed when ffmpeg
// succeeds, so a failed or cancelled export leaves any earlier file as it was.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <functional>
#include <memory>

class QImage;

namespace voxwave::ui {

class VideoExport : public QObject {
    Q_OBJECT
public:
    explicit VideoExport(QObject* parent = nullptr);
    ~VideoExport() override;

    // The ffmpeg program on the PATH; empty when it is not installed.
    static QString ffmpegPath();
    // Starts the export of `frames` pictures, picture i made by render(i): to `path` as MP4 at
    // `fps` frames/s (`mp4`), else into the folder `path` as frame_00000.png, ... (made if
    // missing). Returns false, with the reason in finished(), when it cannot start.
    bool start(const QString& path, bool mp4, int frames, int fps, std::function<QImage(int)> render);
    void cancel();
    bool busy() const { return busy_; }
    // Progress steps of the export: one per frame, and one for ffmpeg's encoding.
    int totalSteps() const { return frames_ + (mp4_ ? 1 : 0); }

signals:
    void progress(int done, int total);
    // ok: `message` says what was written; otherwise why nothing (or only part of a PNG
    // sequence) was.
    void finished(bool ok, const QString& message);

private:
    void nextFrame();
    void encode();
    void finish(bool ok, const QString& message);

    QString path_;
    bool mp4_ = false;
    int frames_ = 0, fps_ = 25, done_ = 0;
    bool busy_ = false;
    std::function<QImage(int)> render_;
    std::unique_ptr<QTemporaryDir> temp_;
    QString frame_dir_;
    QProcess* ffmpeg_ = nullptr;
};

}  // namespace voxwave::ui
