// The fused node-centred time step (issue 3: "a node-centred stencil without atomics"): one
// kernel per step, shared by VFEM / OVFEM (voxel_step_fused_cuda.cu, the moment kernel) and
// TCOVFEM (tcovfem_step_fused_cuda.cu, INT8 Tensor Cores). Only how an element plane's forces
// are made differs; that is the Plane policy below.
//
// Why: the element kernel + update kernel pair moves f through global memory twice and adds
// into it with 6 reductions per element; on the H100 those reductions were the gap to the
// memory floor (2 mm paper model, FP64: 148 us element kernel + 258 us update, 7.4x the floor).
// Here a block owns a tile of node columns and sweeps a range of z planes:
//   - thread (tx, ty) loads only its own node (i, j) = tile origin - 1 + (tx, ty): u, u^{n-1}
//     and dt^2/m, two planes ahead so that the loads are in flight during the element work;
//     it shares w = keep u - b u^{n-1} (the operand of K) through shared memory;
//   - the element whose lowest corner is the thread's node is "its" element; the Plane makes
//     the forces of every element plane of the range from the shared w; the tile's last column
//     and row only load, so no element needs a node nobody loaded (or, with the Plane's
//     kEveryWarpComputes, the last row computes too and the node row below the tile is loaded
//     too, w only: by the block's first 3 warps, or with kNeighbourBarriers by the last one);
//   - each node's force is summed from its 4 elements of the plane: along x within the warp
//     (a warp is one row of the tile), along y through shared memory, along z by carrying the
//     top face into the next plane;
//   - as soon as node plane k is complete its owner applies the central-difference update and
//     writes u^{n+1}. Nothing else of the step touches global memory.
// The tile's edge threads compute elements only for their neighbours (halo, recomputed by the
// next tile) and the element plane below a range is recomputed for the carry: 32 x TileY
// threads own 30 x (TileY - 2) nodes (30 x (TileY - 1) with kEveryWarpComputes, 30 x TileY with
// kHandoffRows). u^{n+1} goes to a third buffer because neighbouring tiles still read u^{n-1}.
// A launch may be a window of a distributed run's overlapped step (time_stepper_cuda.cu): the
// arrays are then a view of a run of element planes, and the node planes at the view's ends whose
// elements lie partly outside it are not written (FusedStepArgs::skip_lo, skip_hi); every node
// that is written gets the whole-model kernel's arithmetic.
//
// A Plane<Real, TileY> provides
//   struct Shared;                    its part of the block's shared memory
//   static constexpr bool kDiagonal;  true: the node force gets + diag[n] w[n] (TCOVFEM's FP64 part)
//   static constexpr bool kSwizzleW;  true: w's columns are stored XOR fused_w_swizzle(row, plane)
//   static constexpr bool kMergeLastXTile;  true: a last x tile of at most 15 nodes is swept as merged
//                                     columns (FusedWork::merged) in balanced blocks
//   static constexpr bool kEveryWarpComputes;  true: all TileY warps compute element rows (the tile
//                                     loads TileY + 1 node rows and owns TileY - 1); false: the last
//                                     row only loads. Why: with two blocks per SM both load-only
//                                     warps sit on one SM sub-partition (warp slot 7 mod 4), which
//                                     then has 2 computing warps against 4 on the others. The
//                                     compute-bound TCOVFEM gains 5 %; the moment kernel at 2 mm
//                                     loses 4 % (10 y tiles of 8 element rows for 65 node rows
//                                     against 11 of 7), at 1.2 mm gains 5 %
//   static constexpr bool kNeighbourBarriers;  true: a plane ends with each warp meeting only its
//                                     two neighbouring warps (fused_plane_barrier); false: the
//                                     block barrier
//   static constexpr bool kHandoffRows;  true: y tiles do not overlap: the tile's first node row
//                                     takes its lower partials from the tile below through global
//                                     memory (fused_handoff_*, blocks ordered by tickets) instead of
//                                     recomputing the element row below the tile. TCOVFEM at 2 mm:
//                                     202 -> 187 us a step (A/B); needs kEveryWarpComputes,
//                                     kLoadAfterForces, FP64 and Plane::passed_on
//   static constexpr bool kLoadAfterForces;  true: the next plane's loads wait until forces is done,
//                                     and the node values loaded before are stored to shared memory
//                                     before it (a third `own` slot), so no load result is live
//                                     across forces
//   Plane(args, shared, tid, threads) fills its tables (the kernel's first barrier follows)
//   forces(sh, args, k, id, tx, ty)   element plane k (id: the thread's element, 0 = none);
//                                     writes the row-(j + 1) partials to sh.pass[k & 1] and
//                                     keeps or stores the row-j ones; before the plane's barrier.
//                                     It reads w rows ty and ty + 1 only and writes row ty only
//                                     (what kNeighbourBarriers relies on)
//   node_sums(sh, k, tx, ty, node)    after it: node[cc][c] = the x and y sums of face cc, from
//                                     rows ty and ty - 1 only
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/cuda_check.cuh"
#include "core/errors.hpp"
#include "core/grid_dependency.hpp"
#include "core/programmatic_launch.cuh"
#include "wave/central_difference.hpp"
#include "wave/element_row_emit.cuh"
#include "wave/wave_kernel_args.cuh"

namespace voxwave::cuda {

constexpr int kFusedTileX = 32;  // one warp per tile row: the x sums stay within a warp

template <class Real>
struct NodeValues {
    Real u[3], um[3];
};

// Node n's u and u^{n-1} (zeros when !valid). Node and element indices are 32-bit (the launch
// checks that the model has fewer than 2^32 nodes): one IMAD a plane and one IMAD.WIDE.U32 an
// address, where 64-bit index arithmetic took about 10 instructions an index.
template <class Real>
__device__ __forceinline__ NodeValues<Real> load_node(const FusedStepArgs<Real>& a, unsigned n, bool valid) {
    NodeValues<Real> v{};
    if (valid) {
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            v.u[c] = __ldg(a.u[c] + n);
            v.um[c] = __ldg(a.um[c] + n);
        }
    }
    return v;
}

