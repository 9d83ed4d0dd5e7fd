// One whole VFEM / OVFEM time step in one kernel, node-centred and without atomics (issue 3:
// "a node-centred stencil without atomics").
//
// Why: the element kernel + update kernel pair moves f through global memory twice and adds
// into it with 6 reductions per element; on the H100 those reductions were the gap to the
// memory floor (2 mm paper model, FP64: 148 us element kernel + 258 us update, 7.4x the floor).
// Here a block owns a tile of node columns and sweeps a chunk of z planes:
//   - thread (tx, ty) computes the element whose lowest corner is node (i, j) = tile origin
//     - 1 + (tx, ty), for every element plane of the chunk (moment kernel, 24 corner values
//     through L1: neighbouring threads load the same nodes);
//   - each node's force is summed from its 4 elements of the plane in registers: along x with
//     one shuffle (a warp is one row of the tile), along y through shared memory, along z by
//     carrying the top face into the next plane;
//   - as soon as node plane k is complete its owner applies the central-difference update and
//     writes u^{n+1}. Nothing else of the step touches global memory.
// The tile's first row and column compute elements only for their neighbours (halo, recomputed
// by the next tile), and the element plane below a chunk is recomputed for the carry: 32 x TY
// threads own 31 x (TY - 1) nodes. u^{n+1} goes to a third buffer because neighbouring tiles
// still read u^{n-1} (stiffness-proportional damping applies K to keep u - b u^{n-1}).
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/errors.hpp"
#include "wave/cuda_support.cuh"
#include "wave/element_row_emit.cuh"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

constexpr int kTileX = 32;  // one warp per tile row: the x sums are shuffles

// The 4 corners (q = 2 bb + aa) of an element face at node plane kk: the operand w of K
// (keep u - b u^{n-1} when damped) and, for the thread's own node (q = 0), u and u^{n-1}.
template <class Real, bool Damped>
struct FaceValues {
    Real w[4][3];
    Real u[3], um[3];
};

template <class Real, bool Damped>
__device__ __forceinline__ void load_face(const FusedStepArgs<Real>& a, int ei, int ej, int kk, bool element_in,
                                          bool owns, FaceValues<Real, Damped>& out) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int aa = q & 1, bb = q >> 1;
        const bool need = element_in || (q == 0 && owns);
        const std::size_t n = grid_node(a.nx, a.ny, ei + aa, ej + bb, kk);
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            Real v = Real(0), p = Real(0);
            if (need) {
                v = __ldg(a.u[c] + n);
                if (Damped || q == 0) p = __ldg(a.um[c] + n);
            }
            out.w[q][c] = Damped ? a.keep * v - a.b * p : v;
            if (q == 0) {
                out.u[c] = v;
                out.um[c] = p;
            }
        }
    }
}

