// Adding one warp's element forces to the global force vector, shared by the CUDA stiffness
// kernels. A warp owns 32 consecutive elements of one x-row (lane l = element x0 + l) and
// sweeps a chunk of z planes.
//
// Why: atomics were the cost. Neighbouring lanes share x-faces, so each node's x-sum is formed
// with one shuffle; the top face of plane k is the bottom face of plane k+1, so it is carried in
// registers. What is left is one add per node row (b = 0, 1) and component per element: 6
// instead of 24, none for void or quiet regions, issued as fire-and-forget reductions (RED).
// Measured on an H100 (2 mm paper model, FP64): colouring the y rows into two launches so that
// plain read-add-writes could replace the reductions made the kernel 2.9x SLOWER (148 -> 424
// us): a plain add must wait for its load, a reduction does not.
#pragma once

#include "wave/voxel_element_kernel.hpp"
#include "wave/wave_kernel_args.cuh"

namespace voxwave::cuda {

__device__ __forceinline__ std::size_t grid_node(int nx, int ny, int i, int j, int k) {
    return std::size_t(i) + std::size_t(nx + 1) * (std::size_t(j) + std::size_t(ny + 1) * std::size_t(k));
}

// Which warp does what: segment of 32 elements along x, element row j,
// chunk of z planes [k0, k1).
struct WarpRow {
    int seg, j, chunk, k0, k1;
    bool valid;
};

__device__ __forceinline__ WarpRow warp_row(int nx, int ny, int nz) {
    const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
    const int segs = (nx + kWarpElements - 1) / kWarpElements;
    const int rows = ny;
    const int chunks = (nz + kPlanesPerChunk - 1) / kPlanesPerChunk;
    WarpRow w{};
    w.seg = int(warp % std::size_t(segs));
    const std::size_t rest = warp / std::size_t(segs);
    w.j = int(rest % std::size_t(rows > 0 ? rows : 1));
    w.chunk = int(rest / std::size_t(rows > 0 ? rows : 1));
    w.valid = rows > 0 && w.chunk < chunks;
    w.k0 = w.chunk * kPlanesPerChunk;
    w.k1 = min(nz, w.k0 + kPlanesPerChunk);
    return w;
}

inline std::size_t row_grid_warps(int nx, int ny, int nz) {
    const std::size_t segs = std::size_t((nx + kWarpElements - 1) / kWarpElements);
    const std::size_t rows = std::size_t(ny);
    const std::size_t chunks = std::size_t((nz + kPlanesPerChunk - 1) / kPlanesPerChunk);
    return segs * rows * chunks;
}

template <class Real>
__device__ __forceinline__ void add_to(Real* p, Real v) {
    if (v != Real(0)) atomicAdd(p, v);  // result unused: compiles to RED; void and quiet regions cost nothing
}

// The x sums of a warp's row of element forces: node (i, j + bb) of face cc (0: bottom, 1: top)
// gets lane i's near corner and the far corner of lane i - 1 (lane 0: its own only).
template <class Real>
__device__ __forceinline__ void x_node_sums(const Real (&fe)[24], int lane, Real (&out)[2][2][3]) {
#pragma unroll
    for (int cc = 0; cc < 2; ++cc)
#pragma unroll
        for (int bb = 0; bb < 2; ++bb)
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                const Real from_left = __shfl_up_sync(0xffffffffu, fe[3 * voxel_local_node(1, bb, cc) + comp], 1);
                out[cc][bb][comp] = fe[3 * voxel_local_node(0, bb, cc) + comp] + (lane > 0 ? from_left : Real(0));
            }
}

// fe = K_e ue of an element of material `id` (0: void or outside, fe = 0); gather(ue) fills the
// element's 24 operand values only when there is an element.
template <class Real, class Gather>
__device__ __forceinline__ void moment_element_forces(unsigned id, Real lambda, Real mu, Real s0, Real s1, Real s2,
                                                      Gather&& gather, Real (&fe)[24]) {
    if (id != 0) {
        Real ue[24];
        gather(ue);
        voxel_element_force(ue, lambda, mu, s0, s1, s2, fe);
    } else {
#pragma unroll
        for (int d = 0; d < 24; ++d) fe[d] = Real(0);
    }
}

template <class Real>
struct RowEmitter {
    Real carry[2][3] = {}, carry_edge[2][3] = {};

    // fe: this lane's element forces (local node order), zero for void / outside the row.
    __device__ __forceinline__ void plane(const Real (&fe)[24], int lane, const WarpRow& w, int k, int nx, int ny,
                                          Real* const (&f)[3]) {
        const int i = w.seg * kWarpElements + lane;
        Real sums[2][2][3];  // [face][bb][component]
        x_node_sums(fe, lane, sums);
        const bool node_ok = i <= nx, edge_ok = lane == 31 && i + 1 <= nx;
#pragma unroll
        for (int bb = 0; bb < 2; ++bb) {
            const std::size_t n = grid_node(nx, ny, i, w.j + bb, k);
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                // Lane 31's far corners: node x0 + 32, the next segment's seam.
                const Real edge_bottom = fe[3 * voxel_local_node(1, bb, 0) + comp];
                if (node_ok) add_to(f[comp] + n, carry[bb][comp] + sums[0][bb][comp]);
                if (edge_ok) add_to(f[comp] + n + 1, carry_edge[bb][comp] + edge_bottom);
                carry[bb][comp] = sums[1][bb][comp];
                carry_edge[bb][comp] = fe[3 * voxel_local_node(1, bb, 1) + comp];
            }
        }
    }

    // The chunk's top node plane k1.
    __device__ __forceinline__ void finish(int lane, const WarpRow& w, int nx, int ny, Real* const (&f)[3]) {
        const int i = w.seg * kWarpElements + lane;
        const bool node_ok = i <= nx, edge_ok = lane == 31 && i + 1 <= nx;
#pragma unroll
        for (int bb = 0; bb < 2; ++bb) {
            const std::size_t n = grid_node(nx, ny, i, w.j + bb, w.k1);
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                if (node_ok) add_to(f[comp] + n, carry[bb][comp]);
                if (edge_ok) add_to(f[comp] + n + 1, carry_edge[bb][comp]);
            }
        }
    }
};

}  // namespace voxwave::cuda