// Shared memory of one block (dynamic: more than the 48 KB of static shared memory in FP64).
template <class Real, int TileY, class PlaneShared, int OwnSlots, int WRows>
struct FusedShared {
    static constexpr int kOwnSlots = OwnSlots;
    Real w[3][3][WRows][kFusedTileX];           // w of every thread's node (and with WRows = TileY + 1 of the
                                                // row below the tile), node planes k, k + 1, k + 2 (mod 3)
    Real own[OwnSlots][6][TileY][kFusedTileX];  // u, u^{n-1} of the thread's node, planes mod OwnSlots
    Real pass[2][2][3][TileY][kFusedTileX];     // row-(j + 1) force partials of both faces, by plane parity
    PlaneShared plane;
};
// A Plane's block layout: a third `own` slot with kLoadAfterForces (see the kernel's loop), a
// w row for the row below the tile with kEveryWarpComputes.
template <class Real, int TileY, class Plane>
using FusedSharedOf = FusedShared<Real, TileY, typename Plane::Shared, Plane::kLoadAfterForces ? 3 : 2,
                                  Plane::kEveryWarpComputes ? TileY + 1 : TileY>;
// Node rows a tile owns: all but the first (halo) row, and but the last without kEveryWarpComputes;
// with kHandoffRows all of them (the first row's lower partials come from the tile below).
template <class Plane, int TileY>
constexpr int fused_owned_rows() {
    return Plane::kHandoffRows ? TileY : Plane::kEveryWarpComputes ? TileY - 1 : TileY - 2;
}
// Full-width x tiles: 30 owned node columns each (launch_fused_tile may merge the last one).
__host__ __device__ constexpr int fused_tiles_x(int nx) { return (nx + 1 + kFusedTileX - 3) / (kFusedTileX - 2); }
// Element rows a y tile computes without overlap (kHandoffRows): y tiles = ceil(ny / TileY).
template <class Plane, int TileY>
__host__ __device__ constexpr int fused_tiles_y(int ny) {
    return Plane::kHandoffRows ? (ny + TileY - 1) / TileY
                               : (ny + fused_owned_rows<Plane, TileY>()) / fused_owned_rows<Plane, TileY>();
}

// kHandoffRows: the row handoff between y tiles through global memory. A tile's last warp
// passes the partials of its element row's upper node row (the next tile's first row) for
// each plane: 2 faces x 3 components a lane. Each double goes as two 64-bit words {half, tag}
// (tag: the step, never 0), each written and read whole, so the reader knows a word is this
// step's without a fence or a flag: it reads again until all its words carry the tag. Slots:
// [virtual tile (x tile, merged last x tile = tiles_x) x tiles_y + y tile][plane][cc][c][half][lane].
constexpr int kFusedHandoffWords = 2 * 3 * 2 * kFusedTileX;  // a tile-plane
__host__ __device__ inline std::size_t fused_handoff_slot(int vtile, int nz, int k) {
    return (std::size_t(vtile) * std::size_t(nz) + std::size_t(k)) * kFusedHandoffWords;
}
// The handoff's words for an nx x ny x nz model: one slot per virtual x tile (as many as x tiles,
// merged or not), y tile and plane. The engine allocates this and launch_fused_tile checks it.
template <class Plane, int TileY>
inline std::size_t fused_handoff_words_of(int nx, int ny, int nz) {
    return fused_handoff_slot(fused_tiles_x(nx) * fused_tiles_y<Plane, TileY>(ny), nz, 0);
}
// The high word of double i (= 3 cc + c) of lane 0 within a tile-plane; its low word is
// kFusedTileX further, and lane xl's words xl further.
__host__ __device__ constexpr int fused_handoff_word(int i) { return 2 * kFusedTileX * i; }
// The double whose halves are the low 32 bits of the words hi and lo (the tags are the high bits).
__device__ __forceinline__ double fused_handoff_double(unsigned long long hi, unsigned long long lo) {
    return __longlong_as_double(static_cast<long long>((hi << 32) | (lo & 0xffffffffull)));
}
__device__ __forceinline__ void fused_handoff_store(unsigned long long* p, unsigned tag, double v) {
    const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(v));
    const unsigned long long t = static_cast<unsigned long long>(tag) << 32;
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(t | (bits >> 32)) : "memory");
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p + kFusedTileX), "l"(t | (bits & 0xffffffffull))
                 : "memory");
}
// A lane's 6 doubles of a tile-plane as read: their 12 words, issued together (in flight across
// the plane's barrier), then checked.
struct FusedHandoffWords {
    unsigned long long w[12];
    __device__ __forceinline__ void load(const unsigned long long* p) {
        // volatile: kept after the Plane's forces (its mma and shared loads are volatile too), so
        // that the 24 registers are not live across them (hoisted, they spilled).
#pragma unroll
        for (int i = 0; i < 12; ++i)  // word i: the high (even i) or low half of double i / 2
            asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(w[i]) : "l"(p + kFusedTileX * i));
    }
    // true when every word is this step's; v = the doubles.
    __device__ __forceinline__ bool values(unsigned tag, double (&v)[2][3]) const {
        bool ok = true;
#pragma unroll
        for (int i = 0; i < 6; ++i) {
            ok &= unsigned(w[2 * i] >> 32) == tag && unsigned(w[2 * i + 1] >> 32) == tag;
            v[i / 3][i % 3] = fused_handoff_double(w[2 * i], w[2 * i + 1]);
        }
        return ok;
    }
};