template <class Real, bool Damped, bool UniformH, int TileY, int MinBlocks>
__global__ void __launch_bounds__(kTileX* TileY, MinBlocks) fused_moment_step_kernel(FusedStepArgs<Real> a) {
    // The row-(j + 1) partial sums of both faces, handed to the next tile row; two buffers by
    // plane parity so one barrier per plane suffices.
    __shared__ Real pass[2][2][3][TileY][kTileX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int ei = int(blockIdx.x) * (kTileX - 1) - 1 + tx;
    const int ej = int(blockIdx.y) * (TileY - 1) - 1 + ty;
    const int k0 = int(blockIdx.z) * a.planes;
    const int k1 = min(a.nz, k0 + a.planes);
    const bool element_in = ei >= 0 && ei < a.nx && ej >= 0 && ej < a.ny;
    const bool owns = tx > 0 && ty > 0 && ei <= a.nx && ej <= a.ny;

    int k = k0 > 0 ? k0 - 1 : 0;
    FaceValues<Real, Damped> bottom, top;
    load_face<Real, Damped>(a, ei, ej, k, element_in, owns, bottom);
    Real carry[3] = {Real(0), Real(0), Real(0)};

    // u^{n+1} of this thread's node at plane kk from its total force f.
    auto update = [&](int kk, const FaceValues<Real, Damped>& v, const Real(&f)[3]) {
        const std::size_t n = grid_node(a.nx, a.ny, ei, ej, kk);
        const Real ai = __ldg(a.a + n);
        const Real ih = UniformH ? a.ih0 : __ldg(a.ih + n);
        const Real mh = UniformH ? a.mh0 : __ldg(a.mh + n);
#pragma unroll
        for (int c = 0; c < 3; ++c) a.up[c][n] = (Real(2) * v.u[c] - mh * v.um[c] - ai * f[c]) * ih;
    };

    for (; k < k1; ++k) {
        load_face<Real, Damped>(a, ei, ej, k + 1, element_in, owns, top);
        const unsigned id =
            element_in ? unsigned(__ldg(a.ids + std::size_t(ei) +
                                        std::size_t(a.nx) * (std::size_t(ej) + std::size_t(a.ny) * std::size_t(k))))
                       : 0u;
        Real fe[24];
        if (id != 0) {
            Real ue[24];
#pragma unroll
            for (int q = 0; q < 4; ++q)
#pragma unroll
                for (int c = 0; c < 3; ++c) {
                    ue[3 * voxel_local_node(q & 1, q >> 1, 0) + c] = bottom.w[q][c];
                    ue[3 * voxel_local_node(q & 1, q >> 1, 1) + c] = top.w[q][c];
                }
            voxel_element_force(ue, __ldg(a.lambda + id), __ldg(a.mu + id), a.s0, a.s1, a.s2, fe);
        } else {
#pragma unroll
            for (int d = 0; d < 24; ++d) fe[d] = Real(0);
        }
        // x: node (i, j + bb) of face cc gets this element's near corner and the left
        // neighbour's far corner.
        Real row[2][2][3];  // [face][bb][component]
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int bb = 0; bb < 2; ++bb)
#pragma unroll
                for (int c = 0; c < 3; ++c) {
                    const Real from_left = __shfl_up_sync(0xffffffffu, fe[3 * voxel_local_node(1, bb, cc) + c], 1);
                    row[cc][bb][c] = fe[3 * voxel_local_node(0, bb, cc) + c] + (tx > 0 ? from_left : Real(0));
                }
        // y: row j + 1 of this element is row j of the next tile row's element.
        const int par = k & 1;
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c) pass[par][cc][c][ty][tx] = row[cc][1][c];
        __syncthreads();
        Real node[2][3];
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c) node[cc][c] = row[cc][0][c] + (ty > 0 ? pass[par][cc][c][ty - 1][tx] : Real(0));
        // z: node plane k is complete (the plane below gave its top face in carry).
        if (k >= k0 && owns) {
            const Real f[3] = {carry[0] + node[0][0], carry[1] + node[0][1], carry[2] + node[0][2]};
            update(k, bottom, f);
        }
#pragma unroll
        for (int c = 0; c < 3; ++c) carry[c] = node[1][c];
        bottom = top;
    }
    // The model's top node plane has elements only below.
    if (k1 == a.nz && owns) update(a.nz, bottom, carry);
}

// Own-node variant: each thread loads only its own node (u, u^{n-1}, and the update factors),
// one plane ahead so that the loads are in flight during the element work, and shares w with
// its neighbours through shared memory. The tile's last column and row load but compute no
// element, so no thread needs a node nobody loaded: 32 x TileY threads own 30 x (TileY - 2)
// nodes.
template <class Real>
struct OwnNode {
    Real u[3], um[3];
    Real ai, ih, mh;
};

template <class Real, bool UniformH>
__device__ __forceinline__ OwnNode<Real> load_own_node(const FusedStepArgs<Real>& a, int ei, int ej, int kk,
                                                       bool node_in, bool owns) {
    OwnNode<Real> v{};
    if (node_in && kk <= a.nz) {
        const std::size_t n = grid_node(a.nx, a.ny, ei, ej, kk);
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            v.u[c] = __ldg(a.u[c] + n);
            v.um[c] = __ldg(a.um[c] + n);
        }
        if (owns) {
            v.ai = __ldg(a.a + n);
            v.ih = UniformH ? a.ih0 : __ldg(a.ih + n);
            v.mh = UniformH ? a.mh0 : __ldg(a.mh + n);
        }
    }
    return v;
}

