// One whole VFEM / OVFEM time step in one kernel, node-centred and without atomics (issue 3:
// "a node-centred stencil without atomics").
//
// Why: the element kernel + update kernel pair moves f through global memory twice and adds
// into it with 6 reductions per element; on the H100 those reductions were the gap to the
// memory floor (2 mm paper model, FP64: 148 us element kernel + 258 us update, 7.4x the floor).
// Here a block owns a tile of node columns and sweeps a chunk of z planes:
//   - thread (tx, ty) loads only its own node (i, j) = tile origin - 1 + (tx, ty): u, u^{n-1}
//     and dt^2/m, two planes ahead so that the loads are in flight during the element work;
//     it shares w = keep u - b u^{n-1} (the operand of K) through shared memory;
//   - it computes the element whose lowest corner is its node (moment kernel), for every
//     element plane of the chunk; the tile's last column and row only load, so no thread
//     needs a node nobody loaded;
//   - each node's force is summed from its 4 elements of the plane: along x with one shuffle
//     (a warp is one row of the tile), along y through shared memory, along z by carrying the
//     top face into the next plane;
//   - as soon as node plane k is complete its owner applies the central-difference update and
//     writes u^{n+1}. Nothing else of the step touches global memory.
// The tile's edge threads compute elements only for their neighbours (halo, recomputed by the
// next tile) and the element plane below a chunk is recomputed for the carry: 32 x TileY
// threads own 30 x (TileY - 2) nodes. u^{n+1} goes to a third buffer because neighbouring
// tiles still read u^{n-1}.
//
// Measured on the H100 (2 mm paper model, logs 2026-11-22-s8-run1..14), step in us, FP64 / FP32:
//   all 8 corners loaded per thread through L1                                   155 / 112
//   own-node loads, node state in registers (FP64 spills: L2 87 % busy)           142 / 101
//   node state in shared memory, two barriers per plane                           141 /  86
//   butterfly back transform, one barrier per plane                                131 /  82
//   mode scales folded into lambda, mu                                            130 /  82
//   material ids one plane ahead, Lame constants in shared memory (this kernel)   114 /  77
// (the last one removed the long-scoreboard stalls on the dependent loads id -> lambda[id]).
// Launch shapes: 2 blocks per SM (FP64: 122 registers; 3 or 4 blocks spill and take
// 263-612 us; FP32 at 4 blocks per SM was no faster), 32 x 8 threads (32 x 16 was slower:
// 148 / 84), planes per block chosen to fill whole waves (wave_filling_planes).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/errors.hpp"
#include "wave/central_difference.hpp"
#include "wave/cuda_support.cuh"
#include "wave/element_row_emit.cuh"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

constexpr int kTileX = 32;  // one warp per tile row: the x sums are shuffles

template <class Real>
struct NodeValues {
    Real u[3], um[3];
};

template <class Real>
__device__ __forceinline__ NodeValues<Real> load_node(const FusedStepArgs<Real>& a, int ei, int ej, int kk,
                                                      bool node_in) {
    NodeValues<Real> v{};
    if (node_in && kk <= a.nz) {
        const std::size_t n = grid_node(a.nx, a.ny, ei, ej, kk);
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            v.u[c] = __ldg(a.u[c] + n);
            v.um[c] = __ldg(a.um[c] + n);
        }
    }
    return v;
}

// Shared memory of one block (dynamic: more than the 48 KB of static shared memory in FP64).
template <class Real, int TileY>
struct FusedShared {
    Real w[3][3][TileY][kTileX];        // w of every thread's node, node planes k, k + 1, k + 2 (mod 3)
    Real own[2][6][TileY][kTileX];      // u, u^{n-1} of the thread's node, planes k, k + 1 (mod 2)
    Real pass[2][2][3][TileY][kTileX];  // row-(j + 1) force partials of both faces, by plane parity
    Real lambda[256], mu[256];          // Lame constants by material id
};

