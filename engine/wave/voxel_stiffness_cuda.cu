// VFEM / OVFEM stiffness product f += K w on the GPU with the moment kernel (FP64 or FP32).
//
// Mapping (why): a warp takes 32 consecutive elements of one x-row and sweeps a chunk of z
// planes. Neighbouring lanes share the x-faces of their elements, so each node's x-sum is
// formed with one warp shuffle; the top face of plane k is the bottom face of plane k+1, so
// it is carried in registers to the next plane. What is left for global atomics is one add
// per node row (b = 0, 1) and component per element: 6 instead of 24, and none for void.
#include "wave/cuda_support.cuh"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

__device__ __forceinline__ std::size_t node_at(int nx, int ny, int i, int j, int k) {
    return std::size_t(i) + std::size_t(nx + 1) * (std::size_t(j) + std::size_t(ny + 1) * std::size_t(k));
}

template <class Real>
__device__ __forceinline__ void add_if_nonzero(Real* p, Real v) {
    if (v != Real(0)) atomicAdd(p, v);
}

template <class Real, bool Damped>
__global__ void __launch_bounds__(kStiffnessBlockThreads) moment_stiffness_kernel(MomentStiffnessArgs<Real> a) {
    const int lane = threadIdx.x & 31;
    const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
    const int segs = (a.nx + kWarpElements - 1) / kWarpElements;
    const int chunks = (a.nz + kPlanesPerChunk - 1) / kPlanesPerChunk;
    const int seg = int(warp % std::size_t(segs));
    const std::size_t rest = warp / std::size_t(segs);
    const int j = int(rest % std::size_t(a.ny));
    const int chunk = int(rest / std::size_t(a.ny));
    if (chunk >= chunks) return;  // whole warp leaves together
    const int i = seg * kWarpElements + lane;  // this lane's element, and its node x for the sums
    const bool in_row = i < a.nx;
    const int k0 = chunk * kPlanesPerChunk;
    const int k1 = min(a.nz, k0 + kPlanesPerChunk);

    Real carry[2][3] = {}, carry_edge[2][3] = {};  // node plane contributions from the plane below
    for (int k = k0; k < k1; ++k) {
        const unsigned id = in_row ? unsigned(__ldg(a.ids + std::size_t(i) + std::size_t(a.nx) * (std::size_t(j) + std::size_t(a.ny) * k))) : 0u;
        Real fe[24];
        if (id != 0) {
            Real ue[24];
#pragma unroll
            for (int c = 0; c < 2; ++c)
#pragma unroll
                for (int bb = 0; bb < 2; ++bb)
#pragma unroll
                    for (int aa = 0; aa < 2; ++aa) {
                        const std::size_t n = node_at(a.nx, a.ny, i + aa, j + bb, k + c);
                        const int l = voxel_local_node(aa, bb, c);
#pragma unroll
                        for (int comp = 0; comp < 3; ++comp) {
                            const Real v = __ldg(a.u[comp] + n);
                            ue[3 * l + comp] = Damped ? a.keep * v - a.b * __ldg(a.u_prev[comp] + n) : v;
                        }
                    }
            voxel_element_force(ue, __ldg(a.lambda + id), __ldg(a.mu + id), a.s0, a.s1, a.s2, fe);
        } else {
#pragma unroll
            for (int d = 0; d < 24; ++d) fe[d] = Real(0);
        }
        // x-combine: node x = i receives this lane's a = 0 corner and lane-1's a = 1 corner.
        Real bottom[2][3], top[2][3], edge_bottom[2][3], edge_top[2][3];
#pragma unroll
        for (int bb = 0; bb < 2; ++bb)
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                const Real near0 = fe[3 * voxel_local_node(0, bb, 0) + comp];
                const Real far0 = fe[3 * voxel_local_node(1, bb, 0) + comp];
                const Real near1 = fe[3 * voxel_local_node(0, bb, 1) + comp];
                const Real far1 = fe[3 * voxel_local_node(1, bb, 1) + comp];
                const Real from_left0 = __shfl_up_sync(0xffffffffu, far0, 1);
                const Real from_left1 = __shfl_up_sync(0xffffffffu, far1, 1);
                bottom[bb][comp] = near0 + (lane > 0 ? from_left0 : Real(0));
                top[bb][comp] = near1 + (lane > 0 ? from_left1 : Real(0));
                edge_bottom[bb][comp] = far0;  // only lane 31 uses these: node x = seg*32 + 32
                edge_top[bb][comp] = far1;
            }
        const bool node_ok = i <= a.nx;
        const bool edge_ok = lane == 31 && i + 1 <= a.nx;
#pragma unroll
        for (int bb = 0; bb < 2; ++bb) {
            const std::size_t n = node_at(a.nx, a.ny, i, j + bb, k);
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                if (node_ok) add_if_nonzero(a.f[comp] + n, carry[bb][comp] + bottom[bb][comp]);
                if (edge_ok) add_if_nonzero(a.f[comp] + n + 1, carry_edge[bb][comp] + edge_bottom[bb][comp]);
                carry[bb][comp] = top[bb][comp];
                carry_edge[bb][comp] = edge_top[bb][comp];
            }
        }
    }
    // The chunk's top node plane.
    const bool node_ok = i <= a.nx;
    const bool edge_ok = lane == 31 && i + 1 <= a.nx;
#pragma unroll
    for (int bb = 0; bb < 2; ++bb) {
        const std::size_t n = node_at(a.nx, a.ny, i, j + bb, k1);
#pragma unroll
        for (int comp = 0; comp < 3; ++comp) {
            if (node_ok) add_if_nonzero(a.f[comp] + n, carry[bb][comp]);
            if (edge_ok) add_if_nonzero(a.f[comp] + n + 1, carry_edge[bb][comp]);
        }
    }
}

}  // namespace

template <class Real>
void launch_moment_stiffness(const MomentStiffnessArgs<Real>& a, bool damped, cudaStream_t stream) {
    const std::size_t threads = stiffness_grid_warps(a.nx, a.ny, a.nz) * 32;
    const unsigned blocks = unsigned((threads + kStiffnessBlockThreads - 1) / kStiffnessBlockThreads);
    if (damped)
        moment_stiffness_kernel<Real, true><<<blocks, kStiffnessBlockThreads, 0, stream>>>(a);
    else
        moment_stiffness_kernel<Real, false><<<blocks, kStiffnessBlockThreads, 0, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("moment_stiffness_kernel");
}

template void launch_moment_stiffness<double>(const MomentStiffnessArgs<double>&, bool, cudaStream_t);
template void launch_moment_stiffness<float>(const MomentStiffnessArgs<float>&, bool, cudaStream_t);

}  // namespace voxwave::cuda