template <class Real, bool Damped, bool UniformH, int TileY, int MinBlocks>
__global__ void __launch_bounds__(kTileX* TileY, MinBlocks) fused_own_node_step_kernel(FusedStepArgs<Real> a) {
    __shared__ Real wsh[2][3][TileY][kTileX];   // w of every thread's node, by node-plane parity
    __shared__ Real pass[2][3][TileY][kTileX];  // row-(j + 1) force partials of both faces
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int ei = int(blockIdx.x) * (kTileX - 2) - 1 + tx;
    const int ej = int(blockIdx.y) * (TileY - 2) - 1 + ty;
    const int k0 = int(blockIdx.z) * a.planes;
    const int k1 = min(a.nz, k0 + a.planes);
    const bool node_in = ei >= 0 && ei <= a.nx && ej >= 0 && ej <= a.ny;
    const bool computes = tx < kTileX - 1 && ty < TileY - 1 && ei >= 0 && ei < a.nx && ej >= 0 && ej < a.ny;
    const bool owns = tx > 0 && tx < kTileX - 1 && ty > 0 && ty < TileY - 1 && node_in;

    int k = k0 > 0 ? k0 - 1 : 0;
    OwnNode<Real> cur = load_own_node<Real, UniformH>(a, ei, ej, k, node_in, owns);
    OwnNode<Real> nxt = load_own_node<Real, UniformH>(a, ei, ej, k + 1, node_in, owns);
    auto put_w = [&](int buf, const OwnNode<Real>& v) {
#pragma unroll
        for (int c = 0; c < 3; ++c) wsh[buf][c][ty][tx] = Damped ? a.keep * v.u[c] - a.b * v.um[c] : v.u[c];
    };
    auto update = [&](int kk, const OwnNode<Real>& v, const Real(&f)[3]) {
        const std::size_t n = grid_node(a.nx, a.ny, ei, ej, kk);
#pragma unroll
        for (int c = 0; c < 3; ++c) a.up[c][n] = (Real(2) * v.u[c] - v.mh * v.um[c] - v.ai * f[c]) * v.ih;
    };
    put_w(k & 1, cur);
    Real carry[3] = {Real(0), Real(0), Real(0)};
    for (; k < k1; ++k) {
        const OwnNode<Real> ahead = load_own_node<Real, UniformH>(a, ei, ej, k + 2, node_in, owns);
        put_w((k + 1) & 1, nxt);
        __syncthreads();  // w of planes k and k + 1 complete
        Real fe[24];
        const unsigned id =
            computes ? unsigned(__ldg(a.ids + std::size_t(ei) +
                                      std::size_t(a.nx) * (std::size_t(ej) + std::size_t(a.ny) * std::size_t(k))))
                     : 0u;
        if (id != 0) {
            Real ue[24];
#pragma unroll
            for (int cc = 0; cc < 2; ++cc)
#pragma unroll
                for (int q = 0; q < 4; ++q)
#pragma unroll
                    for (int c = 0; c < 3; ++c)
                        ue[3 * voxel_local_node(q & 1, q >> 1, cc) + c] =
                            wsh[(k + cc) & 1][c][ty + (q >> 1)][tx + (q & 1)];
            voxel_element_force(ue, __ldg(a.lambda + id), __ldg(a.mu + id), a.s0, a.s1, a.s2, fe);
        } else {
#pragma unroll
            for (int d = 0; d < 24; ++d) fe[d] = Real(0);
        }
        Real row[2][2][3];  // [face][bb][component], x sums done
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int bb = 0; bb < 2; ++bb)
#pragma unroll
                for (int c = 0; c < 3; ++c) {
                    const Real from_left = __shfl_up_sync(0xffffffffu, fe[3 * voxel_local_node(1, bb, cc) + c], 1);
                    row[cc][bb][c] = fe[3 * voxel_local_node(0, bb, cc) + c] + (tx > 0 ? from_left : Real(0));
                }
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c) pass[cc][c][ty][tx] = row[cc][1][c];
        __syncthreads();  // force partials complete
        Real node[2][3];
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c) node[cc][c] = row[cc][0][c] + (ty > 0 ? pass[cc][c][ty - 1][tx] : Real(0));
        if (k >= k0 && owns) {
            const Real f[3] = {carry[0] + node[0][0], carry[1] + node[0][1], carry[2] + node[0][2]};
            update(k, cur, f);
        }
