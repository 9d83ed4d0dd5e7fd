// The replay under the live wavefield: a time slider over the frames a run has shown (kept in a
// ReplayBuffer), play / pause, and "Live" to go back to the frame the run is at. Scrubbing while
// a run goes on shows the stored frame and the run continues; the view returns to the run's
// frames with Live (or by sliding to the end). The store's memory limit is set here, in MiB,
// and kept in the user's settings; the bar says how much the frames hold and from which time a
// replay starts once the limit made the oldest frames go.
#pragma once

#include <QTimer>
#include <QWidget>

#include "sim/replay_buffer.hpp"

class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;

namespace voxwave::ui {

class ReplayBar : public QWidget {
    Q_OBJECT
public:
    // The settings key of the memory limit (MiB; 0 keeps no frames).
    static constexpr const char* kLimitKey = "replay/limit_mib";
    static constexpr int kDefaultLimitMiB = int(ReplayBuffer::kDefaultLimitBytes >> 20);
    static constexpr int kMaxLimitMiB = 65536;
    // Replay speed: how long each stored frame is shown while playing (25 frames a second).
    static constexpr int kPlayIntervalMs = 40;

    explicit ReplayBar(QWidget* parent = nullptr);

    const ReplayBuffer& buffer() const { return buffer_; }
    // Whether frames are kept at all (a limit above 0): the window asks for host copies of GPU
    // slices only then.
    bool enabled() const { return buffer_.enabled(); }
    // A frame the run has just shown (or would show, while the bar replays): stored as the newest.
    void store(ReplayFrame frame);
    // A new run, Reset, a result file shown: the frames go and the bar is live again.
    void clear();
    // Whether the view follows the run (true), or shows stored frame position().
    bool isLive() const { return position_ < 0; }
    int position() const { return position_; }
    bool isPlaying() const { return timer_.isActive(); }
    int limitMiB() const;
    // The text that says what the replay holds (frames, their span, the memory used).
    QString statusText() const;

public slots:
    // Shows stored frame `index` (0: the oldest); the view leaves the run's frames.
    void showFrame(int index);
    // Back to the run's frames: the newest stored frame is shown at once (the run's next frame
    // follows).
    void goLive();
    // Plays the stored frames from the one shown (from the oldest when live or at the end).
    void setPlaying(bool on);
    void setLimitMiB(int mib);

signals:
    // Draw this stored frame, on the replay's fixed gain (ReplayBuffer::peakLevel).
    void frameSelected(const voxwave::ui::ReplayFrame& frame);
    // Follow the run again; `newest` is the last frame stored (null when none was).
    void liveSelected(const voxwave::ui::ReplayFrame* newest);
    // The memory limit changed: 0 keeps no frames.
    void limitChanged(int mib);

private:
    void refresh();
    void advance();
    int indexOfStep(std::int64_t step) const;
    void followStoredFrame(std::int64_t shown_step);

    ReplayBuffer buffer_;
    int position_ = -1;
    QTimer timer_;
    QToolButton* play_ = nullptr;
    QToolButton* live_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* info_ = nullptr;
    QSpinBox* limit_ = nullptr;
};

}  // namespace voxwave::ui
