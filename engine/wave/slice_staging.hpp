// Live slices that stay on the GPU between two threads: the thread that steps a CUDA session
// (the producer) snapshots a slice into a small device staging buffer, with its max |value| and
// colour-scale level reduced on the device; another thread (the GUI, its GL context current)
// copies the latest snapshot device-to-device into a GL buffer (GlSliceBuffer::copy_from).
// Three slots: the one the consumer copies from, the latest published one, and one the producer
// writes; the producer never writes a slot whose copy is still queued (it waits on the
// consumer's event on the device, not on the host). No Qt, no GL calls here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "wave/wave_session.hpp"

namespace voxwave {

struct StagedSliceInfo {
    int width = 0, height = 0;
    std::int64_t step = 0;
    std::uint64_t sequence = 0;  // 1, 2, ... in the order the producer published
    float max_abs = 0;           // exact max |value| (non-finite values ignored)
    float level = 0;             // the `quantile` of |value| over the non-zero values, ~3 % accurate
};

class DeviceSliceStaging {
public:
    // On the producer thread, after the session made its device current. Throws RuntimeError
    // when the build has no CUDA.
    DeviceSliceStaging();
    ~DeviceSliceStaging();
    DeviceSliceStaging(const DeviceSliceStaging&) = delete;
    DeviceSliceStaging& operator=(const DeviceSliceStaging&) = delete;

    // The CUDA device of the staging buffers (the producer's current device at construction).
    int device() const;

    // Producer: writes the session's slice (CUDA backend) into a free slot, reduces its max |value|
    // and the `quantile` of |value| (abs_quantile's definition) on the device, waits for them and
    // publishes the slot as the latest. Throws RuntimeError on any CUDA failure.
    StagedSliceInfo snapshot(const WaveSession& session, SlicePlane plane, int index, SliceQuantity quantity,
                             double quantile = kColourScaleQuantile);

    // Consumer: whether a snapshot was published that copy_latest has not taken yet, and its
    // info (the consumer sizes its buffer from it).
    bool has_new(StagedSliceInfo* info = nullptr) const;
    // Consumer: takes the latest published snapshot and enqueues on `stream` (a cudaStream_t on
    // the staging's device) its copy into `device_out`. The producer may reuse the slot once that
    // copy has run. False with *info = {} when nothing new was published; false with *info the
    // snapshot's (left published) when it holds more than `capacity_floats` floats.
    bool copy_latest(float* device_out, std::size_t capacity_floats, void* stream, StagedSliceInfo* info);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The level of a log histogram of |value| / max (kStagingBinsPerOctave bins per octave, bin 0
// the top one, the last bin also holding everything below it): the value of ascending rank
// floor(quantile * (count - 1)) among `count` non-zero values, interpolated geometrically inside
// its bin. Exposed for tests.
inline constexpr int kStagingBinsPerOctave = 16;
inline constexpr int kStagingBins = 48 * kStagingBinsPerOctave;
float staged_level_from_histogram(const std::uint32_t* bins, std::uint32_t count, float max_abs, double quantile);

}  // namespace voxwave