#pragma unroll
        for (int c = 0; c < 3; ++c) carry[c] = node[1][c];
        cur = nxt;
        nxt = ahead;
    }
    if (k1 == a.nz && owns) update(a.nz, cur, carry);
}

template <class Real, bool Damped, bool UniformH, int TileY, int MinBlocks>
void launch_tile(const FusedStepArgs<Real>& a, bool own_node, cudaStream_t stream) {
    const dim3 block(kTileX, TileY);
    const unsigned chunks = unsigned((a.nz + a.planes - 1) / a.planes);
    if (own_node) {
        const dim3 grid(unsigned((a.nx + 1 + kTileX - 3) / (kTileX - 2)),
                        unsigned((a.ny + 1 + TileY - 3) / (TileY - 2)), chunks);
        fused_own_node_step_kernel<Real, Damped, UniformH, TileY, MinBlocks><<<grid, block, 0, stream>>>(a);
        VOXWAVE_CUDA_CHECK_LAUNCH("fused_own_node_step_kernel");
        return;
    }
    const dim3 grid(unsigned((a.nx + 1 + kTileX - 2) / (kTileX - 1)), unsigned((a.ny + 1 + TileY - 2) / (TileY - 1)),
                    chunks);
    fused_moment_step_kernel<Real, Damped, UniformH, TileY, MinBlocks><<<grid, block, 0, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("fused_moment_step_kernel");
}

struct FusedShape {
    int tile_y = 8, min_blocks = 2, planes = 16;
    bool own_node = true;
};

// Defaults, or the benchmark knobs; a bad knob is an error, not a silent default.
FusedShape fused_shape() {
    static const FusedShape shape = [] {
        FusedShape s;
        if (const char* t = std::getenv("VOXWAVE_FUSED_TILE"); t && *t) {
            if (std::strcmp(t, "8x1") == 0)
                s.tile_y = 8, s.min_blocks = 1;
            else if (std::strcmp(t, "8x2") == 0)
                s.tile_y = 8, s.min_blocks = 2;
            else if (std::strcmp(t, "16x1") == 0)
                s.tile_y = 16, s.min_blocks = 1;
            else
                throw InputError("", "VOXWAVE_FUSED_TILE", std::string("unknown tile '") + t + "' (8x1 | 8x2 | 16x1)");
        }
        if (const char* l = std::getenv("VOXWAVE_FUSED_LOADS"); l && *l) {
            if (std::strcmp(l, "own") != 0 && std::strcmp(l, "corners") != 0)
                throw InputError("", "VOXWAVE_FUSED_LOADS", std::string("unknown loads '") + l + "' (own | corners)");
            s.own_node = std::strcmp(l, "own") == 0;
        }
        if (const char* p = std::getenv("VOXWAVE_FUSED_PLANES"); p && *p) {
            const int v = std::atoi(p);
            if (v < 1 || v > 4096) throw InputError("", "VOXWAVE_FUSED_PLANES", "must be 1..4096");
            s.planes = v;
        }
        return s;
    }();
    return shape;
}

template <class Real, bool Damped, bool UniformH>
void launch_shape(FusedStepArgs<Real> a, const FusedShape& s, cudaStream_t stream) {
    a.planes = s.planes;
    if (s.tile_y == 16)
        launch_tile<Real, Damped, UniformH, 16, 1>(a, s.own_node, stream);
    else if (s.min_blocks == 1)
        launch_tile<Real, Damped, UniformH, 8, 1>(a, s.own_node, stream);
    else
        launch_tile<Real, Damped, UniformH, 8, 2>(a, s.own_node, stream);
}

}  // namespace

template <class Real>
void launch_fused_step(const FusedStepArgs<Real>& a, bool damped, cudaStream_t stream) {
    if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
    const FusedShape s = fused_shape();
    const bool uniform = a.ih == nullptr;
    if (damped)
        uniform ? launch_shape<Real, true, true>(a, s, stream) : launch_shape<Real, true, false>(a, s, stream);
    else
        uniform ? launch_shape<Real, false, true>(a, s, stream) : launch_shape<Real, false, false>(a, s, stream);
}

template void launch_fused_step<double>(const FusedStepArgs<double>&, bool, cudaStream_t);
template void launch_fused_step<float>(const FusedStepArgs<float>&, bool, cudaStream_t);

}  // namespace voxwave::cuda