// One barrier per plane: iteration k computes element plane k from w planes k and k + 1, then
// writes its force partials and w of plane k + 2 before the barrier; after it, the node plane
// k is summed and updated. Three w planes and two partial buffers keep every write away from
// what a slower thread may still read (two barriers per plane took 141 us instead of 133).
template <class Real, bool Damped, bool UniformH, int TileY, int MinBlocks>
__global__ void __launch_bounds__(kTileX* TileY, MinBlocks) fused_moment_step_kernel(FusedStepArgs<Real> a) {
    extern __shared__ __align__(16) unsigned char fused_smem[];
    FusedShared<Real, TileY>& sh = *reinterpret_cast<FusedShared<Real, TileY>*>(fused_smem);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int ei = int(blockIdx.x) * (kTileX - 2) - 1 + tx;
    const int ej = int(blockIdx.y) * (TileY - 2) - 1 + ty;
    const int k0 = int(blockIdx.z) * a.planes;
    const int k1 = min(a.nz, k0 + a.planes);
    const bool node_in = ei >= 0 && ei <= a.nx && ej >= 0 && ej <= a.ny;
    const bool computes = tx < kTileX - 1 && ty < TileY - 1 && ei >= 0 && ei < a.nx && ej >= 0 && ej < a.ny;
    const bool owns = tx > 0 && tx < kTileX - 1 && ty > 0 && ty < TileY - 1 && node_in;

    auto put_w = [&](int kk, const NodeValues<Real>& v) {
#pragma unroll
        for (int c = 0; c < 3; ++c) sh.w[kk % 3][c][ty][tx] = Damped ? a.keep * v.u[c] - a.b * v.um[c] : v.u[c];
    };
    auto put_own = [&](int kk, const NodeValues<Real>& v) {
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            sh.own[kk & 1][c][ty][tx] = v.u[c];
            sh.own[kk & 1][3 + c][ty][tx] = v.um[c];
        }
    };
    // u^{n+1} of this thread's node at plane kk from its total force f.
    auto update = [&](int kk, Real ai, Real ih, Real mh, const Real(&f)[3]) {
        const std::size_t n = grid_node(a.nx, a.ny, ei, ej, kk);
        const int buf = kk & 1;
#pragma unroll
        for (int c = 0; c < 3; ++c)
            a.up[c][n] = central_difference_node(sh.own[buf][c][ty][tx], sh.own[buf][3 + c][ty][tx], ai * f[c], mh, ih);
    };
    // The update factors stay three plain loads at their two call sites: one helper returning
    // them as a struct raised the FP64 kernel to 128 registers and 123 us a step (run 17,
    // against 113 us).
    auto factor = [&](const Real* p, Real uniform, int kk) {
        return owns ? __ldg(p + grid_node(a.nx, a.ny, ei, ej, kk)) : uniform;
    };
    // The material of this thread's element at plane kk (0: none or void). Loaded one plane
    // ahead and the constants looked up in shared memory: Nsight Compute showed warps waiting
    // on the dependent global loads id -> lambda[id] (long scoreboard, 2.2 cycles per issue).
    auto element_id = [&](int kk) {
        return computes && kk < a.nz
                   ? unsigned(__ldg(a.ids + std::size_t(ei) +
                                    std::size_t(a.nx) * (std::size_t(ej) + std::size_t(a.ny) * std::size_t(kk))))
                   : 0u;
    };
    for (int m = ty * kTileX + tx; m < 256; m += kTileX * TileY) {
        sh.lambda[m] = __ldg(a.lambda + m);
        sh.mu[m] = __ldg(a.mu + m);
    }

    int k = k0 > 0 ? k0 - 1 : 0;
    {
        const NodeValues<Real> v0 = load_node(a, ei, ej, k, node_in), v1 = load_node(a, ei, ej, k + 1, node_in);
        put_w(k, v0);
        put_own(k, v0);
        put_w(k + 1, v1);
        put_own(k + 1, v1);
    }
    NodeValues<Real> next = load_node(a, ei, ej, k + 2, node_in);
    unsigned id_next = element_id(k);
    __syncthreads();
    Real carry[3] = {Real(0), Real(0), Real(0)};
    for (; k < k1; ++k) {
        const NodeValues<Real> ahead = load_node(a, ei, ej, k + 3, node_in);
        // This plane's update factors, needed after the element work.
        const Real ai = factor(a.a, Real(0), k);
        const Real ih = UniformH ? a.ih0 : factor(a.ih, a.ih0, k);
        const Real mh = UniformH ? a.mh0 : factor(a.mh, a.mh0, k);
        const unsigned id = id_next;
        id_next = element_id(k + 1);
        Real fe[24];
        moment_element_forces(
            id, sh.lambda[id], sh.mu[id], a.s0, a.s1, a.s2,
            [&](Real(&ue)[24]) {
#pragma unroll
                for (int cc = 0; cc < 2; ++cc)
#pragma unroll
                    for (int q = 0; q < 4; ++q)
#pragma unroll
                        for (int c = 0; c < 3; ++c)
                            ue[3 * voxel_local_node(q & 1, q >> 1, cc) + c] =
                                sh.w[(k + cc) % 3][c][ty + (q >> 1)][tx + (q & 1)];
            },
            fe);
        Real row[2][2][3];  // [face][bb][component]: x sums done
        x_node_sums(fe, tx, row);
        // y: row j + 1 of this element is row j of the next tile row's element.
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c) sh.pass[k & 1][cc][c][ty][tx] = row[cc][1][c];
        put_w(k + 2, next);
        __syncthreads();  // partials of plane k and w of node plane k + 2 complete
        Real node[2][3];
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c)
                node[cc][c] = row[cc][0][c] + (ty > 0 ? sh.pass[k & 1][cc][c][ty - 1][tx] : Real(0));
        // z: node plane k is complete (the plane below gave its top face in carry).
        if (k >= k0 && owns) {
            const Real f[3] = {carry[0] + node[0][0], carry[1] + node[0][1], carry[2] + node[0][2]};
            update(k, ai, ih, mh, f);
        }
        put_own(k + 2, next);  // after update(k) read the same slot
