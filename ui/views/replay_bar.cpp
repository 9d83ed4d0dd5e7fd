#include "views/replay_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <algorithm>

namespace voxwave::ui {

namespace {
QString micros(double seconds) { return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', 2); }
}  // namespace

ReplayBar::ReplayBar(QWidget* parent) : QWidget(parent) {
    play_ = new QToolButton;
    play_->setCheckable(true);
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    play_->setToolTip(tr("Play the run's stored frames / pause the replay"));
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setToolTip(
        tr("Time slider: the frames of the shown slice kept during the run. Drag it to see an earlier frame "
           "(the run goes on); the right end is the live frame."));
    live_ = new QToolButton;
    live_->setText(tr("Live"));
    live_->setCheckable(true);
    live_->setToolTip(tr("Show the frame the run is at (leaves the replay)"));
    info_ = new QLabel;
    info_->setMinimumWidth(0);
    info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    limit_ = new QSpinBox;
    limit_->setRange(0, kMaxLimitMiB);
    limit_->setSuffix(tr(" MiB"));
    limit_->setPrefix(tr("keep "));
    // Typing 1024 must not pass through a 1 MiB limit that drops the frames on the way.
    limit_->setKeyboardTracking(false);
    limit_->setToolTip(
        tr("Memory for the replay's frames: when it is full the oldest frames go. 0 keeps no frames "
           "(and GPU slices are not copied to the host)."));
    // Two rows: the controls, then what the replay holds (a long line in a narrow pane).
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(2, 0, 2, 0);
    column->setSpacing(0);
    auto* row = new QHBoxLayout;
    row->addWidget(play_);
    row->addWidget(slider_, 1);
    row->addWidget(live_);
    row->addWidget(limit_);
    column->addLayout(row);
    column->addWidget(info_);
    timer_.setInterval(kPlayIntervalMs);

    connect(&timer_, &QTimer::timeout, this, &ReplayBar::advance);
    connect(play_, &QToolButton::toggled, this, &ReplayBar::setPlaying);
    connect(live_, &QToolButton::clicked, this, [this] { goLive(); });
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        setPlaying(false);
        if (v >= int(buffer_.size()))
            goLive();
        else
            showFrame(v);
    });
    const int saved = QSettings().value(kLimitKey, kDefaultLimitMiB).toInt();
    limit_->setValue(std::clamp(saved, 0, kMaxLimitMiB));
    buffer_.setLimitBytes(std::size_t(limit_->value()) << 20);
    connect(limit_, &QSpinBox::valueChanged, this, &ReplayBar::setLimitMiB);
    refresh();
}

int ReplayBar::limitMiB() const { return limit_->value(); }

void ReplayBar::setLimitMiB(int mib) {
    mib = std::clamp(mib, 0, kMaxLimitMiB);
    if (limit_->value() != mib) {
        limit_->setValue(mib);  // comes back here through valueChanged
        return;
    }
    QSettings().setValue(kLimitKey, mib);
    const std::int64_t shown = isLive() ? -1 : buffer_.at(std::size_t(position_)).step;
    buffer_.setLimitBytes(std::size_t(mib) << 20);
    followStoredFrame(shown);
    emit limitChanged(mib);
}

int ReplayBar::indexOfStep(std::int64_t step) const {
    for (std::size_t i = 0; i < buffer_.size(); ++i)
        if (buffer_.at(i).step == step) return int(i);
    return -1;
}

// After the store changed: the frame shown keeps its place by its step; when it is gone (the
// limit dropped it, another view started the store over) the bar goes live.
void ReplayBar::followStoredFrame(std::int64_t shown_step) {
    if (shown_step < 0) {
        refresh();
        return;
    }
    position_ = indexOfStep(shown_step);
    if (position_ < 0)
        goLive();
    else
        refresh();
}

void ReplayBar::store(ReplayFrame frame) {
    const std::int64_t shown = isLive() ? -1 : buffer_.at(std::size_t(position_)).step;
    if (!buffer_.push(std::move(frame))) return;
    followStoredFrame(shown);
}

void ReplayBar::clear() {
    setPlaying(false);
    buffer_.clear();
    position_ = -1;
    refresh();
}

void ReplayBar::showFrame(int index) {
    if (index < 0 || index >= int(buffer_.size())) return;
    position_ = index;
    refresh();
    emit frameSelected(buffer_.at(std::size_t(index)));
}

void ReplayBar::goLive() {
    setPlaying(false);
    position_ = -1;
    refresh();
    emit liveSelected(buffer_.empty() ? nullptr : &buffer_.newest());
}

void ReplayBar::setPlaying(bool on) {
    if (on == timer_.isActive()) return;
    if (on) {
        if (buffer_.empty()) {
            refresh();
            return;
        }
        if (isLive() || position_ + 1 >= int(buffer_.size())) showFrame(0);
        timer_.start();
    } else {
        timer_.stop();
    }
    refresh();
}

void ReplayBar::advance() {
    if (isLive() || position_ + 1 >= int(buffer_.size())) {
        // The end of the stored frames: the replay stops on the newest one.
        setPlaying(false);
        return;
    }
    showFrame(position_ + 1);
}

QString ReplayBar::statusText() const {
    if (!buffer_.enabled()) return tr("Replay off (no memory for frames)");
    if (buffer_.empty()) return tr("Replay: no frames yet");
    const ReplayFrame& first = buffer_.at(0);
    const QString where = isLive() ? tr("Live")
                                   : tr("Frame %1/%2, t = %3")
                                         .arg(position_ + 1)
                                         .arg(buffer_.size())
                                         .arg(micros(buffer_.at(std::size_t(position_)).time));
    const QString from = buffer_.dropped() > 0
                             ? tr("replay from t = %1 (older frames over the memory limit)").arg(micros(first.time))
                             : tr("replay from t = %1").arg(micros(first.time));
    return tr("%1 · %2 · %3 frames, %4 of %5 MiB")
        .arg(where, from)
        .arg(buffer_.size())
        .arg(double(buffer_.bytes()) / double(1 << 20), 0, 'f', 1)
        .arg(limit_->value());
}

void ReplayBar::refresh() {
    {
        const QSignalBlocker b(slider_);
        slider_->setRange(0, int(buffer_.size()));
        slider_->setValue(isLive() ? int(buffer_.size()) : position_);
        slider_->setEnabled(!buffer_.empty());
    }
    {
        const QSignalBlocker b(play_);
        play_->setChecked(timer_.isActive());
        play_->setIcon(style()->standardIcon(timer_.isActive() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        play_->setEnabled(!buffer_.empty());
    }
    live_->setChecked(isLive());
    const QString text = statusText();
    info_->setText(text);
    info_->setToolTip(text);
}

}  // namespace voxwave::ui
