// How many steps each frame of a live run advances, so that frames come at a steady rate
// (about 30 per second) whatever the model and the backend: the GUI's controller and the
// live-frame benchmark use the same policy.
#pragma once

#include <algorithm>
#include <cstdint>

namespace voxwave {

class FramePacer {
public:
    explicit FramePacer(double frame_seconds = 0.03) : frame_seconds_(frame_seconds) {}
    std::int64_t chunk() const { return chunk_; }
    double steps_per_second() const { return rate_; }
    // After advancing `steps` in `seconds`: the measured rate sets the next chunk (1 .. 16384).
    void record(std::int64_t steps, double seconds) {
        if (steps <= 0 || seconds <= 0) return;
        rate_ = double(steps) / seconds;
        chunk_ = std::clamp<std::int64_t>(std::int64_t(frame_seconds_ * rate_), 1, 1 << 14);
    }

private:
    double frame_seconds_;
    std::int64_t chunk_ = 1;
    double rate_ = 0;
};

}  // namespace voxwave