// The XOR swizzle of w's columns for tile row `row` of node plane kk (bits 3 and 0: rows of
// other parity and planes of other parity fall in other banks). Why: a TCOVFEM lane quad (t = 0..3)
// reads node columns 2g + x in the rows j, j + 1 and planes k, k + 1; the 4 lane quads of a half
// warp (g = 0..3 or 4..7) read 4 columns of one parity within 8, so the XORs {0, 1, 8, 9} put the
// 16 doubles of a half warp in 16 distinct bank pairs (unswizzled they shared 4). Planes by
// parity, not by slot: k and k + 1 always differ in parity, while 3 slots cannot all pairwise
// differ in one bit.
__device__ __forceinline__ int fused_w_swizzle(int row, int kk) { return ((row & 1) << 3) | (kk & 1); }

// The work of a launch: tiles_x x tiles_y node columns of the tile, each swept over nz element
// planes. planes > 0: block b sweeps chunk b / columns (of `planes` element planes) of column
// b % columns, as a grid of (x tile, y tile, chunk) did. planes = 0: the column-planes (z
// fastest) are split evenly over the blocks (persistent, balanced).
// merged = 1: the model's last x tile holds at most 15 nodes, and its columns are merged in
// pairs of y tiles, one per half warp (lanes 0-15: y tile 2m, lanes 16-31: y tile 2m + 1), so
// that no block computes a half-empty x row (the kernel's thread-to-node mapping says how).
// tiles_x then counts the full-width x tiles only, and the merged columns come after the
// tiles_x tiles_y full ones.
struct FusedWork {
    int tiles_x, tiles_y, planes, merged;
    __host__ __device__ int columns() const { return tiles_x * tiles_y + merged * ((tiles_y + 1) / 2); }
};

// The point kernel's work for the nodes a block updated, column-planes [first, end) (saves the
// point kernel's launch: 2.7-3.0 us a step). Node (i, j, kk) lies in tile column
// i / 30 + tiles_x j / owned_rows, or in merged column tiles_x tiles_y + (j / owned_rows) / 2
// when i is in a merged last x tile; the segment sweeping element plane min(kk, nz - 1) of that
// column updated it (the top plane nz with the plane below it). Called by one warp after the
// sweep's last barrier, when every update is visible to it. In 32 bits: with 64-bit divisions
// here (or the segment's bounds kept across the sweep) the TCOVFEM kernel spilled 12-20 bytes.
// Every block walks both whole lists: the engine gives the kernel only a few points (at most
// kFusedKernelSources and kFusedKernelReceivers, fused_points.hpp) and adds many after it.
template <class Real>
__device__ __forceinline__ void fused_points(const FusedStepArgs<Real>& a, FusedWork work, int owned_rows, int first,
                                             int end, int lane) {
    const unsigned nx1 = unsigned(a.nx + 1), plane = nx1 * unsigned(a.ny + 1);
    // A window's view (FusedStepArgs::skip_lo): only the nodes of the node planes it writes.
    auto updated_here = [&](long long node) {
        const long long local = node - a.node_offset;
        if (local < 0 || local >= static_cast<long long>(plane) * (a.nz + 1)) return false;
        const unsigned n = unsigned(local), kk = n / plane, ij = n - kk * plane, j = ij / nx1, i = ij - j * nx1;
        if (int(kk) < a.skip_lo || int(kk) > a.nz - a.skip_hi) return false;
        const int cx = int(i) / (kFusedTileX - 2), cy = min(int(j) / owned_rows, work.tiles_y - 1);
        const int column = cx < work.tiles_x ? cx + work.tiles_x * cy : work.tiles_x * work.tiles_y + cy / 2;
        const int at = column * a.nz + min(int(kk), a.nz - 1);
        return at >= first && at < end;
    };
    // Sources one after another (two may share a node), rounded as the point kernel does.
    if (lane == 0)
        for (int q = 0; q < a.nsrc; ++q)
            if (updated_here(a.src_node[q]))
                for (int c = 0; c < 3; ++c)
                    a.up[c][a.src_node[q] - a.node_offset] += a.src_scale[q] * a.src_force[3 * q + c];
    for (int r = lane; r < a.nrec; r += kFusedTileX)
        if (updated_here(a.rec_node[r]))
            for (int c = 0; c < 3; ++c) a.rec_out[3 * r + c] = double(a.u[c][a.rec_node[r] - a.node_offset]);
}

// One barrier per plane: iteration k makes element plane k from w planes k and k + 1, then
// writes its force partials and w of plane k + 2 before the barrier; after it, the node plane
// k is summed and updated. Three w planes and two partial buffers keep every write away from
// what a slower thread may still read (two barriers per plane took 141 us instead of 133).
//
// A block sweeps one or more segments of columns (FusedWork); a segment that does not start at
// the model's bottom recomputes the element plane below it (its carry). Chunks are the default:
// blocks running together then sweep the same planes of neighbouring columns, whose halo loads
// hit L2. Balanced persistent blocks (every block the same number of column-planes to +-1)
// sweep different planes side by side: VFEM at 1.2 mm took 534.7 us a step that way against
// 507.4 in chunks (at 2 mm, where the chunks fill one wave, the two are equal).

