// Where the fused CUDA step adds a single run's sources and samples its receivers ("points").
//
// In the kernel (fused_points, fused_step.cuh): after its sweep every block walks both whole
// lists, lane 0 of its last warp the sources one after another and its 32 lanes the receivers,
// each node tested with integer divisions for whether the block updated it. That saves a launch
// (a separate point kernel cost 2.7-3.0 us a step) and costs every block of every step the walk,
// with the block's shared memory held until it ends. For a point source and a few receivers the
// walk is a few tests; a phased-array element is a face of about 84 source nodes and an FMC records
// every element's face (32 x 84 = 2,688 receiver nodes): 84 serial tests and 84 receiver
// iterations a lane in every block. After the kernel, one small launch does them instead (a thread
// a source node and component, its sources added in the list's order: GroupSourceNodes, as the
// kernel's lane 0 adds them, so u^{n+1} is the same bit for bit; a thread a receiver component).
//
// The threshold: a wave of blocks pays about one node test (a dependent load and 4-5 integer
// divisions, ~0.1 us) per source and per 32 receivers; at 8 sources and 64 receivers that is about
// 1 us, below the launch's 2.7-3.0 us, at 84 sources and 2,688 receivers about 17 us a wave.
// A run with a PML keeps its receivers in the kernel whatever the count (its sources come after
// the layer's passes in the launch either way; time_stepper_cuda.cu's upload_points).
#pragma once

#include <cstddef>

namespace voxwave {

enum class FusedPoints {
    Auto,         // InKernel up to kFusedKernelSources sources and kFusedKernelReceivers receivers, else
                  // AfterKernel; the benchmark knob VOXWAVE_FUSED_POINTS=kernel|launch overrides it
    InKernel,     // fused_points in every block
    AfterKernel,  // one launch after the fused kernel
};

inline constexpr std::size_t kFusedKernelSources = 8;     // source terms (one per (element, node) of a probe)
inline constexpr std::size_t kFusedKernelReceivers = 64;  // receiver nodes: two a lane

// true: the fused kernel adds these sources and samples these receivers itself. Throws
// InputError("", "VOXWAVE_FUSED_POINTS", ...) for a knob other than kernel or launch.
bool fused_kernel_takes_points(FusedPoints mode, std::size_t sources, std::size_t receivers);

}  // namespace voxwave
