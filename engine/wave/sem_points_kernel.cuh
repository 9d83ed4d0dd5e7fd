// The point work of a CUDA SEM step (sem_stepper_cuda.hpp): u at the receivers and the sources'
// forces into u+. The scatter's node kernel does it in the same launch as the update
// (sem_scatter_kernel.cuh); sem_point_work does it alone after the sweep's colour launches or a
// PML's passes. Why folded: on the small models the scatter runs, a step is a few tens of
// microseconds and each launch of a few threads costs about 3 of them.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace voxwave::sem_cuda {

constexpr int kMaxPointSources = 16;  // sources a launch (more: further sem_point_work launches)

struct SemSourceBatch {
    int count = 0;
    unsigned long long node[kMaxPointSources] = {};
    double force[kMaxPointSources][3] = {};  // F(t_n) along each axis
    // Where the scatter's element kernel puts source i into the force it adds (sem_element_scatter):
    // one solid element at its node (kNoElement: none), by its index in the element list
    // (sem_scatter_source_places) and, in the kernel's launch, by its block slot (block x elements a
    // block + element of the block, sem_scatter_launch_sources); and the node's point in that
    // element, x-fastest.
    static constexpr unsigned kNoElement = 0xffffffffu;
    unsigned element[kMaxPointSources] = {};
    unsigned short point[kMaxPointSources] = {};
};

struct SemPointWork {
    const unsigned long long* receivers = nullptr;
    int receiver_count = 0;     // 0: no samples in this launch
    double* samples = nullptr;  // u at receiver r into [r * 3 + c]
    SemSourceBatch sources;     // count 0: none in this launch
};

// u at receiver i into the samples. u is only read during a step (the step writes u+ and f), so
// any launch of the step may take them.
template <class Real>
VOXWAVE_HD_INLINE void sem_sample_receiver(const SemPointWork& w, int i, unsigned long long nn, const Real* u) {
    for (int c = 0; c < 3; ++c) w.samples[i * 3 + c] = double(u[c * nn + w.receivers[i]]);
}

// u+ of component c at node n with the batch's sources at n added in batch order, each
// dt^2/m / (1 + h) times its force (scale), as explicit fmas. Why: written out, the compiler may
// contract the add with the product that formed u+ (the update's) instead of with the force's, and
// which one depends on inlining, so the update with its sources in and the point work after it
// would differ in the last bit.
template <class Real>
VOXWAVE_HD_INLINE Real sem_add_node_sources(const SemSourceBatch& s, unsigned long long n, int c, Real scale,
                                            Real u_next) {
    for (int i = 0; i < s.count; ++i)
        if (s.node[i] == n) u_next = fma(scale, static_cast<Real>(s.force[i][c]), u_next);
    return u_next;
}

// The point work alone: thread i samples receiver i and adds the sources at source i's node if no
// earlier source of the batch has that node (so that sources sharing a node add in batch order,
// as sem_add_node_sources does).
template <class Real>
__global__ void sem_point_work(SemPointWork w, unsigned long long nn, const Real* __restrict u, Real* __restrict u_next,
                               const Real* __restrict dt2_inv_mass, const Real* __restrict inv_one_plus_h) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < w.receiver_count) sem_sample_receiver(w, i, nn, u);
    if (i >= w.sources.count) return;
    const unsigned long long n = w.sources.node[i];
    for (int j = 0; j < i; ++j)
        if (w.sources.node[j] == n) return;
    const Real scale = dt2_inv_mass[n] * inv_one_plus_h[n];
    for (int c = 0; c < 3; ++c) u_next[c * nn + n] = sem_add_node_sources(w.sources, n, c, scale, u_next[c * nn + n]);
}

}  // namespace voxwave::sem_cuda