// The barrier that ends each plane of the sweep. Everything that crosses it passes between
// neighbouring warps of the tile: warp ty's pass partials are read by warp ty + 1 and its stage0
// partials by itself; its w node row is read by the element rows ty - 1 and ty (the row below
// the tile, by the last warp, which then also loads it: FusedExtraRow); and the slots a warp
// overwrites (three w slots, double-buffered partials) were last read by those same warps one
// or two planes before. So a warp need not wait for the whole block: it meets warp ty - 1 and
// warp ty + 1 at named barriers of two warps (id 1 + p joins warps p and p + 1). Even warps meet
// their upper neighbour first, odd warps their lower one, so every pair's two warps reach it in
// the same order and nothing waits in a cycle. Neighbours stay within one plane of each other,
// which is all the slots need; the warps of a tile drift apart by up to a plane, so one slow
// warp no longer stalls the seven others, and warps in different phases (FP64 conversions,
// byte permutes, Tensor Core products) share the SM's pipes. The sweep's first and last barriers
// stay whole-block. A Plane trait, kNeighbourBarriers (A/B against the block barrier, H100, 2 mm,
// 3000 steps): TCOVFEM 226.6 -> 222.4 us, OVFEM FP64 91.9 -> 90.4 us, VFEM 1.2 mm
// 415 -> 411 us; OVFEM FP32 57.5 -> 59.6 us, so FP32 keeps the block barrier.
template <int TileY, bool Neighbour>
__device__ __forceinline__ void fused_plane_barrier(int ty) {
    if constexpr (Neighbour && TileY > 1) {
        static_assert(TileY <= 16, "named barriers 1..TileY - 1 (16 a block)");
        const int first = (ty & 1) ? ty - 1 : ty, second = (ty & 1) ? ty : ty - 1;
        if (first >= 0 && first < TileY - 1) asm volatile("bar.sync %0, 64;" ::"r"(1 + first) : "memory");
        if (second >= 0 && second < TileY - 1) asm volatile("bar.sync %0, 64;" ::"r"(1 + second) : "memory");
    } else {
        __syncthreads();
    }
}

// kEveryWarpComputes: the node row below the tile (w only), loaded by the last warp itself with
// neighbour barriers (all 3 components: the warp that reads it), else by warps 0..2 (component ty
// each, which spreads the loads).
template <class Real, bool Neighbour>
struct FusedExtraRow {
    static constexpr int kComponents = Neighbour ? 3 : 1;
    Real u[kComponents], um[kComponents];
};

