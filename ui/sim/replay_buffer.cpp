#include "sim/replay_buffer.hpp"

#include <algorithm>

namespace voxwave::ui {

std::size_t ReplayBuffer::bytesOf(const ReplayFrame& f, const ReplayFrame* neighbour) {
    std::size_t b = f.slice.values.size() * sizeof(float);
    if (f.element_ids && !(neighbour && neighbour->element_ids == f.element_ids))
        b += f.element_ids->size() * sizeof(MaterialId);
    return b;
}

void ReplayBuffer::setLimitBytes(std::size_t bytes) {
    limit_ = bytes;
    while (!frames_.empty() && bytes_ > limit_) dropOldest();
}

void ReplayBuffer::clear() {
    frames_.clear();
    bytes_ = 0;
    dropped_ = 0;
}

void ReplayBuffer::dropOldest() {
    // The oldest frame's ids stay counted when the next frame shares them.
    bytes_ -= bytesOf(frames_.front(), frames_.size() > 1 ? &frames_[1] : nullptr);
    frames_.pop_front();
    ++dropped_;
}

bool ReplayBuffer::push(ReplayFrame frame) {
    if (!enabled() || frame.slice.values.empty()) return false;
    if (!frames_.empty()) {
        const ReplayFrame& last = frames_.back();
        if (last.plane != frame.plane || last.node_plane != frame.node_plane || last.quantity != frame.quantity ||
            last.slice.width != frame.slice.width || last.slice.height != frame.slice.height || frame.step < last.step)
            clear();
        else if (frame.step == last.step)
            return false;
    }
    // Consecutive frames of one plane share one id table.
    if (!frames_.empty() && frame.element_ids && frames_.back().element_ids &&
        *frames_.back().element_ids == *frame.element_ids)
        frame.element_ids = frames_.back().element_ids;
    const std::size_t b = bytesOf(frame, frames_.empty() ? nullptr : &frames_.back());
    const std::size_t alone = bytesOf(frame, nullptr);
    if (alone > limit_) return false;
    while (!frames_.empty() && bytes_ + b > limit_) dropOldest();
    // With the store emptied, the frame's ids count in full again.
    const std::size_t added = frames_.empty() ? alone : b;
    frame.level = abs_quantile({&frame.slice}, kColourScaleQuantile);
    frames_.push_back(std::move(frame));
    bytes_ += added;
    return true;
}

double ReplayBuffer::peakLevel() const {
    float peak = 0;
    for (const auto& f : frames_) peak = std::max(peak, f.level);
    return peak;
}

}  // namespace voxwave::ui
