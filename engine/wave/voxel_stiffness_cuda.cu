// VFEM / OVFEM stiffness product f += K w on the GPU with the moment kernel (FP64 or FP32).
//
// One thread per element of a warp's x-row (element_row_emit.cuh says how the forces reach
// global memory: shuffles along x, registers along z, reductions for the rest).
#include "core/cuda_check.cuh"
#include "wave/element_row_emit.cuh"
#include "wave/voxel_element_kernel.hpp"
#include "wave/wave_kernel_args.cuh"

namespace voxwave::cuda {
namespace {

template <class Real, bool Damped>
__global__ void __launch_bounds__(kStiffnessBlockThreads) moment_stiffness_kernel(MomentStiffnessArgs<Real> a) {
    const int lane = threadIdx.x & 31;
    const WarpRow w = warp_row(a.nx, a.ny, a.nz);
    if (!w.valid) return;  // whole warp leaves together
    const int i = w.seg * kWarpElements + lane;
    const bool in_row = i < a.nx;
    RowEmitter<Real> emit;
    for (int k = w.k0; k < w.k1; ++k) {
        const unsigned id = in_row ? unsigned(__ldg(a.ids + std::size_t(i) +
                                                    std::size_t(a.nx) * (std::size_t(w.j) + std::size_t(a.ny) * k)))
                                   : 0u;
        Real fe[24];
        moment_element_forces(
            id, __ldg(a.lambda + id), __ldg(a.mu + id), a.s0, a.s1, a.s2,
            [&](Real(&ue)[24]) {
#pragma unroll
                for (int c = 0; c < 2; ++c)
#pragma unroll
                    for (int bb = 0; bb < 2; ++bb)
#pragma unroll
                        for (int aa = 0; aa < 2; ++aa) {
                            const std::size_t n = grid_node(a.nx, a.ny, i + aa, w.j + bb, k + c);
                            const int l = voxel_local_node(aa, bb, c);
#pragma unroll
                            for (int comp = 0; comp < 3; ++comp) {
                                const Real v = __ldg(a.u[comp] + n);
                                ue[3 * l + comp] = Damped ? a.keep * v - a.b * __ldg(a.u_prev[comp] + n) : v;
                            }
                        }
            },
            fe);
        emit.plane(fe, lane, w, k, a.nx, a.ny, a.f);
    }
    emit.finish(lane, w, a.nx, a.ny, a.f);
}

}  // namespace

template <class Real>
void launch_moment_stiffness(const MomentStiffnessArgs<Real>& a, bool damped, cudaStream_t stream) {
    {
        const std::size_t threads = row_grid_warps(a.nx, a.ny, a.nz) * 32;
        if (threads == 0) return;
        const unsigned blocks = unsigned((threads + kStiffnessBlockThreads - 1) / kStiffnessBlockThreads);
        if (damped)
            moment_stiffness_kernel<Real, true><<<blocks, kStiffnessBlockThreads, 0, stream>>>(a);
        else
            moment_stiffness_kernel<Real, false><<<blocks, kStiffnessBlockThreads, 0, stream>>>(a);
        VOXWAVE_CUDA_CHECK_LAUNCH("moment_stiffness_kernel");
    }
}

template void launch_moment_stiffness<double>(const MomentStiffnessArgs<double>&, bool, cudaStream_t);
template void launch_moment_stiffness<float>(const MomentStiffnessArgs<float>&, bool, cudaStream_t);

}  // namespace voxwave::cuda