template <class Real, bool Damped, bool UniformH, int TileY, int MinBlocks, template <class, int> class PlaneT>
__global__ void __launch_bounds__(kFusedTileX* TileY, MinBlocks)
    fused_step_kernel(FusedStepArgs<Real> a, FusedWork work) {
    using Plane = PlaneT<Real, TileY>;
    using Shared = FusedSharedOf<Real, TileY, Plane>;
    constexpr int kOwnSlots = Shared::kOwnSlots;
    extern __shared__ __align__(16) unsigned char fused_smem[];
    Shared& sh = *reinterpret_cast<Shared*>(fused_smem);
    const int tx = threadIdx.x, ty = threadIdx.y;
    constexpr bool kHandoff = Plane::kHandoffRows;
    static_assert(!kHandoff || (Plane::kEveryWarpComputes && Plane::kLoadAfterForces && sizeof(Real) == 8),
                  "the row handoff is written for FP64 and the plane loop with loads after the forces");
    Plane plane(a, sh.plane, ty * kFusedTileX + tx, kFusedTileX * TileY);
    // The block's work index. With the row handoff a tile waits for the tile below it, whose work
    // index is smaller: blocks take their index from a ticket in the order they start, so every
    // block waited for has started (and runs to its end), whatever order the hardware starts
    // them in. The block with the last ticket sets the counter back for the next step. Taken
    // before griddepcontrol.launch_dependents, so the next step's blocks take theirs after.
    int work_index = int(blockIdx.x);
    if constexpr (kHandoff) {
        __shared__ int ticket;
        if (tx == 0 && ty == 0) {
            const unsigned t = atomicAdd(a.tickets, 1u);
            if (t == gridDim.x - 1) {
                atomicExch(a.tickets, 0u);
                __threadfence();
            }
            ticket = int(t);
        }
        __syncthreads();
        work_index = ticket;
    }
    // Programmatic dependent launch (launch_fused_tile): this kernel's tables above are
    // constants; the previous step's writes (u^{n+1}, the sources) are read only after this.
    release_next_and_await_previous_grid();

    const unsigned node_plane = unsigned(a.nx + 1) * unsigned(a.ny + 1),
                   element_plane = unsigned(a.nx) * unsigned(a.ny);
    // This block's column-planes [s, s_end) (64-bit products: T B can pass 2^31 on large models).
    auto block_range = [&](int& first, int& end) {
        if (work.planes > 0) {
            const int columns = work.columns(), column = work_index % columns;
            const int k0 = (work_index / columns) * work.planes;
            first = column * a.nz + k0;
            end = first + min(work.planes, a.nz - k0);
        } else {
            const long long total = static_cast<long long>(work.columns()) * a.nz;
            first = int(total * work_index / gridDim.x);
            end = int(total * (work_index + 1) / gridDim.x);
        }
    };
    int s, s_end;
    block_range(s, s_end);
    while (s < s_end) {
        const int column = s / a.nz, k0 = s - column * a.nz;
        const int k1 = min(a.nz, k0 + (s_end - s));
        s += k1 - k0;
        // This thread's node (ei, ej): lane xl of x tile cx, row ty of y tile cy. A merged column
        // (FusedWork::merged) puts the last x tile of y tiles 2m and 2m + 1 side by side in the two
        // half warps; there the last lane of each half still owns its node (the model ends within
        // the half), and the half's first lane is the left halo as lane 0 is in a full tile.
        const int full_columns = work.tiles_x * work.tiles_y;
        const bool half = column >= full_columns;
        const int xl = half ? (tx & 15) : tx;
        const int cx = half ? work.tiles_x : column % work.tiles_x;
        const int cy = half ? 2 * (column - full_columns) + (tx >> 4) : column / work.tiles_x;
        const int ei = cx * (kFusedTileX - 2) - 1 + xl;
        constexpr int kOwnedRows = fused_owned_rows<Plane, TileY>();
        const int ej = cy * kOwnedRows - (kHandoff ? 0 : 1) + ty;
        const int x_end = half ? 16 : kFusedTileX;
        const bool node_in = cy < work.tiles_y && ei >= 0 && ei <= a.nx && ej >= 0 && ej <= a.ny;
        const bool last_row_loads_only = !Plane::kEveryWarpComputes && ty == TileY - 1;
        const bool computes = node_in && xl < x_end - 1 && !last_row_loads_only && ei < a.nx && ej < a.ny;
        const bool owns_x = xl > 0 && (half || xl < kFusedTileX - 1);
        const bool owns = owns_x && (ty > 0 || kHandoff) && !last_row_loads_only && node_in;
        // The row handoff: this tile (virtual x tile cx, y tile cy) passes its last row's upper
        // partials on (warp TileY - 1), and its first row takes those of the tile below (warp 0).
        const int vtile = cx * work.tiles_y + cy;
        const bool passes_on = kHandoff && ty == TileY - 1 && cy < work.tiles_y;
        const bool takes = kHandoff && ty == 0 && cy > 0 && cy < work.tiles_y;
        // This thread's node and element at plane kk (meaningful when node_in / computes).
        const unsigned node0 = unsigned(ei) + unsigned(a.nx + 1) * unsigned(ej);
        const unsigned element0 = unsigned(ei) + unsigned(a.nx) * unsigned(ej);
        auto node_at = [&](int kk) { return node0 + unsigned(kk) * node_plane; };
        auto node_values = [&](int kk) { return load_node(a, node_at(kk), node_in && kk <= a.nz); };
        // This thread's column of w at node plane kk.
        auto w_col = [&](int kk) { return Plane::kSwizzleW ? tx ^ fused_w_swizzle(ty, kk) : tx; };
        auto put_w = [&](int kk, const NodeValues<Real>& v) {
            const int col = w_col(kk);
#pragma unroll
            for (int c = 0; c < 3; ++c)
                sh.w[kk % 3][c][ty][col] = Damped ? damped_operand(v.u[c], v.um[c], a.keep, a.b) : v.u[c];
        };
        // kEveryWarpComputes: the row below the tile (node row TileY of the tile), of which only w
        // is needed, for the elements of the last tile row (FusedExtraRow: the last warp loads all
        // of it, or warps 0..2 component ty each). The node below this thread's by TileY - ty rows
        // (the lane's x mapping and y tile are its own). Without it these do nothing.
        using Extra = FusedExtraRow<Real, Plane::kNeighbourBarriers>;
        const int eje = ej + (TileY - ty);
        const bool extra_warp = Plane::kNeighbourBarriers ? ty == TileY - 1 : ty < 3;
        const bool extra_in =
            Plane::kEveryWarpComputes && extra_warp && cy < work.tiles_y && ei >= 0 && ei <= a.nx && eje <= a.ny;
        auto extra_component = [&](int i) { return Extra::kComponents == 3 ? i : ty; };
        auto extra_values = [&](int kk) {
            Extra e;
#pragma unroll
            for (int i = 0; i < Extra::kComponents; ++i) e.u[i] = e.um[i] = Real(0);
            if (extra_in && kk <= a.nz) {
                const unsigned n = node_at(kk) + unsigned(TileY - ty) * unsigned(a.nx + 1);
#pragma unroll
                for (int i = 0; i < Extra::kComponents; ++i) {
                    e.u[i] = __ldg(a.u[extra_component(i)] + n);
                    if constexpr (Damped) e.um[i] = __ldg(a.um[extra_component(i)] + n);
                }
            }
            return e;
        };
        auto put_extra = [&](int kk, const Extra& e) {
            if constexpr (Plane::kEveryWarpComputes) {  // without it, w has no row TileY
                if (extra_warp) {
                    const int col = Plane::kSwizzleW ? tx ^ fused_w_swizzle(TileY, kk) : tx;
#pragma unroll
                    for (int i = 0; i < Extra::kComponents; ++i)
                        sh.w[kk % 3][extra_component(i)][TileY][col] =
                            Damped ? damped_operand(e.u[i], e.um[i], a.keep, a.b) : e.u[i];
                }
            }
        };
        auto own_slot = [](int kk) { return kOwnSlots == 2 ? (kk & 1) : int(unsigned(kk) % 3u); };
        auto put_own = [&](int kk, const NodeValues<Real>& v) {
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                sh.own[own_slot(kk)][c][ty][tx] = v.u[c];
                sh.own[own_slot(kk)][3 + c][ty][tx] = v.um[c];
            }
        };
        // u^{n+1} of this thread's node at plane kk from its total force f (+ the Plane's diagonal
        // term dg w, which needs w of the node: still in slot kk % 3).
        auto update = [&](int kk, Real ai, Real ih, Real mh, Real dg, const Real(&f)[3]) {
            if (kk < a.skip_lo || kk > a.nz - a.skip_hi) return;  // a window's view: not its plane
            const unsigned n = node_at(kk);
            const int buf = own_slot(kk);
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                const Real fc = Plane::kDiagonal ? f[c] + dg * sh.w[kk % 3][c][ty][w_col(kk)] : f[c];
                a.up[c][n] =
                    central_difference_node(sh.own[buf][c][ty][tx], sh.own[buf][3 + c][ty][tx], ai * fc, mh, ih);
            }
        };
        // The update factors stay plain loads at their two call sites: one helper returning them as
        // a struct raised the FP64 kernel to 128 registers and 123 us a step (against 113 us).
        // ptxas sinks these __ldg's below the plane's barrier, where TCOVFEM's update then waits
        // for them (7.6 % of its stall samples); coherent loads kept before the barrier
        // or issued before the forces did not make the step faster (cuda-bench.md).
        auto factor = [&](const Real* p, Real uniform, int kk) { return owns ? __ldg(p + node_at(kk)) : uniform; };
        // The material of this thread's element at plane kk (0: none or void). Loaded one plane
        // ahead and the constants looked up in shared memory: Nsight Compute showed warps waiting
        // on the dependent global loads id -> lambda[id] (long scoreboard, 2.2 cycles per issue).
        auto element_id = [&](int kk) {
            return computes && kk < a.nz ? unsigned(__ldg(a.ids + (element0 + unsigned(kk) * element_plane))) : 0u;
        };

        int k = k0 > 0 ? k0 - 1 : 0;
        {
            const NodeValues<Real> v0 = node_values(k), v1 = node_values(k + 1);
            put_w(k, v0);
            put_own(k, v0);
            put_w(k + 1, v1);
            put_own(k + 1, v1);
            put_extra(k, extra_values(k));
            put_extra(k + 1, extra_values(k + 1));
        }
        NodeValues<Real> next = node_values(k + 2);
        Extra next_extra = extra_values(k + 2);
        unsigned id_next = element_id(k);
        __syncthreads();
        Real carry[3] = {Real(0), Real(0), Real(0)};
        for (; k < k1; ++k) {
            // Two bodies on purpose: merging their common parts into helpers changed the TCOVFEM
            // kernel's generated code and cost 1.3 % (310 against 306 us).
            if constexpr (Plane::kLoadAfterForces) {
                // Node plane k + 2 to shared memory first: its w slot was last read by forces(k - 1)
                // (before the last barrier) and by this thread's own update(k - 1), its own slot
                // (third of three) by update(k - 1) too. Nothing loaded is then live across forces.
                put_w(k + 2, next);
                put_own(k + 2, next);
                put_extra(k + 2, next_extra);
                const unsigned id = id_next;
                plane.forces(sh, a, k, id, tx, ty);
                if constexpr (kHandoff) {
                    if (ty == TileY - 1) __syncwarp();  // the warp's partials, written by other lanes
                    if (passes_on) {
                        Real v[2][3];
                        plane.passed_on(sh, k, tx, ty, v);
                        unsigned long long* const slot = a.handoff + fused_handoff_slot(vtile, a.nz, k) + xl;
#pragma unroll
                        for (int i = 0; i < 6; ++i)
                            fused_handoff_store(slot + fused_handoff_word(i), a.tag, v[i / 3][i % 3]);
                    }
                }
                id_next = element_id(k + 1);
                next = node_values(k + 3);
                next_extra = extra_values(k + 3);
                // The update factors: in flight across the barrier.
                const Real ai = factor(a.a, Real(0), k);
                const Real ih = UniformH ? a.ih0 : factor(a.ih, a.ih0, k);
                const Real mh = UniformH ? a.mh0 : factor(a.mh, a.mh0, k);
                const Real dg = Plane::kDiagonal ? factor(a.diag, Real(0), k) : Real(0);
                // The first row's partials from the tile below (kHandoffRows), taken before the
                // barrier: the first warp's wait for them then overlaps its wait for its neighbour
                // (177.9 / 178.2 -> 175.5 / 176.5 us a step, A/B).
                // 0 at the model's bottom row and past the model; the words are this step's once
                // their tags say so, else they are read again (the whole warp waits: a merged
                // column's half warps take from different tiles). No deadlock: the tile below
                // never waits for this one.
                Real below[2][3] = {};
                if constexpr (kHandoff) {
                    if (ty == 0) {
                        for (int tries = 0;; ++tries) {
                            bool ok = true;
                            if (takes) {
                                FusedHandoffWords words;
                                words.load(a.handoff + fused_handoff_slot(vtile - 1, a.nz, k) + xl);
                                ok = words.values(a.tag, below);
                            }
                            if (__all_sync(0xffffffffu, ok)) break;
                            __nanosleep(tries < 8 ? 32 : 256);
                        }
                    }
                }
                // Partials of plane k and w of node plane k + 2 complete (for this warp's rows).
                fused_plane_barrier<TileY, Plane::kNeighbourBarriers>(ty);
                Real node[2][3];
                plane.node_sums(sh, k, tx, ty, node);
                if constexpr (kHandoff) {
                    if (ty == 0) {
#pragma unroll
                        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
                            for (int c = 0; c < 3; ++c) node[cc][c] += below[cc][c];
                    }
                }
                if (k >= k0 && owns) {
                    const Real f[3] = {carry[0] + node[0][0], carry[1] + node[0][1], carry[2] + node[0][2]};
                    update(k, ai, ih, mh, dg, f);
                }
#pragma unroll
                for (int c = 0; c < 3; ++c) carry[c] = node[1][c];
                continue;
            }
            // Two planes ahead, in flight during the element work.
            const NodeValues<Real> ahead = node_values(k + 3);
            const Extra ahead_extra = extra_values(k + 3);
            // This plane's update factors, needed after the element work.
            const Real ai = factor(a.a, Real(0), k);
            const Real ih = UniformH ? a.ih0 : factor(a.ih, a.ih0, k);
            const Real mh = UniformH ? a.mh0 : factor(a.mh, a.mh0, k);
            const Real dg = Plane::kDiagonal ? factor(a.diag, Real(0), k) : Real(0);
            const unsigned id = id_next;
            id_next = element_id(k + 1);
            plane.forces(sh, a, k, id, tx, ty);
            put_w(k + 2, next);
            put_extra(k + 2, next_extra);
            // Partials of plane k and w of node plane k + 2 complete (for this warp's rows).
            fused_plane_barrier<TileY, Plane::kNeighbourBarriers>(ty);
            Real node[2][3];
            plane.node_sums(sh, k, tx, ty, node);
            // z: node plane k is complete (the plane below gave its top face in carry).
            if (k >= k0 && owns) {
                const Real f[3] = {carry[0] + node[0][0], carry[1] + node[0][1], carry[2] + node[0][2]};
                update(k, ai, ih, mh, dg, f);
            }
            put_own(k + 2, next);  // after update(k) read the same slot
#pragma unroll
            for (int c = 0; c < 3; ++c) carry[c] = node[1][c];
            next = ahead;
            next_extra = ahead_extra;
        }
        // The model's top node plane has elements only below.
        if (k1 == a.nz && owns) {
            const Real ai = factor(a.a, Real(0), a.nz);
            const Real ih = UniformH ? a.ih0 : factor(a.ih, a.ih0, a.nz);
            const Real mh = UniformH ? a.mh0 : factor(a.mh, a.mh0, a.nz);
            const Real dg = Plane::kDiagonal ? factor(a.diag, Real(0), a.nz) : Real(0);
            update(a.nz, ai, ih, mh, dg, carry);
        }
        // kHandoffRows: when the model's top node row ny is the row above this tile (ny a multiple of
        // TileY), no tile has it as a first row: after the sweep the block's warps update it, a plane
        // each in turn, from the partials the last warp passed on (after the barrier, visible to the
        // whole block) and the node's values from global memory; summed as the sweep sums a row
        // whose own element row is past the model: carry + (0 + partial), and carry = 0 + partial.
        if constexpr (kHandoff) {
            __syncthreads();
            if (cy < work.tiles_y && cy * TileY + TileY == a.ny && owns_x && ei >= 0 && ei <= a.nx) {
                const unsigned long long* const words = a.handoff + xl;
                auto passed = [&](int kk, int cc, int c) {
                    const unsigned long long* p =
                        words + fused_handoff_slot(vtile, a.nz, kk) + fused_handoff_word(3 * cc + c);
                    return fused_handoff_double(__ldcg(p), __ldcg(p + kFusedTileX));
                };
                const int k_last = k1 == a.nz ? a.nz : k1 - 1;
                // A plane a warp at a time: with all loads of two planes first, 188.6 against 187.6 us
                // a step; by the last warp alone, the last tile's blocks finished about
                // a plane's load latency a plane after the others (213 against 203).
                for (int kk = k0 + ty; kk <= k_last; kk += TileY) {
                    if (kk < a.skip_lo || kk > a.nz - a.skip_hi) continue;  // as update()
                    const unsigned n = unsigned(ei) + unsigned(a.nx + 1) * unsigned(a.ny) + unsigned(kk) * node_plane;
                    const Real ai = __ldg(a.a + n);
                    const Real ih = UniformH ? a.ih0 : __ldg(a.ih + n);
                    const Real mh = UniformH ? a.mh0 : __ldg(a.mh + n);
                    const Real dg = Plane::kDiagonal ? __ldg(a.diag + n) : Real(0);
#pragma unroll
                    for (int c = 0; c < 3; ++c) {
                        const Real carry_c = kk > 0 ? Real(0) + passed(kk - 1, 1, c) : Real(0);
                        const Real f = kk < a.nz ? carry_c + (Real(0) + passed(kk, 0, c)) : carry_c;
                        const Real u = __ldg(a.u[c] + n), um = __ldg(a.um[c] + n);
                        const Real w = Damped ? damped_operand(u, um, a.keep, a.b) : u;
                        const Real fc = Plane::kDiagonal ? f + dg * w : f;
                        a.up[c][n] = central_difference_node(u, um, ai * fc, mh, ih);
                    }
                }
            }
        }
        __syncthreads();  // the next segment's prologue overwrites the w and own slots read above
    }
    // Sources and receivers (fused_points), by the tile's last row, after the sweep. The block's
    // range is made again rather than kept live across the sweep.
    if (ty == TileY - 1 && (a.nsrc > 0 || a.nrec > 0)) {
        int first, end;
        block_range(first, end);
        fused_points(a, work, fused_owned_rows<Plane, TileY>(), first, end, tx);
    }
}

