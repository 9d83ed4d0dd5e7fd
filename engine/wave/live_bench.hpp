// The live view's engine loop without a window: frames paced as the GUI paces them (FramePacer),
// each frame advancing a chunk of steps and producing a slice — on the GPU into device memory
// (the CUDA-OpenGL interop path writes to a mapped GL buffer the same way), on the CPU into host
// memory. Measures what the GUI can show: frames per second, steps per second, slice cost.
#pragma once

#include <cstdint>

#include "wave/wave_session.hpp"

namespace voxwave {

struct LiveBenchResult {
    std::int64_t frames = 0, steps = 0;
    double seconds = 0;
    double frames_per_second = 0, steps_per_second = 0;
    double slice_ms_mean = 0;  // producing one slice (GPU kernel + sync, or CPU gather)
    double frame_ms_max = 0;   // longest frame (chunk + slice)
    int slice_width = 0, slice_height = 0;
};

// Runs frames for `seconds` of wall time (the session must have enough steps or none set).
LiveBenchResult run_live_bench(WaveSession& session, double seconds, SlicePlane plane, int index,
                               SliceQuantity quantity);

}  // namespace voxwave
