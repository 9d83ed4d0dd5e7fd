// The replay's store: the frames of the shown wavefield slice, oldest first, in a ring bounded by
// a memory limit. When a new frame does not fit, the oldest frames go; the first stored frame
// then says from which time a replay can start. No Qt: the window owns one (through ReplayBar)
// and feeds it the frames the controller sends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "model/voxel_grid.hpp"
#include "wave/slice.hpp"

namespace voxwave::ui {

struct ReplayFrame {
    SliceImage slice;  // the values on the host
    // The element ids under the slice, shared by consecutive frames of one plane.
    std::shared_ptr<const std::vector<MaterialId>> element_ids;
    // What the frame shows: a frame of another plane, node plane or quantity starts a new replay.
    SlicePlane plane = SlicePlane::XZ;
    int node_plane = 0;
    int quantity = 0;
    std::int64_t step = 0;
    double time = 0;
    // The auto gain's level of this frame (the 99th percentile of |value|, as the live view
    // computes it), set when stored.
    float level = 0;
};

class ReplayBuffer {
public:
    // 256 MiB: about two thousand frames of the paper model's 2 mm XZ slice (163 x 193 nodes).
    static constexpr std::size_t kDefaultLimitBytes = std::size_t(256) << 20;

    // 0 turns the store off (and empties it); a smaller limit drops the oldest frames at once.
    void setLimitBytes(std::size_t bytes);
    std::size_t limitBytes() const { return limit_; }
    bool enabled() const { return limit_ > 0; }

    // Stores a frame as the newest (its level computed here). A frame of another view than the
    // stored ones empties the store first; a frame of the step last stored (a run's closing
    // frame repeats its last) is not stored again; a frame larger than the whole limit is not
    // stored. Returns whether it was stored.
    bool push(ReplayFrame frame);
    void clear();

    std::size_t size() const { return frames_.size(); }
    bool empty() const { return frames_.empty(); }
    const ReplayFrame& at(std::size_t i) const { return frames_.at(i); }  // 0: the oldest
    const ReplayFrame& newest() const { return frames_.back(); }
    // Memory the stored frames hold: their values, and each distinct element-id table once.
    std::size_t bytes() const { return bytes_; }
    // Frames dropped for the limit since the store last started over: > 0 means the replay no
    // longer starts at the run's first frame.
    std::size_t dropped() const { return dropped_; }
    // The gain of a replay: the largest level of any stored frame, so that every frame of the
    // run is drawn on one colour scale (the last frames are not blank next to the first).
    double peakLevel() const;

private:
    // The bytes a frame holds beside its neighbour in the store (its ids count only when not
    // shared with that neighbour).
    static std::size_t bytesOf(const ReplayFrame& f, const ReplayFrame* neighbour);
    void dropOldest();

    std::deque<ReplayFrame> frames_;
    std::size_t limit_ = kDefaultLimitBytes;
    std::size_t bytes_ = 0;
    std::size_t dropped_ = 0;
};

}  // namespace voxwave::ui