// Element planes per chunk when not set: the chunk count that fills whole waves of resident
// blocks (defined in voxel_step_fused_cuda.cu).
int wave_filling_planes(std::size_t tiles, int resident_blocks, int nz);

// The launch shape (voxel_step_fused_cuda.cu): tile rows, the blocks per SM the registers are
// sized for (0: the Plane's default), element planes per chunk (0: wave_filling_planes; -1:
// balanced persistent blocks), programmatic dependent launch (pdl: -1 on sm_90+, 0 off) and the
// merged last x tile (merge: -1 the Plane's kMergeLastXTile, 0 never, 1 whenever it fits a half
// warp). Read once from the benchmark knobs VOXWAVE_FUSED_TILE / VOXWAVE_FUSED_PLANES (a number
// or "balanced") / VOXWAVE_FUSED_PDL / VOXWAVE_FUSED_MERGE (0 or 1); a bad knob throws.
struct FusedShape {
    int tile_y = 8, min_blocks = 0, planes = 0;
    int pdl = -1, merge = -1;
};
const FusedShape& fused_shape();

// Programmatic dependent launch on sm_90 and newer (the kernel's griddepcontrol), unless the knob
// VOXWAVE_FUSED_PDL=0 turns it off: the fused step's launches and the point launch after it
// (time_stepper_cuda.cu), which waits for the step the same way.
inline bool fused_step_pdl() {
    static const bool pdl = device_runs_programmatic_launch() && fused_shape().pdl != 0;
    return pdl;
}