#pragma unroll
        for (int c = 0; c < 3; ++c) carry[c] = node[1][c];
        next = ahead;
    }
    // The model's top node plane has elements only below.
    if (k1 == a.nz && owns) {
        const Real ai = factor(a.a, Real(0), a.nz);
        const Real ih = UniformH ? a.ih0 : factor(a.ih, a.ih0, a.nz);
        const Real mh = UniformH ? a.mh0 : factor(a.mh, a.mh0, a.nz);
        update(a.nz, ai, ih, mh, carry);
    }
}

// Element planes per block when not set: the chunk count c that minimises
//     ceil(tiles c / resident blocks) x (ceil(nz / c) + 2),
// the number of waves of blocks times a block's planes (+ the plane below the chunk and the
// prologue's loads). Why: a partly filled last wave costs a whole one. On the H100 (run 14, 2 mm
// model) FP32 took 99 us with 24 planes (1.5 waves) and 77 with 48 (1 full wave).
int wave_filling_planes(std::size_t tiles, int resident_blocks, int nz) {
    const std::size_t slots = std::size_t(std::max(1, resident_blocks));
    std::size_t best_cost = ~std::size_t(0);
    int best = nz;
    for (int planes = nz; planes >= 1; --planes) {  // ties go to longer chunks (less halo)
        const std::size_t chunks = std::size_t((nz + planes - 1) / planes);
        const std::size_t cost = (tiles * chunks + slots - 1) / slots * std::size_t(planes + 2);
        if (cost < best_cost) best_cost = cost, best = planes;
    }
    return best;
}