template <class Real, bool Damped, bool UniformH, int TileY, int MinBlocks, template <class, int> class PlaneT>
void launch_fused_tile(FusedStepArgs<Real> a, cudaStream_t stream) {
    const dim3 block(kFusedTileX, TileY);
    using Plane = PlaneT<Real, TileY>;
    using Shared = FusedSharedOf<Real, TileY, Plane>;
    constexpr int bytes = int(sizeof(Shared));
    auto kernel = fused_step_kernel<Real, Damped, UniformH, TileY, MinBlocks, PlaneT>;
    // Once per instantiation: allow more than 48 KB of shared memory; how many blocks fit.
    static const int resident = [&] {
        VOXWAVE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        int device = 0, sms = 0, per_sm = 0;
        VOXWAVE_CUDA_CHECK(cudaGetDevice(&device));
        VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        VOXWAVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kFusedTileX * TileY, bytes));
        return sms * per_sm;
    }();
    const bool pdl = fused_step_pdl();
    // Owned nodes per tile: 30 along x, fused_owned_rows along y.
    FusedWork work{fused_tiles_x(a.nx), fused_tiles_y<Plane, TileY>(a.ny), 0, 0};
    // The last x tile merged in pairs of y tiles when it holds at most 15 nodes (the Plane's
    // choice, or the knob). Merged columns then sweep in balanced persistent blocks unless a
    // chunk size is set: in chunks the full columns' blocks still set the step (TCOVFEM at 2 mm,
    // 248.9 us in chunks, 242.6 balanced).
    const int merge = fused_shape().merge >= 0 ? fused_shape().merge : int(Plane::kMergeLastXTile);
    const int last_nodes = a.nx + 1 - (work.tiles_x - 1) * (kFusedTileX - 2);
    if (merge && last_nodes <= 15) {  // half a warp, whose first lane is the left halo
        work.merged = 1;
        --work.tiles_x;
        if (a.planes == 0) a.planes = -1;
    }
    const long long columns = work.columns(), total = columns * a.nz;
    if constexpr (Plane::kHandoffRows) {
        if (!a.handoff || !a.tickets || a.handoff_words < fused_handoff_words_of<Plane, TileY>(a.nx, a.ny, a.nz) ||
            a.tag == 0)
            throw RuntimeError("fused CUDA step: the row handoff buffer is missing or too small");
    }
    if (static_cast<long long>(a.nx + 1) * (a.ny + 1) * (a.nz + 1) >= (1ll << 32))
        throw RuntimeError("the model has 2^32 nodes or more: more than the fused CUDA step indexes");
    if (total >= (1ll << 31))
        throw RuntimeError("the model has more than 2^31 tile column-planes for the fused CUDA step");
    long long blocks = std::min<long long>(total, resident);  // balanced: one wave (fewer on tiny models)
    if (a.planes >= 0) {
        work.planes =
            a.planes > 0 ? std::min(a.planes, a.nz) : wave_filling_planes(std::size_t(columns), resident, a.nz);
        blocks = columns * ((a.nz + work.planes - 1) / work.planes);
    }
    launch_programmatic(kernel, dim3(unsigned(blocks)), block, std::size_t(bytes), stream, pdl, a, work);
    VOXWAVE_CUDA_CHECK_LAUNCH("fused_step_kernel");
}

// The shape's instantiation. AllShapes: every knob value (VFEM / OVFEM); otherwise 32 x 8
// threads at 1 or 2 blocks per SM only (TCOVFEM: heavy kernels, slow to compile, and a tile of
// 16 rows does not fit its shared memory twice per SM), 8x3 and 8x4 then mean 8x2.
template <class Real, bool Damped, bool UniformH, bool AllShapes, template <class, int> class PlaneT>
void launch_fused_shape(FusedStepArgs<Real> a, int default_min_blocks, cudaStream_t stream) {
    const FusedShape& s = fused_shape();
    a.planes = s.planes;
    const int min_blocks = s.min_blocks > 0 ? s.min_blocks : default_min_blocks;
    if constexpr (AllShapes) {
        if (s.tile_y == 16 && min_blocks >= 2)
            launch_fused_tile<Real, Damped, UniformH, 16, 2, PlaneT>(a, stream);
        else if (s.tile_y == 16)
            launch_fused_tile<Real, Damped, UniformH, 16, 1, PlaneT>(a, stream);
        else if (min_blocks >= 4)
            launch_fused_tile<Real, Damped, UniformH, 8, 4, PlaneT>(a, stream);
        else if (min_blocks == 3)
            launch_fused_tile<Real, Damped, UniformH, 8, 3, PlaneT>(a, stream);
        else if (min_blocks == 2)
            launch_fused_tile<Real, Damped, UniformH, 8, 2, PlaneT>(a, stream);
        else
            launch_fused_tile<Real, Damped, UniformH, 8, 1, PlaneT>(a, stream);
    } else {
        if (min_blocks >= 2)
            launch_fused_tile<Real, Damped, UniformH, 8, 2, PlaneT>(a, stream);
        else
            launch_fused_tile<Real, Damped, UniformH, 8, 1, PlaneT>(a, stream);
    }
}

template <class Real, bool AllShapes, template <class, int> class PlaneT>
void launch_fused_plane(const FusedStepArgs<Real>& a, bool damped, int default_min_blocks, cudaStream_t stream) {
    if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
    const bool uniform = a.ih == nullptr;
    if (damped)
        uniform ? launch_fused_shape<Real, true, true, AllShapes, PlaneT>(a, default_min_blocks, stream)
                : launch_fused_shape<Real, true, false, AllShapes, PlaneT>(a, default_min_blocks, stream);
    else
        uniform ? launch_fused_shape<Real, false, true, AllShapes, PlaneT>(a, default_min_blocks, stream)
                : launch_fused_shape<Real, false, false, AllShapes, PlaneT>(a, default_min_blocks, stream);
}

}  // namespace voxwave::cuda