template <class Real, bool Damped, bool UniformH, int TileY, int MinBlocks>
void launch_tile(FusedStepArgs<Real> a, cudaStream_t stream) {
    const dim3 block(kTileX, TileY);
    constexpr int bytes = int(sizeof(FusedShared<Real, TileY>));
    auto kernel = fused_moment_step_kernel<Real, Damped, UniformH, TileY, MinBlocks>;
    // Once per instantiation: allow more than 48 KB of shared memory; how many blocks fit.
    static const int resident = [&] {
        VOXWAVE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        int device = 0, sms = 0, per_sm = 0;
        VOXWAVE_CUDA_CHECK(cudaGetDevice(&device));
        VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        VOXWAVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kTileX * TileY, bytes));
        return sms * per_sm;
    }();
    const unsigned gx = unsigned((a.nx + 1 + kTileX - 3) / (kTileX - 2));
    const unsigned gy = unsigned((a.ny + 1 + TileY - 3) / (TileY - 2));
    if (a.planes <= 0) a.planes = wave_filling_planes(std::size_t(gx) * gy, resident, a.nz);
    a.planes = std::max(a.planes, (a.nz + 65534) / 65535);  // at most 65,535 chunks (grid z)
    const dim3 grid(gx, gy, unsigned((a.nz + a.planes - 1) / a.planes));
    kernel<<<grid, block, bytes, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("fused_moment_step_kernel");
}

struct FusedShape {
    int tile_y = 8, min_blocks = 2, planes = 0;  // planes 0: wave_filling_planes
};

// The default shape (H100 sweeps, see the header comment), or the benchmark knobs; a bad knob
// is an error, not a silent default.
FusedShape fused_shape() {
    FusedShape s;
    if (const char* t = std::getenv("VOXWAVE_FUSED_TILE"); t && *t) {
        if (std::strcmp(t, "8x2") == 0)
            s.min_blocks = 2;
        else if (std::strcmp(t, "8x3") == 0)
            s.min_blocks = 3;
        else if (std::strcmp(t, "8x4") == 0)
            s.min_blocks = 4;
        else if (std::strcmp(t, "16x1") == 0)
            s.tile_y = 16, s.min_blocks = 1;
        else if (std::strcmp(t, "16x2") == 0)
            s.tile_y = 16, s.min_blocks = 2;
        else
            throw InputError("", "VOXWAVE_FUSED_TILE",
                             std::string("unknown tile '") + t + "' (8x2 | 8x3 | 8x4 | 16x1 | 16x2)");
    }
    if (const char* p = std::getenv("VOXWAVE_FUSED_PLANES"); p && *p) {
        const int v = std::atoi(p);
        if (v < 1 || v > 4096)
            throw InputError("", "VOXWAVE_FUSED_PLANES", "must be 1..4096 (unset: fill whole waves)");
        s.planes = v;
    }
    return s;
}

template <class Real, bool Damped, bool UniformH>
void launch_shape(FusedStepArgs<Real> a, const FusedShape& s, cudaStream_t stream) {
    a.planes = s.planes;
    if (s.tile_y == 16 && s.min_blocks == 2)
        launch_tile<Real, Damped, UniformH, 16, 2>(a, stream);
    else if (s.tile_y == 16)
        launch_tile<Real, Damped, UniformH, 16, 1>(a, stream);
    else if (s.min_blocks == 4)
        launch_tile<Real, Damped, UniformH, 8, 4>(a, stream);
    else if (s.min_blocks == 3)
        launch_tile<Real, Damped, UniformH, 8, 3>(a, stream);
    else
        launch_tile<Real, Damped, UniformH, 8, 2>(a, stream);
}

}  // namespace

template <class Real>
void launch_fused_step(const FusedStepArgs<Real>& a, bool damped, cudaStream_t stream) {
    if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
    static const FusedShape shape = fused_shape();  // knobs read once
    const bool uniform = a.ih == nullptr;
    if (damped)
        uniform ? launch_shape<Real, true, true>(a, shape, stream) : launch_shape<Real, true, false>(a, shape, stream);
    else
        uniform ? launch_shape<Real, false, true>(a, shape, stream)
                : launch_shape<Real, false, false>(a, shape, stream);
}

template void launch_fused_step<double>(const FusedStepArgs<double>&, bool, cudaStream_t);
template void launch_fused_step<float>(const FusedStepArgs<float>&, bool, cudaStream_t);

}  // namespace voxwave::cuda
