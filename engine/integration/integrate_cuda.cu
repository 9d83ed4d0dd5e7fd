// CUDA element-integration variants (see integrate_cuda.hpp); the CPU code in integrate_cpu.cpp
// is their oracle. The per-point numerics come from element_kernels.hpp, shared with the CPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "integration/element_kernels.hpp"
#include "integration/integrate_cpu.hpp"
#include "integration/integrate_cuda.hpp"

namespace voxwave::integration {
namespace {

template <class Real>
struct Args {
    int m = 0;  // elements in this chunk
    int nq = 0, nsh = 0, nv = 0;
    const Real* __restrict__ phi = nullptr;  // [(q * 4 + d) * nsh + a]
    const Real* __restrict__ geo = nullptr;  // [(q * 4 + d) * nv + v]
    const Real* __restrict__ w = nullptr;    // [q]
    const Real* __restrict__ xv = nullptr;   // [(e * nv + v) * 3 + c]
    const Real* __restrict__ jac = nullptr;  // [(q * 10 + i) * m + e]: element fastest (coalesced per thread/element)
    const Real* __restrict__ cp = nullptr;   // packed coefficients
    Real* __restrict__ k = nullptr;          // [e][n][n]
};

template <class Real>
struct SumfactArgs {
    int n = 0, pp = 0, npre = 0;
    const int* __restrict__ prefix = nullptr;     // [pi * 2 + {0,1}]
    const int* __restrict__ prefix_of = nullptr;  // [a]
    const int* __restrict__ kidx = nullptr;       // [a]: t-direction index of shape a
    const Real* __restrict__ n1d = nullptr;       // [x * pp + i]
    const Real* __restrict__ dn1d = nullptr;
    unsigned active_rs = 0;  // bit r * 4 + s: that reference-derivative pair occurs
};

template <class Real>
__device__ __forceinline__ void load_jacobian(const Args<Real>& a, int e, int q, Real* jf) {
#pragma unroll
    for (int i = 0; i < 10; ++i) jf[i] = a.jac[(long(q) * 10 + i) * a.m + e];
}

// The device-side Jacobian ("jac" variants): one thread per (element, point).
template <class Real>
__global__ void jacobian_terms_kernel(Args<Real> a, Real* __restrict__ jac) {
    const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= long(a.m) * a.nq) return;
    const int e = int(t % a.m), q = int(t / a.m);
    Real x[24], jf[10];
    for (int i = 0; i < a.nv * 3; ++i) x[i] = a.xv[long(e) * a.nv * 3 + i];
    jacobian_terms(x, a.geo + long(q) * 4 * a.nv, a.nv, a.w[q], jf);
#pragma unroll
    for (int i = 0; i < 10; ++i) jac[(long(q) * 10 + i) * a.m + e] = jf[i];
}

// Per-pair contribution of one point: m_p += w det D_{i_d}(a) D_{j_d}(b).
template <class Pairs, class Real>
__device__ __forceinline__ void accumulate_point(const Real* phi, int nsh, int ia, int ib, const Real* jf, Real* m) {
    Real da[4], db[4];
    physical_derivatives(phi, nsh, ia, jf, da);
    physical_derivatives(phi, nsh, ib, jf, db);
#pragma unroll
    for (int p = 0; p < Pairs::pairs; ++p) m[p] += jf[9] * da[Pairs::test_d(p)] * db[Pairs::trial_d(p)];
}

// AI: one thread per element.
template <class Pairs, class Real>
__global__ void ai_kernel(Args<Real> a) {
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= a.m) return;
    const long n = long(Pairs::equations) * a.nsh;
    Real* ke = a.k + long(e) * n * n;
    for (int ia = 0; ia < a.nsh; ++ia)
        for (int ib = 0; ib < a.nsh; ++ib) {
            Real m[Pairs::pairs] = {};
            for (int q = 0; q < a.nq; ++q) {
                Real jf[10];
                load_jacobian(a, e, q, jf);
                accumulate_point<Pairs>(a.phi + long(q) * 4 * a.nsh, a.nsh, ia, ib, jf, m);
            }
            store_block<Pairs>(m, a.cp, a.nsh, ia, ib, ke);
        }
}

// AII: one thread per integration point; a warp per element, lanes over points, warp reduction.
template <class Pairs, class Real>
__global__ void aii_kernel(Args<Real> a) {
    const int e = int((long(blockIdx.x) * blockDim.x + threadIdx.x) / 32), lane = threadIdx.x & 31;
    if (e >= a.m) return;  // whole warps leave together
    const long n = long(Pairs::equations) * a.nsh;
    Real* ke = a.k + long(e) * n * n;
    for (int ia = 0; ia < a.nsh; ++ia)
        for (int ib = 0; ib < a.nsh; ++ib) {
            Real m[Pairs::pairs] = {};
            for (int q = lane; q < a.nq; q += 32) {
                Real jf[10];
                load_jacobian(a, e, q, jf);
                accumulate_point<Pairs>(a.phi + long(q) * 4 * a.nsh, a.nsh, ia, ib, jf, m);
            }
#pragma unroll
            for (int p = 0; p < Pairs::pairs; ++p)
                for (int off = 16; off > 0; off /= 2) m[p] += __shfl_down_sync(0xffffffffu, m[p], off);
            if (lane == 0) store_block<Pairs>(m, a.cp, a.nsh, ia, ib, ke);
        }
}

// reg: one thread per (element, shape pair), integrals in registers, no shared memory.
template <class Pairs, class Real>
__global__ void reg_kernel(Args<Real> a, int blocks_per_element) {
    const int e = blockIdx.x / blocks_per_element;
    const int pair = (blockIdx.x % blocks_per_element) * blockDim.x + threadIdx.x;
    if (pair >= a.nsh * a.nsh) return;
    const int ia = pair / a.nsh, ib = pair % a.nsh;
    const long n = long(Pairs::equations) * a.nsh;
    Real m[Pairs::pairs] = {};
    for (int q = 0; q < a.nq; ++q) {
        Real jf[10];
        load_jacobian(a, e, q, jf);
        accumulate_point<Pairs>(a.phi + long(q) * 4 * a.nsh, a.nsh, ia, ib, jf, m);
    }
    store_block<Pairs>(m, a.cp, a.nsh, ia, ib, a.k + long(e) * n * n);
}

constexpr int kShmThreads = 256;

// Register block of the shm kernel: each thread accumulates RA test x RB trial shapes (times the
// problem's derivative pairs). 4 x 4 loads 24 operands per point for 144 FFMAs where 2 x 2 loaded
// 12 for 36: the H100 profile of 2 x 2 showed the loop issue-bound with a third of the slots on
// FFMA. Tiles hold up to side_max shapes per side within `threads` threads (kShmThreads, or the
// kernel's bound when VOXWAVE_SHM_SIDE asks for larger tiles).
struct ShmBlock {
    int ra = 2, rb = 2;
    int step() const { return ra > rb ? ra : rb; }  // the side is a multiple of both
    int side_max(int threads = kShmThreads) const {
        int s = step();
        while (((s + step()) / ra) * ((s + step()) / rb) <= threads) s += step();
        return s;
    }
};

// Tiling of nsh shapes into tiles of side_a test x side_b trial shapes, per_a x per_b of them.
// Square tiles: as few per side as side_max allows, the side shrunk to cover nsh with the least
// padding ("fit") or side_max ("max"). Rectangular ("rect"): all test shapes in one tile row and
// the trial shapes split in as few tiles as the thread bound allows; a side only has to be a
// multiple of its own register-block size, so p = 5 (74 shapes) computes 76 x 38 tiles (5,776
// pairs per element) instead of four 40 x 40 (6,400). Sides are multiples of RA (test) and RB
// (trial), so a thread's register block of derivatives starts aligned for its vector loads.
enum class ShmTileShape { Fit, Max, Rect };
struct ShmTiling {
    ShmBlock block;
    int per_a = 1, per_b = 1, side_a = 32, side_b = 32, points = 32;
    int pack = 1;              // tiles per thread block (see shm_kernel)
    unsigned group_bytes = 0;  // shared memory of one tile's thread group
    __host__ __device__ int threads() const { return (side_a / block.ra) * (side_b / block.rb); }
};
// Only FP32 4 x 2 packs tiles up to 512 threads (the compiler then holds it to 128 registers,
// which it uses anyway); 2 x 2 under the same bound grew from 76 to 113 registers and lost a
// quarter of its speed at p = 4, 4 x 4 needs 234 and FP64 spills under 128.
__host__ __device__ constexpr int shm_max_threads(int real_bytes, int ra, int rb) {
    return real_bytes == 4 && ra * rb == 8 ? 2 * kShmThreads : kShmThreads;
}
inline int round_up(int n, int m) { return (n + m - 1) / m * m; }
inline ShmTiling shm_tiling(int nsh, ShmBlock block, ShmTileShape shape, int points, int side_max, int max_threads) {
    ShmTiling t;
    t.block = block;
    t.points = points;
    if (shape == ShmTileShape::Rect && round_up(nsh, block.ra) / block.ra <= max_threads) {
        t.side_a = round_up(nsh, block.ra);
        for (t.per_b = 1;; ++t.per_b) {
            t.side_b = round_up((nsh + t.per_b - 1) / t.per_b, block.rb);
            if (t.threads() <= max_threads) return t;
        }
    }
    const int max = side_max, step = block.step();
    t.per_a = t.per_b = (nsh + max - 1) / max;
    const int per_tile = (nsh + t.per_a - 1) / t.per_a;
    t.side_a = t.side_b = shape == ShmTileShape::Max ? max : std::min(max, round_up(per_tile, step));
    return t;
}

// Which derivatives d = 0..3 (value, d/dx, d/dy, d/dz) the problem uses on the test or trial
// side, and their slot in the compact shared arrays. Loops over compile-time pairs: folded to
// constants where the kernel calls them with constant d.
template <class Pairs>
__host__ __device__ constexpr bool shm_uses(bool test, int d) {
    bool used = false;
    for (int p = 0; p < Pairs::pairs; ++p) used |= (test ? Pairs::test_d(p) : Pairs::trial_d(p)) == d;
    return used;
}
template <class Pairs>
__host__ __device__ constexpr int shm_slot(bool test, int d) {
    int n = 0;
    for (int e = 0; e < 4; ++e) n += e < d && shm_uses<Pairs>(test, e);
    return n;
}
template <class Pairs>
__host__ __device__ constexpr int shm_slots(bool test) {
    return shm_slot<Pairs>(test, 4);
}

template <class Pairs, class Real>
std::size_t shm_shared_bytes(const ShmTiling& t) {
    const std::size_t ne = Pairs::equations;
    return (std::size_t(t.points) * (shm_slots<Pairs>(true) * t.side_a + shm_slots<Pairs>(false) * t.side_b) +
            std::size_t(t.points) * 10 + ne * ne * Pairs::pairs + 24) *
           sizeof(Real);
}

// R consecutive values from shared memory in 16- or 8-byte loads (p is aligned to R values).
// Vector types of the value's own type: a float4 reinterpreted as doubles went through a local-
// memory round trip (64-byte stack frame, FP64 three times slower).
template <class Real, int R>
__device__ __forceinline__ void load_shapes(const Real* p, Real (&v)[R]) {
    if constexpr (sizeof(Real) == 8 && R % 2 == 0) {
#pragma unroll
        for (int c = 0; c < R / 2; ++c) {
            const double2 x = reinterpret_cast<const double2*>(p)[c];
            v[2 * c] = x.x, v[2 * c + 1] = x.y;
        }
    } else if constexpr (sizeof(Real) == 4 && R % 4 == 0) {
#pragma unroll
        for (int c = 0; c < R / 4; ++c) {
            const float4 x = reinterpret_cast<const float4*>(p)[c];
            v[4 * c] = x.x, v[4 * c + 1] = x.y, v[4 * c + 2] = x.z, v[4 * c + 3] = x.w;
        }
    } else if constexpr (sizeof(Real) == 4 && R % 2 == 0) {
#pragma unroll
        for (int c = 0; c < R / 2; ++c) {
            const float2 x = reinterpret_cast<const float2*>(p)[c];
            v[2 * c] = x.x, v[2 * c + 1] = x.y;
        }
    } else {
#pragma unroll
        for (int i = 0; i < R; ++i) v[i] = p[i];
    }
}

// The shm layout knobs, for benchmark sweeps: VOXWAVE_SHM_BLOCK=2x2|4x2|4x4 (register block),
// VOXWAVE_SHM_TILE=fit|max|rect (fitted, side_max or rectangular tiles), VOXWAVE_SHM_POINTS=
// 16|32|64|128 (points per shared-memory batch), VOXWAVE_SHM_PACK=N (tiles per thread block;
// capped by the kernel's thread bound and the shared memory), VOXWAVE_SHM_SIDE=N (largest
// square tile side, up to what the kernel's thread bound allows).
struct ShmKnobs {
    ShmBlock block;
    ShmTileShape tile = ShmTileShape::Fit;
    int points = 32;
    int pack = 1;
    int side = 0;  // largest tile side; 0: side_max() for kShmThreads
};
// Defaults by shapes per element, from the H100 sweeps of hexahedral elasticity in FP32 (bench/
// results/integration-h100.md; kernel time per element, m = 10,000):
//   nsh <= 32  (p <= 3)  4 x 2, fitted:            p = 3 0.052 us against 0.069 with 2 x 2
//   nsh <= 50  (p = 4)   4 x 2, one tile of up to 64 (338 threads at p = 4), 128 points per batch:
//                         0.293 us; rect (52 x 50, not a diagonal tile) 0.338, 2 x 2 0.454
//   nsh <= 144 (p = 5..7) 4 x 2, rect, 128 points per batch at p = 5 and 64 above: p = 5 1.69 us
//                         (76 x 38 tiles; 64 points 1.72, 32 points 1.75) against 1.85-1.87 with four
//                         fitted 40 x 40 tiles; p = 6 4.17 (108 x 36; 128 points 4.36) against
//                         4.84-5.08 (fitted, 4 tiles per thread block); p = 7 16.7 against 17.1
//   larger     4 x 4, side_max tiles:           p = 8 30.7 us
// FP64 keeps 2 x 2 (4 x 2 took 14.96 against 11.23 us at p = 6; 4 x 4 would need 288 registers
// for the sums alone).
template <class Real>
ShmKnobs shm_knobs(int nsh) {
    ShmKnobs k;
    if (sizeof(Real) == 4) {
        k.block = nsh > 144 ? ShmBlock{4, 4} : ShmBlock{4, 2};
        if (nsh > 32 && nsh <= 50) k.side = 64, k.points = 128;
        if (nsh > 50 && nsh <= 144) k.tile = ShmTileShape::Rect, k.points = nsh <= 74 ? 128 : 64;
        if (nsh > 144) k.tile = ShmTileShape::Max;
    }
    if (const char* v = std::getenv("VOXWAVE_SHM_BLOCK")) {
        const std::string s(v);
        if (s == "2x2") k.block = ShmBlock{2, 2};
        if (s == "4x2") k.block = ShmBlock{4, 2};
        if (s == "4x4" && sizeof(Real) == 4) k.block = ShmBlock{4, 4};
    }
    if (const char* v = std::getenv("VOXWAVE_SHM_TILE")) {
        const std::string s(v);
        k.tile = s == "max" ? ShmTileShape::Max : (s == "rect" ? ShmTileShape::Rect : ShmTileShape::Fit);
    }
    if (const char* v = std::getenv("VOXWAVE_SHM_POINTS")) {
        const int n = std::atoi(v);
        if (n == 16 || n == 32 || n == 64 || n == 128) k.points = n;
    }
    if (const char* v = std::getenv("VOXWAVE_SHM_PACK")) k.pack = std::max(1, std::atoi(v));
    if (const char* v = std::getenv("VOXWAVE_SHM_SIDE")) k.side = std::max(0, std::atoi(v));
    return k;
}

// shm: a block per (element, side_a x side_b tile of shape pairs), (side_a / RA) (side_b / RB)
// threads. Each batch of points: Jacobian terms (loaded or computed), then the used physical
// derivatives of the tile's side_a + side_b shapes in shared memory (test side scaled by w det), then every thread
// adds its RA x RB block of pairs from registers. The coefficients sit in shared memory for the
// final contraction. All arrays are in dynamic shared memory, sized by shm_shared_bytes.
template <class Pairs, class Real, bool kComputeJacobian, int RA, int RB>
__global__ void __launch_bounds__(shm_max_threads(sizeof(Real), RA, RB)) shm_kernel(Args<Real> a, ShmTiling tl) {
    constexpr int np = Pairs::pairs, ne = Pairs::equations;
    constexpr int ndt = shm_slots<Pairs>(true), nds = shm_slots<Pairs>(false);
    const int side_a = tl.side_a, side_b = tl.side_b, P = tl.points;
    // Packed tiles: thread group g of the block works on tile blockIdx.x * pack + g as if it were
    // a block of its own (lt, tt stand for threadIdx.x, blockDim.x); groups past the last tile
    // redo the last one and store nothing, so that every thread reaches every barrier.
    const int tt = tl.threads(), g = threadIdx.x / tt, lt = threadIdx.x - g * tt;
    const int tiles = tl.per_a * tl.per_b, nx = side_b / RB;
    const long all_tiles = long(a.m) * tiles, gt_raw = long(blockIdx.x) * tl.pack + g;
    const bool live = gt_raw < all_tiles;
    const long gt = live ? gt_raw : all_tiles - 1;
    extern __shared__ __align__(16) unsigned char shm_raw[];
    // Derivative arrays interleaved by register block: [point][shape / RA][slot][shape % RA] (test)
    // and [point][shape / RB][slot][shape % RB] (trial), so a thread's values of one point are
    // contiguous and its loads take immediate offsets from one pointer per side (the [point][slot]
    // [shape] rows cost a dozen integer instructions per point for the addresses: 94 instructions
    // per point for 72 FFMAs in the 4 x 2 loop).
    Real* s_test = reinterpret_cast<Real*>(shm_raw + g * tl.group_bytes);
    Real* s_trial = s_test + P * ndt * side_a;
    Real* s_jf = s_trial + P * nds * side_b;  // [P][10]
    Real* s_cp = s_jf + P * 10;               // [ne ne np]
    Real* s_xv = s_cp + ne * ne * np;         // [24]
    const int e = int(gt / tiles), tile = int(gt % tiles);
    const int a0 = (tile / tl.per_b) * side_a, b0 = (tile % tl.per_b) * side_b;
    const int tx = lt % nx, ty = lt / nx;
    if (kComputeJacobian)
        for (int i = lt; i < a.nv * 3; i += tt) s_xv[i] = a.xv[long(e) * a.nv * 3 + i];
    for (int i = lt; i < ne * ne * np; i += tt) s_cp[i] = a.cp[i];
    Real acc[RA][RB][np];
#pragma unroll
    for (int i = 0; i < RA; ++i)
#pragma unroll
        for (int j = 0; j < RB; ++j)
#pragma unroll
            for (int p = 0; p < np; ++p) acc[i][j][p] = 0;
    // The derivative phase's items per batch: (point, side, shape). A tile on the diagonal
    // (a0 == b0) has the same shapes on both sides: one item per shape writes both arrays, which
    // halves the phase and its reads of the reference tables.
    const bool diagonal = a0 == b0 && side_a == side_b;
    const int row = diagonal ? side_a : side_a + side_b, items = P * row;
    constexpr bool kValue = shm_uses<Pairs>(true, 0) || shm_uses<Pairs>(false, 0);
    // kBatch items per trip: their reference-table loads are issued together, so the phase waits
    // for the memory once per kBatch items instead of once per item. Only FP32 blocks of 4 x 2
    // and up: 2 x 2 (the FP64 default) would grow from 127 to 154 registers in FP64 and lose a
    // block per multiprocessor; 4 x 2 spills with 8 under its 128-register bound.
    constexpr int kBatch = sizeof(Real) != 4 ? 1 : (RA * RB >= 16 ? 8 : (RA * RB >= 8 ? 4 : 1));
    __syncthreads();
    for (int q0 = 0; q0 < a.nq; q0 += P) {
        const int qn = min(P, a.nq - q0);
        for (int qc = lt; qc < qn; qc += tt) {
            const int q = q0 + qc;
            if (kComputeJacobian)
                jacobian_terms(s_xv, a.geo + long(q) * 4 * a.nv, a.nv, a.w[q], s_jf + qc * 10);
            else
                load_jacobian(a, e, q, s_jf + qc * 10);
        }
        __syncthreads();
        // (point, side, shape) of item idx without integer division (side is a run-time value):
        // the running remainder advances by the group's thread count and carries into the point
        // index.
        int qd = 0, rem = lt;
        while (rem >= row) rem -= row, ++qd;
        for (int idx0 = lt; idx0 < items; idx0 += kBatch * tt) {
            int iq[kBatch], is[kBatch];
            bool isd[kBatch];
            Real ref[kBatch][4];
#pragma unroll
            for (int k = 0; k < kBatch; ++k) {
                iq[k] = qd;
                isd[k] = rem >= side_a;
                is[k] = rem - isd[k] * side_a;
                const int shape = (isd[k] ? b0 : a0) + is[k];
                const bool ok = idx0 + k * tt < items && qd < qn && shape < a.nsh;
                const Real* ph = a.phi + (ok ? long(q0 + qd) * 4 * a.nsh + shape : 0);
#pragma unroll
                for (int d = 0; d < 4; ++d) ref[k][d] = ok && (d > 0 || kValue) ? ph[d * a.nsh] : Real(0);
                rem += tt;
                while (rem >= row) rem -= row, ++qd;
            }
#pragma unroll
            for (int k = 0; k < kBatch; ++k) {
                if (idx0 + k * tt >= items) break;
                const int q = iq[k], sl = is[k];
                Real g[4];
                physical_derivatives<Real, kValue>(ref[k], 1, 0, s_jf + q * 10, g);
                if (isd[k] || diagonal) {
#pragma unroll
                    for (int d = 0; d < 4; ++d)
                        if (shm_uses<Pairs>(false, d))
                            s_trial[((q * (side_b / RB) + sl / RB) * nds + shm_slot<Pairs>(false, d)) * RB + sl % RB] =
                                g[d];
                }
                if (!isd[k]) {
                    const Real wdet = s_jf[q * 10 + 9];
#pragma unroll
                    for (int d = 0; d < 4; ++d)
                        if (shm_uses<Pairs>(true, d))
                            s_test[((q * (side_a / RA) + sl / RA) * ndt + shm_slot<Pairs>(true, d)) * RA + sl % RA] =
                                g[d] * wdet;
                }
            }
        }
        __syncthreads();
        // Each used derivative of the thread's RA test and RB trial shapes is loaded once per
        // point, then every pair product runs from registers.
        const Real* test_col = s_test + ty * ndt * RA;
        const Real* trial_col = s_trial + tx * nds * RB;
        const int test_step = side_a * ndt, trial_step = side_b * nds;
        constexpr int kUnroll = RA * RB >= 8 ? 1 : 2;  // large blocks have ILP enough, and no registers to spare
#pragma unroll kUnroll
        for (int qc = 0; qc < qn; ++qc, test_col += test_step, trial_col += trial_step) {
            Real va[4][RA], vb[4][RB];
#pragma unroll
            for (int d = 0; d < 4; ++d) {
                if (shm_uses<Pairs>(true, d)) load_shapes<Real, RA>(test_col + shm_slot<Pairs>(true, d) * RA, va[d]);
                if (shm_uses<Pairs>(false, d)) load_shapes<Real, RB>(trial_col + shm_slot<Pairs>(false, d) * RB, vb[d]);
            }
#pragma unroll
            for (int p = 0; p < np; ++p)
#pragma unroll
                for (int i = 0; i < RA; ++i)
#pragma unroll
                    for (int j = 0; j < RB; ++j) acc[i][j][p] += va[Pairs::test_d(p)][i] * vb[Pairs::trial_d(p)][j];
        }
        __syncthreads();
    }
    const long n = long(ne) * a.nsh;
    Real* ke = a.k + long(e) * n * n;
#pragma unroll
    for (int i = 0; i < RA; ++i)
#pragma unroll
        for (int j = 0; j < RB; ++j) {
            const int ia = a0 + RA * ty + i, ib = b0 + RB * tx + j;
            if (live && ia < a.nsh && ib < a.nsh) store_block<Pairs>(acc[i][j], s_cp, a.nsh, ia, ib, ke);
        }
}

// Row r of the map from reference to physical derivatives at one point: tr[0] = (r == 0) (the
// function itself), tr[1 + k] = d xi_r / d x_k for r = 1..3 (0 for r = 0). Selected with
// compile-time d so nothing lands in local memory. Both sum-factorisation kernels use it.
template <class Real>
__device__ __forceinline__ void reference_row(const Real* jf, int r, Real* tr) {
#pragma unroll
    for (int d = 0; d < 4; ++d)
        tr[d] = d == 0 ? Real(r == 0) : (r == 0 ? Real(0) : (r == 1 ? jf[d - 1] : (r == 2 ? jf[d + 2] : jf[d + 5])));
}

// G = w det J sum_p C_p tr_r[test_d(p)] tr_s[trial_d(p)] for one equation block's coefficients cp.
template <class Pairs, class Real>
__device__ __forceinline__ Real pair_weight(const Real* cp, const Real* jf, const Real* tr_r, const Real* tr_s) {
    Real v = 0;
#pragma unroll
    for (int p = 0; p < Pairs::pairs; ++p) v += cp[p] * tr_r[Pairs::test_d(p)] * tr_s[Pairs::trial_d(p)];
    return jf[9] * v;
}

constexpr int kSumfactMaxPoints = 12;  // points per direction the register arrays hold (p <= 8)
constexpr int kSumfactThreads = 256;

// Sum factorisation: a block per element. For each equation block (ie, je) (only je >= ie for
// symmetric problems: the mirror block is its transpose) and each z pattern, the reference-
// derivative pairs (r, s) with that pattern go through stages 1 (x) and 2 (y), their results
// add up, and stage 3 (z) runs once. Tables, Q and the stage arrays live in shared memory; each
// thread keeps one line of a stage's outputs in registers.
template <class Pairs, class Real>
__global__ void __launch_bounds__(kSumfactThreads) sumfact_kernel(Args<Real> a, SumfactArgs<Real> f, bool symmetric) {
    extern __shared__ __align__(16) unsigned char smem[];
    constexpr int ne = Pairs::equations, np = Pairs::pairs, kN = kSumfactMaxPoints;
    const int n = f.n, pp = f.pp, nsh = a.nsh, npre = f.npre, tid = threadIdx.x;
    Real* sq = reinterpret_cast<Real*>(smem);
    Real* t1 = sq + a.nq;
    Real* t2 = t1 + pp * pp * n * n;
    Real* sn = t2 + npre * npre * n;  // N_i(x_q) [q * pp + i]
    Real* sdn = sn + n * pp;          // N_i'(x_q)
    int* spre = reinterpret_cast<int*>(sdn + n * pp);
    int* spof = spre + 2 * npre;
    int* skid = spof + nsh;
    for (int i = tid; i < n * pp; i += blockDim.x) sn[i] = f.n1d[i], sdn[i] = f.dn1d[i];
    for (int i = tid; i < 2 * npre; i += blockDim.x) spre[i] = f.prefix[i];
    for (int i = tid; i < nsh; i += blockDim.x) spof[i] = f.prefix_of[i], skid[i] = f.kidx[i];
    const int e = blockIdx.x;
    const long nn = long(ne) * nsh;
    Real* ke = a.k + long(e) * nn * nn;
    for (int ie = 0; ie < ne; ++ie)
        for (int je = symmetric ? ie : 0; je < ne; ++je) {
            const bool mirror = symmetric && je != ie;
            bool first = true;
            for (int zp = 0; zp < 4; ++zp) {
                const bool zt = zp & 2, zs = zp & 1;
                bool any = false;
                for (int i = tid; i < npre * npre * n; i += blockDim.x) t2[i] = 0;
                for (int rs = 0; rs < 16; ++rs) {
                    const int r = rs / 4, s = rs % 4;
                    if (!((f.active_rs >> rs) & 1u) || (r == 3) != zt || (s == 3) != zs) continue;
                    any = true;
                    for (int q = tid; q < a.nq; q += blockDim.x) {
                        Real jf[10];
                        load_jacobian(a, e, q, jf);
                        Real tr_r[4], tr_s[4];
                        reference_row(jf, r, tr_r);
                        reference_row(jf, s, tr_s);
                        sq[q] = pair_weight<Pairs>(a.cp + (ie * ne + je) * np, jf, tr_r, tr_s);
                    }
                    __syncthreads();
                    const Real* x0 = r == 1 ? sdn : sn;
                    const Real* y0 = s == 1 ? sdn : sn;
                    for (int g = tid; g < pp * pp * n; g += blockDim.x) {  // stage 1: a line over q2
                        const int q3 = g % n, i2 = (g / n) % pp, i1 = g / (n * pp);
                        Real acc[kN];
#pragma unroll
                        for (int i = 0; i < kN; ++i) acc[i] = 0;
                        for (int q1 = 0; q1 < n; ++q1) {
                            const Real xy = x0[q1 * pp + i1] * y0[q1 * pp + i2];
                            const Real* src = sq + q3 * n * n + q1;
#pragma unroll
                            for (int q2 = 0; q2 < kN; ++q2)
                                if (q2 < n) acc[q2] += xy * src[q2 * n];
                        }
                        Real* dst = t1 + ((i1 * pp + i2) * n + q3) * n;
#pragma unroll
                        for (int q2 = 0; q2 < kN; ++q2)
                            if (q2 < n) dst[q2] = acc[q2];
                    }
                    __syncthreads();
                    const Real* x1 = r == 2 ? sdn : sn;
                    const Real* y1 = s == 2 ? sdn : sn;
                    for (int g = tid; g < npre * npre; g += blockDim.x) {  // stage 2: a line over q3
                        const int pa = g / npre, pb = g % npre;
                        const int i1 = spre[2 * pa], j1 = spre[2 * pa + 1], i2 = spre[2 * pb], j2 = spre[2 * pb + 1];
                        const Real* src = t1 + (i1 * pp + i2) * n * n;
                        Real acc[kN];
#pragma unroll
                        for (int i = 0; i < kN; ++i) acc[i] = 0;
                        for (int q2 = 0; q2 < n; ++q2) {
                            const Real xy = x1[q2 * pp + j1] * y1[q2 * pp + j2];
#pragma unroll
                            for (int q3 = 0; q3 < kN; ++q3)
                                if (q3 < n) acc[q3] += xy * src[q3 * n + q2];
                        }
#pragma unroll
                        for (int q3 = 0; q3 < kN; ++q3)
                            if (q3 < n) t2[g * n + q3] += acc[q3];
                    }
                    __syncthreads();
                }
                if (!any) continue;
                const Real* x2 = zt ? sdn : sn;
                const Real* y2 = zs ? sdn : sn;
                for (int idx = tid; idx < nsh * nsh; idx += blockDim.x) {  // stage 3
                    const int ia = idx / nsh, ib = idx % nsh, ka = skid[ia], kb = skid[ib];
                    const Real* src = t2 + (spof[ia] * npre + spof[ib]) * n;
                    Real acc = 0;
                    for (int q3 = 0; q3 < n; ++q3) acc += x2[q3 * pp + ka] * y2[q3 * pp + kb] * src[q3];
                    Real& out = ke[(long(ia) * ne + ie) * nn + long(ib) * ne + je];
                    out = first ? acc : out + acc;
                    if (mirror) ke[(long(ib) * ne + je) * nn + long(ia) * ne + ie] = out;
                }
                first = false;
                __syncthreads();
            }
        }
}

// Equation block number c -> (ie, je): je >= ie for symmetric problems (the mirror block is the
// transpose), every pair otherwise.
template <class Pairs>
__device__ __forceinline__ void sf_combo(int c, bool symmetric, int& ie, int& je) {
    constexpr int ne = Pairs::equations;
    if (!symmetric) {
        ie = c / ne;
        je = c % ne;
        return;
    }
    ie = 0;
    int left = c;
    while (left >= ne - ie) {
        left -= ne - ie;
        ++ie;
    }
    je = ie + left;
}

// ---------------------------------------------------------------------------------------------
// Sum factorisation, second design ("sumfact" for elasticity on hexahedra, p = 1..8): compiled
// per (points per direction N, 1D functions PP), so every contraction is fully unrolled and the
// 1D tables sit in constant memory, read as FFMA operands at compile-time offsets (the first
// design spent a shared-memory load on every table entry). One block per element sweeps groups of
// CG equation blocks c = (ie, je) together (one Jacobian load serves all of them), and the
// element matrix accumulates in shared memory over the four z patterns when it fits (no global
// read-modify-write). Stages per reference-derivative pair (r, s):
//   G_c(q)                    = w det J sum_p C_c,p (J^-1)_{r,test_d(p)} (J^-1)_{s,trial_d(p)}
//   T1_c[i1][i2][q2][q3]      = sum_q1 X_r(q1, i1) X_s(q1, i2) G_c(q1, q2, q3)       (x)
//   T2_c[pa][q3][pb]         += sum_q2 Y_r(q2, j1) Y_s(q2, j2) T1_c[i1][i2][q2][q3]  (y), pa = (i1, j1)
// and once per z pattern (which of r, s is 3):
//   K_c[a][b]                += sum_q3 Z(q3, a3) Z(q3, b3) T2_c[pre(a)][q3][pre(b)]  (z)
constexpr int kSfTab = 16 * 16;        // [q * PP + i]: up to p = 10 (14 points, 11 functions)
__constant__ float c_sf_f[2][kSfTab];  // [0] N_i(x_q), [1] N_i'(x_q), [q * PP + i]
__constant__ double c_sf_d[2][kSfTab];

template <class Real, bool D>
__device__ __forceinline__ Real sf_tab(int idx) {
    if constexpr (sizeof(Real) == 4)
        return c_sf_f[D ? 1 : 0][idx];
    else
        return c_sf_d[D ? 1 : 0][idx];
}

struct SfIndex {
    const int* __restrict__ prefix = nullptr;     // [pa * 2 + {0, 1}]: (x mode, y mode)
    const int* __restrict__ prefix_of = nullptr;  // [a]
    const int* __restrict__ kidx = nullptr;       // [a]: z mode
    const int* __restrict__ pidx = nullptr;       // [i * PP + j]: prefix (i, j) or -1
    const int* __restrict__ shape_of = nullptr;   // [pb * PP + k]: shape with prefix pb and z mode k, or -1
    int npre = 0, cg = 1;
    bool k_in_shared = true;
    unsigned active_rs = 0;
};

// The x contraction of one line of weights g[q1] (points (q1, q2, q3)) into T1[i1][i2] at out
// (stride N^2 between (i1, i2)): sum over q1 of X_r(q1, i1) X_s(q1, i2) g[q1]. All designs use it.
template <int N, int PP, bool DX, bool DY, class Real>
__device__ __forceinline__ void sf_contract_x(const Real (&g)[N], Real* out) {
#pragma unroll
    for (int i1 = 0; i1 < PP; ++i1) {
        Real gx[N];
#pragma unroll
        for (int q1 = 0; q1 < N; ++q1) gx[q1] = g[q1] * sf_tab<Real, DX>(q1 * PP + i1);
#pragma unroll
        for (int i2 = 0; i2 < PP; ++i2) {
            Real acc = 0;
#pragma unroll
            for (int q1 = 0; q1 < N; ++q1) acc += gx[q1] * sf_tab<Real, DY>(q1 * PP + i2);
            out[(i1 * PP + i2) * N * N] = acc;
        }
    }
}

// x stage: items (cl, q3, q2); T1 stored [cl][i1][i2][q2][q3] so the y stage's reads run along q3.
template <int N, int PP, bool DX, bool DY, class Real>
__device__ __forceinline__ void sf_stage_x(int ncg, int nq, const Real* sG, Real* t1) {
    for (int item = threadIdx.x; item < ncg * N * N; item += blockDim.x) {
        const int cl = item / (N * N), q2 = (item / N) % N, q3 = item % N;
        const Real* g = sG + cl * nq + (q3 * N + q2) * N;
        Real gv[N];
#pragma unroll
        for (int q1 = 0; q1 < N; ++q1) gv[q1] = g[q1];
        sf_contract_x<N, PP, DX, DY>(gv, t1 + long(cl) * PP * PP * N * N + q2 * N + q3);
    }
}

// y stage: items (cl, pa, i2, q3); all PP trial y modes j2, kept where (i2, j2) is a prefix.
template <int N, int PP, bool DY, class Real>
__device__ __forceinline__ void sf_stage_y(int ncg, const SfIndex& ix, const Real* xr, const Real* t1, Real* t2) {
    const int npre = ix.npre;
    for (int item = threadIdx.x; item < ncg * npre * PP * N; item += blockDim.x) {
        const int q3 = item % N, i2 = (item / N) % PP, pa = (item / (N * PP)) % npre, cl = item / (N * PP * npre);
        const int i1 = ix.prefix[2 * pa], j1 = ix.prefix[2 * pa + 1];
        const Real* src = t1 + long(cl) * PP * PP * N * N + (i1 * PP + i2) * N * N + q3;
        Real h[N];
#pragma unroll
        for (int q2 = 0; q2 < N; ++q2) h[q2] = src[q2 * N] * xr[q2 * PP + j1];
        Real* dst = t2 + (long(cl) * npre + pa) * N * npre + q3 * npre;
#pragma unroll
        for (int j2 = 0; j2 < PP; ++j2) {
            const int pb = ix.pidx[i2 * PP + j2];
            if (pb < 0) continue;
            Real acc = 0;
#pragma unroll
            for (int q2 = 0; q2 < N; ++q2) acc += h[q2] * sf_tab<Real, DY>(q2 * PP + j2);
            dst[pb] += acc;
        }
    }
}

// z stage: items (cl, a, pb); all PP trial z modes k, kept where shape (pb, k) exists.
template <int N, int PP, bool DZ, class Pairs, class Real>
__device__ __forceinline__ void sf_stage_z(int ncg, int c0, int nsh, const SfIndex& ix, const Real* zr, const Real* t2,
                                           Real* sK, Real* ke, bool first, bool last, bool symmetric) {
    constexpr int ne = Pairs::equations;
    const int npre = ix.npre;
    const long nn = long(ne) * nsh;
    for (int item = threadIdx.x; item < ncg * nsh * npre; item += blockDim.x) {
        const int pb = item % npre, a = (item / npre) % nsh, cl = item / (npre * nsh);
        const int pa = ix.prefix_of[a], a3 = ix.kidx[a];
        const Real* src = t2 + (long(cl) * npre + pa) * N * npre + pb;
        Real h[N];
#pragma unroll
        for (int q3 = 0; q3 < N; ++q3) h[q3] = src[q3 * npre] * zr[q3 * PP + a3];
        int ie = 0, je = 0;
        sf_combo<Pairs>(c0 + cl, symmetric, ie, je);
#pragma unroll
        for (int k = 0; k < PP; ++k) {
            const int b = ix.shape_of[pb * PP + k];
            if (b < 0) continue;
            Real acc = 0;
#pragma unroll
            for (int q3 = 0; q3 < N; ++q3) acc += h[q3] * sf_tab<Real, DZ>(q3 * PP + k);
            if (ix.k_in_shared) {
                sK[(long(cl) * nsh + a) * nsh + b] += acc;
            } else {
                Real& out = ke[(long(a) * ne + ie) * nn + long(b) * ne + je];
                out = first ? acc : out + acc;
                // The mirror entry once, after the last z pattern (not a write per pattern).
                if (last && symmetric && ie != je) ke[(long(b) * ne + je) * nn + long(a) * ne + ie] = out;
            }
        }
    }
}

// Threads per block: 512 for the FP32 orders that fit one block per multiprocessor (p >= 6), so
// 16 warps hide the latencies; FP64 keeps 256 (its unrolled stages need more than 128 registers).
// Measured (H100, µs per element, 512 against 256 threads; integration-h100.md): p = 5 1.98 against 2.07-2.10,
// p = 6 4.28 against 4.37; p = 4 0.683 against 0.652 and p = 3 0.277 against 0.229 stay at 256.
constexpr int sf_threads(std::size_t real, int pp) { return real == 4 && pp >= 6 ? 512 : 256; }
// The kernels' bound: every FP32 kernel may run 512 threads (VOXWAVE_SUMFACT_THREADS=256|512 for
// benchmark sweeps).
constexpr int sf_max_threads(std::size_t real) { return real == 4 ? 512 : 256; }

template <int N, int PP, class Pairs, class Real>
__global__ void __launch_bounds__(sf_max_threads(sizeof(Real)))
    sumfact_unrolled_kernel(Args<Real> a, SfIndex ix, bool symmetric) {
    extern __shared__ __align__(16) unsigned char smem[];
    constexpr int ne = Pairs::equations, np = Pairs::pairs;
    const int nq = a.nq, nsh = a.nsh, npre = ix.npre, CG = ix.cg, tid = threadIdx.x;
    const int combos = symmetric ? ne * (ne + 1) / 2 : ne * ne;
    Real* sG = reinterpret_cast<Real*>(smem);
    Real* t1 = sG + CG * nq;
    Real* t2 = t1 + CG * PP * PP * N * N;
    Real* sN = t2 + CG * npre * npre * N;  // runtime-indexed copies of the 1D tables
    Real* sdN = sN + N * PP;
    Real* sK = sdN + N * PP;  // CG nsh^2 when ix.k_in_shared
    for (int i = tid; i < N * PP; i += blockDim.x) sN[i] = sf_tab<Real, false>(i), sdN[i] = sf_tab<Real, true>(i);
    const int e = blockIdx.x;
    const long nn = long(ne) * nsh;
    Real* ke = a.k + long(e) * nn * nn;
    int last_zp = -1;  // the last z pattern with an active reference-derivative pair
    for (int rs = 0; rs < 16; ++rs)
        if ((ix.active_rs >> rs) & 1u) last_zp = max(last_zp, 2 * (rs / 4 == 3) + (rs % 4 == 3));
    for (int c0 = 0; c0 < combos; c0 += CG) {
        const int ncg = min(CG, combos - c0);
        if (ix.k_in_shared)
            for (int i = tid; i < ncg * nsh * nsh; i += blockDim.x) sK[i] = 0;
        bool first = true;
        for (int zp = 0; zp < 4; ++zp) {
            const bool zt = zp & 2, zs = zp & 1;
            bool any = false;
            __syncthreads();
            for (int i = tid; i < ncg * npre * npre * N; i += blockDim.x) t2[i] = 0;
            for (int rs = 0; rs < 16; ++rs) {
                const int r = rs / 4, s = rs % 4;
                if (!((ix.active_rs >> rs) & 1u) || (r == 3) != zt || (s == 3) != zs) continue;
                any = true;
                for (int q = tid; q < nq; q += blockDim.x) {
                    Real jf[10];
                    load_jacobian(a, e, q, jf);
                    Real tr_r[4], tr_s[4];
                    reference_row(jf, r, tr_r);
                    reference_row(jf, s, tr_s);
                    for (int cl = 0; cl < ncg; ++cl) {
                        int ie = 0, je = 0;
                        sf_combo<Pairs>(c0 + cl, symmetric, ie, je);
                        sG[cl * nq + q] = pair_weight<Pairs>(a.cp + (ie * ne + je) * np, jf, tr_r, tr_s);
                    }
                }
                __syncthreads();
                if (r == 1) {
                    if (s == 1)
                        sf_stage_x<N, PP, true, true>(ncg, nq, sG, t1);
                    else
                        sf_stage_x<N, PP, true, false>(ncg, nq, sG, t1);
                } else {
                    if (s == 1)
                        sf_stage_x<N, PP, false, true>(ncg, nq, sG, t1);
                    else
                        sf_stage_x<N, PP, false, false>(ncg, nq, sG, t1);
                }
                __syncthreads();
                const Real* xr = r == 2 ? sdN : sN;
                if (s == 2)
                    sf_stage_y<N, PP, true>(ncg, ix, xr, t1, t2);
                else
                    sf_stage_y<N, PP, false>(ncg, ix, xr, t1, t2);
                __syncthreads();
            }
            if (!any) continue;
            const Real* zr = zt ? sdN : sN;
            if (zs)
                sf_stage_z<N, PP, true, Pairs>(ncg, c0, nsh, ix, zr, t2, sK, ke, first, zp == last_zp, symmetric);
            else
                sf_stage_z<N, PP, false, Pairs>(ncg, c0, nsh, ix, zr, t2, sK, ke, first, zp == last_zp, symmetric);
            first = false;
        }
        __syncthreads();
        if (ix.k_in_shared)
            for (int i = tid; i < ncg * nsh * nsh; i += blockDim.x) {
                const int cl = i / (nsh * nsh), aa = (i / nsh) % nsh, b = i % nsh;
                int ie = 0, je = 0;
                sf_combo<Pairs>(c0 + cl, symmetric, ie, je);
                const Real v = sK[i];
                ke[(long(aa) * ne + ie) * nn + long(b) * ne + je] = v;
                if (symmetric && ie != je) ke[(long(b) * ne + je) * nn + long(aa) * ne + ie] = v;
            }
    }
}

// The unrolled sum-factorisation designs for elasticity on hexahedra: block (a block per element,
// stages in shared memory), pair (a thread per prefix pair, nine T1 in shared memory) and stream
// (one T1 at a time, T2 in a global scratch).
enum class SumfactDesign { Block, Pair, Stream };

// How the unrolled kernel is laid out for one order: the design, and for the block design the
// equation blocks per pass (cg; 0: it does not fit) and where K lives.
struct SumfactPlan {
    SumfactDesign design = SumfactDesign::Block;
    int cg = 1, threads = 256;
    bool k_in_shared = true;
    int stream_blocks = 0;  // the stream design's persistent thread blocks
    std::size_t smem = 0;
};

inline std::size_t sumfact_unrolled_bytes(const ReferenceTables& t, std::size_t real, int cg, bool k_in_shared) {
    const std::size_t n = std::size_t(t.points_1d), pp = std::size_t(t.order + 1), npre = t.prefixes.size(),
                      nsh = std::size_t(t.nsh);
    const std::size_t per_c = std::size_t(t.nq) + pp * pp * n * n + npre * npre * n + (k_in_shared ? nsh * nsh : 0);
    return (cg * per_c + 2 * n * pp) * real;
}

// The most equation blocks per pass that fit the device's shared memory with K in shared memory,
// else K accumulated in global memory; cg = 0: the unrolled kernel does not fit at all.
// VOXWAVE_SUMFACT_CG=n (benchmark sweeps) asks for n equation blocks per pass where n divides the
// blocks and fits; otherwise the default choice stands.
inline SumfactPlan plan_sumfact(const ReferenceTables& t, std::size_t real, int combos, std::size_t smem_limit) {
    SumfactPlan plan;
    // Measured best on the H100 for elasticity (6 equation blocks; integration-h100.md, µs per
    // element): p = 4 three per pass (0.651 against 0.684 with six), p = 5 and 6 two (p = 6:
    // 4.33 against 4.92 with one; one block of 171 KiB per multiprocessor beat two of 85 KiB).
    // FP32 only, and only with K in shared memory (FP64 keeps the general rule below).
    int forced = combos == 6 && t.order == 4 ? 3 : (combos == 6 && (t.order == 5 || t.order == 6) ? 2 : 0);
    if (real != 4 || (forced && sumfact_unrolled_bytes(t, real, forced, true) > smem_limit)) forced = 0;
    if (const char* v = std::getenv("VOXWAVE_SUMFACT_CG")) forced = std::atoi(v);
    if (forced < 1 || forced > combos || combos % forced != 0 ||
        sumfact_unrolled_bytes(t, real, forced, false) > smem_limit)
        forced = 0;
    for (bool ks : {true, false}) {
        for (int cg = combos; cg >= 1; --cg) {
            if (combos % cg != 0) continue;  // equal passes
            if (forced && cg != forced) continue;
            const std::size_t b = sumfact_unrolled_bytes(t, real, cg, ks);
            // Keep two blocks per multiprocessor where possible: at most half the limit unless
            // even one equation block needs more.
            if (b <= smem_limit / 2 || ((cg == 1 || forced) && b <= smem_limit)) {
                plan.cg = cg;
                plan.k_in_shared = ks;
                plan.smem = b;
                plan.threads = sf_threads(real, t.order + 1);
                if (const char* v = std::getenv("VOXWAVE_SUMFACT_THREADS"))
                    plan.threads = std::atoi(v) == 512 && sf_max_threads(real) == 512 ? 512 : 256;
                return plan;
            }
        }
    }
    plan.cg = 0;
    return plan;
}

// The (points per direction N, 1D functions PP) of eq. 7 for the orders PMin..PMax: calls f(N, PP)
// as integral constants where (n, pp) is one of them, and only those are compiled.
template <int PMin, int PMax, class F>
bool with_eq7_shape(int n, int pp, F&& f) {
    bool found = false;
    const auto one = [&](auto N, auto PP) {
        constexpr int p = decltype(PP)::value - 1;
        if constexpr (p >= PMin && p <= PMax)
            if (n == decltype(N)::value && pp == decltype(PP)::value) {
                f(N, PP);
                found = true;
            }
    };
    using std::integral_constant;
    one(integral_constant<int, 2>{}, integral_constant<int, 2>{});
    one(integral_constant<int, 3>{}, integral_constant<int, 3>{});
    one(integral_constant<int, 4>{}, integral_constant<int, 4>{});
    one(integral_constant<int, 5>{}, integral_constant<int, 5>{});
    one(integral_constant<int, 7>{}, integral_constant<int, 6>{});
    one(integral_constant<int, 8>{}, integral_constant<int, 7>{});
    one(integral_constant<int, 10>{}, integral_constant<int, 8>{});
    one(integral_constant<int, 11>{}, integral_constant<int, 9>{});
    one(integral_constant<int, 13>{}, integral_constant<int, 10>{});
    one(integral_constant<int, 14>{}, integral_constant<int, 11>{});
    return found;
}

// The block design is compiled for p = 1..8.
template <class F>
bool with_unrolled_shape(int n, int pp, F&& f) {
    return with_eq7_shape<1, 8>(n, pp, f);
}

// Calls f(kernel) with the unrolled kernel compiled for (n, pp).
template <class Pairs, class Real, class F>
void with_unrolled_kernel(int n, int pp, F&& f) {
    const bool known = with_unrolled_shape(n, pp, [&](auto N, auto PP) {
        f(sumfact_unrolled_kernel<decltype(N)::value, decltype(PP)::value, Pairs, Real>);
    });
    if (!known)
        throw RuntimeError("sumfact: no unrolled kernel for " + std::to_string(n) + " points and " +
                           std::to_string(pp) + " 1D functions");
}

// Once per run, before the timed launches: the kernel's shared-memory allowance.
template <class Pairs, class Real>
void enable_sumfact_unrolled_smem(int n, int pp, const SumfactPlan& plan) {
    with_unrolled_kernel<Pairs, Real>(n, pp, [&](auto kernel) {
        VOXWAVE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(plan.smem)));
    });
}

template <class Pairs, class Real>
void launch_sumfact_unrolled(int n, int pp, int m, const Args<Real>& a, const SfIndex& ix, const SumfactPlan& plan,
                             bool symmetric) {
    with_unrolled_kernel<Pairs, Real>(n, pp,
                                      [&](auto kernel) { kernel<<<m, plan.threads, plan.smem>>>(a, ix, symmetric); });
    VOXWAVE_CUDA_CHECK_LAUNCH("sumfact_unrolled_kernel");
}

inline bool sumfact_unrolled_available(const ReferenceTables& t) {
    return with_unrolled_shape(t.points_1d, t.order + 1, [](auto, auto) {});
}

// ---------------------------------------------------------------------------------------------
// Sum factorisation, third design ("pair", elasticity on hexahedra, p = 3..6): a thread block per
// element, its six equation blocks in turn. The x stage runs for all nine reference-derivative pairs (r, s) at
// once, a warp per (r, s), into shared memory. Then each thread owns one (test prefix pa, trial
// prefix pb) and finishes in registers: the y contraction of the nine T1_rs into the four z
// patterns of T2[pa][pb][q3], and the z contraction into every K entry whose shapes have these
// prefixes, each written once to global memory. The block design keeps T2 and K in shared memory
// and, at p <= 4, spends most of its time at barriers between small stages (p = 4: about 70
// __syncthreads per element and 75 of 256 threads busy in its x stage); this one has one barrier
// after the x stage, and no shared-memory read-modify-write.
constexpr int kSfPairBlocks = 6;     // symmetric elasticity: equation blocks ie <= je
constexpr int kSfPairThreads = 160;  // 5 warps: 9 x stages in two rounds; p = 4: 289 pairs in two

// Shared bytes of the pair design: Jacobian terms, the nine T1, the 1D tables and prefix tables.
inline std::size_t sumfact_pair_bytes(const ReferenceTables& t, std::size_t real) {
    const std::size_t n = std::size_t(t.points_1d), pp = std::size_t(t.order + 1), npre = t.prefixes.size(),
                      nsh = std::size_t(t.nsh);
    const std::size_t reals = 10 * n * n * n + 9 * pp * pp * n * n + 2 * n * pp + nsh * nsh;
    return reals * real + (2 * npre + npre * pp) * sizeof(int);
}

// x stage of one (r, s) for item (q2, q3), shared by the pair and stream designs: G_rs at the N
// points along x, formed from the Jacobian terms (term i of point q at jt[q * q_stride + i *
// t_stride]: rows r and s of J^-T, then w det J at i = 9), contracted with the 1D tables into
// T1[i1][i2][q2][q3].
template <int N, int PP, bool DX, bool DY, class Real>
__device__ __forceinline__ void sf_x_stage_rs(int item, const Real* jt, long q_stride, long t_stride, int r, int s,
                                              const Real* c, Real* t1) {
    const int q2 = item / N, q3 = item % N, q0 = (q3 * N + q2) * N;
    Real g[N];
#pragma unroll
    for (int q1 = 0; q1 < N; ++q1) {
        const Real* jq = jt + (q0 + q1) * q_stride;
        const Real* jr = jq + 3 * (r - 1) * t_stride;
        const Real* js = jq + 3 * (s - 1) * t_stride;
        const Real s0 = js[0], s1 = js[t_stride], s2 = js[2 * t_stride];
        Real v = 0;
#pragma unroll
        for (int k = 0; k < 3; ++k) v += jr[k * t_stride] * (c[3 * k] * s0 + c[3 * k + 1] * s1 + c[3 * k + 2] * s2);
        g[q1] = jq[9 * t_stride] * v;
    }
    sf_contract_x<N, PP, DX, DY>(g, t1 + q2 * N + q3);
}

// Calls the x stage compiled for (r is x, s is x).
template <int N, int PP, class Real>
__device__ __forceinline__ void sf_x_stage(int item, const Real* jt, long q_stride, long t_stride, int r, int s,
                                           const Real* c, Real* t1) {
    if (r == 1) {
        if (s == 1)
            sf_x_stage_rs<N, PP, true, true>(item, jt, q_stride, t_stride, r, s, c, t1);
        else
            sf_x_stage_rs<N, PP, true, false>(item, jt, q_stride, t_stride, r, s, c, t1);
    } else {
        if (s == 1)
            sf_x_stage_rs<N, PP, false, true>(item, jt, q_stride, t_stride, r, s, c, t1);
        else
            sf_x_stage_rs<N, PP, false, false>(item, jt, q_stride, t_stride, r, s, c, t1);
    }
}

// Shared by the pair and stream designs: the runtime-indexed copies of the 1D tables and the
// prefix tables in shared memory, and equation block b's (ie, je) and coefficients.
template <int N, int PP, class Real>
__device__ __forceinline__ void sf_copy_tables(const SfIndex& ix, Real* sN, Real* sdN, int* spi, int* spj,
                                               int* sshape) {
    for (int i = threadIdx.x; i < N * PP; i += blockDim.x)
        sN[i] = sf_tab<Real, false>(i), sdN[i] = sf_tab<Real, true>(i);
    for (int i = threadIdx.x; i < ix.npre; i += blockDim.x) spi[i] = ix.prefix[2 * i], spj[i] = ix.prefix[2 * i + 1];
    for (int i = threadIdx.x; i < ix.npre * PP; i += blockDim.x) sshape[i] = ix.shape_of[i];
}
template <class Real>
__device__ __forceinline__ void sf_block_coefficients(const Args<Real>& a, int b, int& ie, int& je, Real* c) {
    using Pairs = ProblemPairs<Problem::Elasticity>;
    sf_combo<Pairs>(b, true, ie, je);
#pragma unroll
    for (int p = 0; p < Pairs::pairs; ++p) c[p] = a.cp[(ie * Pairs::equations + je) * Pairs::pairs + p];
}

// The z contraction of one (test prefix, trial prefix) pair for test z mode k1 (pair and stream
// designs): v[k2] = sum over the patterns (zt, zs) and q3 of Z_zt(q3, k1) Z_zs(q3, k2) T2[zt][zs][q3],
// with zk[zt][q3] = Z_zt(q3, k1) (Z_0 the values, Z_1 the derivatives) and t2[2 zt + zs][q3].
template <int N, int PP, class Real>
__device__ __forceinline__ void sf_z_row(const Real (&t2)[4][N], const Real (&zk)[2][N], Real (&v)[PP]) {
    Real x[2][N];  // x[zs][q3] = sum over zt of Z_zt(q3, k1) T2[zt][zs][q3]
#pragma unroll
    for (int zs = 0; zs < 2; ++zs)
#pragma unroll
        for (int q3 = 0; q3 < N; ++q3) x[zs][q3] = zk[0][q3] * t2[zs][q3] + zk[1][q3] * t2[2 + zs][q3];
#pragma unroll
    for (int k2 = 0; k2 < PP; ++k2) {
        v[k2] = 0;
#pragma unroll
        for (int q3 = 0; q3 < N; ++q3)
            v[k2] += sf_tab<Real, false>(q3 * PP + k2) * x[0][q3] + sf_tab<Real, true>(q3 * PP + k2) * x[1][q3];
    }
}

template <int N, int PP, class Real>
__global__ void __launch_bounds__(kSfPairThreads) sumfact_pair_kernel(Args<Real> a, SfIndex ix) {
    using Pairs = ProblemPairs<Problem::Elasticity>;
    constexpr int NQ = N * N * N, T1 = PP * PP * N * N, np = Pairs::pairs;
    extern __shared__ __align__(16) unsigned char smem[];
    const int npre = ix.npre, nsh = a.nsh, tid = threadIdx.x;
    const int e = blockIdx.x;
    Real* sJ = reinterpret_cast<Real*>(smem);  // [i][q]: the 10 Jacobian terms of every point
    Real* t1 = sJ + 10 * NQ;                   // [rs][i1][i2][q2][q3]
    Real* sN = t1 + 9 * T1;                    // runtime-indexed copies of the 1D tables
    Real* sdN = sN + N * PP;
    Real* sK = sdN + N * PP;  // [a][b]: one equation block, written out in row order
    int* spi = reinterpret_cast<int*>(sK + nsh * nsh);
    int* spj = spi + npre;
    int* sshape = spj + npre;  // [pa * PP + k]: shape with prefix pa and z mode k, or -1
    for (int i = tid; i < 10 * NQ; i += blockDim.x) sJ[i] = a.jac[(long(i % NQ) * 10 + i / NQ) * a.m + e];
    sf_copy_tables<N, PP>(ix, sN, sdN, spi, spj, sshape);
    // The six equation blocks one after the other: the element's Jacobian terms are loaded once
    // (their layout puts one element's terms in separate 32-byte sectors).
    for (int block = 0; block < kSfPairBlocks; ++block) {
        int ie = 0, je = 0;
        Real c[np];
        sf_block_coefficients(a, block, ie, je, c);
        __syncthreads();  // the tables (first block) or the previous block's pair stage (T1 is rewritten)
        // x stage: a warp per (r, s) (r, s = 1..3: x, y, z derivatives), its lanes over (q2, q3).
        for (int rs = tid >> 5; rs < 9; rs += blockDim.x >> 5) {
            for (int item = tid & 31; item < N * N; item += 32)
                sf_x_stage<N, PP>(item, sJ, 1, NQ, rs / 3 + 1, rs % 3 + 1, c, t1 + rs * T1);
        }
        __syncthreads();
        const long nn = 3L * nsh;
        Real* ke = a.k + long(e) * nn * nn;
        for (int item = tid; item < npre * npre; item += blockDim.x) {
            const int pa = item / npre, pb = item % npre;
            const int i1 = spi[pa], j1 = spj[pa], i2 = spi[pb], j2 = spj[pb];
            // y weights Y_r(q2, j1) Y_s(q2, j2) for (r is y, s is y) = (0, 0), (0, 1), (1, 0), (1, 1).
            Real w[4][N];
#pragma unroll
            for (int q2 = 0; q2 < N; ++q2) {
                const Real a0 = sN[q2 * PP + j1], a1 = sdN[q2 * PP + j1], b0 = sN[q2 * PP + j2], b1 = sdN[q2 * PP + j2];
                w[0][q2] = a0 * b0;
                w[1][q2] = a0 * b1;
                w[2][q2] = a1 * b0;
                w[3][q2] = a1 * b1;
            }
            // y stage: T2 of the four z patterns (r is z, s is z), summed over (r, s) in registers.
            Real t2[4][N];
#pragma unroll
            for (int zp = 0; zp < 4; ++zp)
#pragma unroll
                for (int q3 = 0; q3 < N; ++q3) t2[zp][q3] = 0;
            const Real* src = t1 + (i1 * PP + i2) * N * N;
#pragma unroll
            for (int rs = 0; rs < 9; ++rs) {
                const int r = rs / 3 + 1, s = rs % 3 + 1;
                const int wy = 2 * (r == 2) + (s == 2), zp = 2 * (r == 3) + (s == 3);
                const Real* t = src + rs * T1;
#pragma unroll
                for (int q2 = 0; q2 < N; ++q2)
#pragma unroll
                    for (int q3 = 0; q3 < N; ++q3) t2[zp][q3] += w[wy][q2] * t[q2 * N + q3];
            }
            // z stage: K[(pa, k1)][(pb, k2)] = sum over patterns and q3 of Z_zt(q3, k1) Z_zs(q3, k2) T2.
            int bk[PP];
#pragma unroll
            for (int k2 = 0; k2 < PP; ++k2) bk[k2] = sshape[pb * PP + k2];
#pragma unroll
            for (int k1 = 0; k1 < PP; ++k1) {
                const int sa = sshape[pa * PP + k1];
                if (sa < 0) continue;
                Real zk[2][N], v[PP];
#pragma unroll
                for (int q3 = 0; q3 < N; ++q3)
                    zk[0][q3] = sf_tab<Real, false>(q3 * PP + k1), zk[1][q3] = sf_tab<Real, true>(q3 * PP + k1);
                sf_z_row<N, PP>(t2, zk, v);
#pragma unroll
                for (int k2 = 0; k2 < PP; ++k2)
                    if (bk[k2] >= 0) sK[sa * nsh + bk[k2]] = v[k2];
            }
        }
        // K leaves through shared memory: a thread's entries of one (pa, pb) are scattered over
        // the rows; written in row order, a warp's stores cover 12 sectors instead of about 34.
        __syncthreads();
        for (int i = tid; i < nsh * nsh; i += blockDim.x)
            ke[(long(i / nsh) * 3 + ie) * nn + long(i % nsh) * 3 + je] = sK[i];
        if (ie != je)
            for (int i = tid; i < nsh * nsh; i += blockDim.x) {
                const int b = i / nsh, aa = i % nsh;
                ke[(long(b) * 3 + je) * nn + long(aa) * 3 + ie] = sK[aa * nsh + b];
            }
    }
}

// Calls f(kernel) with the pair design compiled for (n, pp): p = 3..6; false for other orders.
template <class Real, class F>
bool with_pair_kernel(int n, int pp, F&& f) {
    return with_eq7_shape<3, 6>(
        n, pp, [&](auto N, auto PP) { f(sumfact_pair_kernel<decltype(N)::value, decltype(PP)::value, Real>); });
}

// ---------------------------------------------------------------------------------------------
// Sum factorisation, fourth design ("stream", elasticity on hexahedra, p = 6..10): the pair
// design's thread per (test prefix, trial prefix), for the orders whose nine T1 do not fit in
// shared memory. One (r, s) at a time: its x stage fills T1 in shared memory (G_rs formed from the
// Jacobian terms in global memory), then each thread adds its pairs' y contractions into the four
// z patterns of T2, which live in a global scratch area of the thread block: one read-modify-write
// of N values per (r, s) and pair, coalesced across the threads, far below the arithmetic at
// these orders. The blocks are persistent (as many as the device holds at once) and loop over the
// elements, so the scratch is sized by the device, not by the batch. K entries are written once.
constexpr int kSfStreamThreads = 256;

// Shared bytes of the stream design: one T1, the 1D tables and prefix tables.
inline std::size_t sumfact_stream_bytes(const ReferenceTables& t, std::size_t real) {
    const std::size_t n = std::size_t(t.points_1d), pp = std::size_t(t.order + 1), npre = t.prefixes.size();
    return (pp * pp * n * n + 2 * n * pp) * real + (2 * npre + npre * pp) * sizeof(int);
}
inline std::size_t sumfact_stream_scratch(const ReferenceTables& t) {
    const std::size_t npre = t.prefixes.size();
    return npre * npre * 4 * std::size_t(t.points_1d);  // Reals per thread block
}

template <int N, int PP, class Real>
__global__ void __launch_bounds__(kSfStreamThreads)
    sumfact_stream_kernel(Args<Real> a, SfIndex ix, Real* __restrict__ scratch) {
    using Pairs = ProblemPairs<Problem::Elasticity>;
    constexpr int T1 = PP * PP * N * N, np = Pairs::pairs;
    extern __shared__ __align__(16) unsigned char smem[];
    const int npre = ix.npre, nsh = a.nsh, tid = threadIdx.x, npairs = npre * npre;
    Real* t1 = reinterpret_cast<Real*>(smem);  // [i1][i2][q2][q3] of the current (r, s)
    Real* sN = t1 + T1;                        // runtime-indexed copies of the 1D tables
    Real* sdN = sN + N * PP;
    int* spi = reinterpret_cast<int*>(sdN + N * PP);
    int* spj = spi + npre;
    int* sshape = spj + npre;  // [pa * PP + k]: shape with prefix pa and z mode k, or -1
    sf_copy_tables<N, PP>(ix, sN, sdN, spi, spj, sshape);
    Real* t2 = scratch + long(blockIdx.x) * npairs * 4 * N;  // [z pattern][q3][pair]
    const long nn = 3L * nsh;
    for (int e = blockIdx.x; e < a.m; e += gridDim.x) {
        Real* ke = a.k + long(e) * nn * nn;
        for (int block = 0; block < kSfPairBlocks; ++block) {
            int ie = 0, je = 0;
            Real c[np];
            sf_block_coefficients(a, block, ie, je, c);
            for (int rs = 0; rs < 9; ++rs) {
                const int r = rs / 3 + 1, s = rs % 3 + 1;
                __syncthreads();  // the tables are loaded, and the previous T1 has been read
                // The Jacobian terms from global memory ([(q * 10 + i) * m + e]).
                for (int item = tid; item < N * N; item += blockDim.x)
                    sf_x_stage<N, PP>(item, a.jac + e, 10L * a.m, long(a.m), r, s, c, t1);
                __syncthreads();
                // The first (r, s) of each z pattern (loop order (1,1), (1,3), (3,1), (3,3)) writes.
                const int zp = 2 * (r == 3) + (s == 3);
                const bool first = r != 2 && s != 2;
                const Real* wa = r == 2 ? sdN : sN;
                const Real* wb = s == 2 ? sdN : sN;
                for (int item = tid; item < npairs; item += blockDim.x) {
                    const int pa = item / npre, pb = item % npre;
                    const int i1 = spi[pa], j1 = spj[pa], i2 = spi[pb], j2 = spj[pb];
                    Real acc[N];
#pragma unroll
                    for (int q = 0; q < N; ++q) acc[q] = 0;
                    const Real* src = t1 + (i1 * PP + i2) * N * N;
#pragma unroll 1  // a row of N loads per step: unrolled, the compiler hoists all N^2 and spills
                    for (int q2 = 0; q2 < N; ++q2) {
                        const Real w = wa[q2 * PP + j1] * wb[q2 * PP + j2];
#pragma unroll
                        for (int q3 = 0; q3 < N; ++q3) acc[q3] += w * src[q2 * N + q3];
                    }
                    Real* dst = t2 + long(zp) * N * npairs + item;
#pragma unroll
                    for (int q3 = 0; q3 < N; ++q3) {
                        Real& d = dst[long(q3) * npairs];
                        d = first ? acc[q3] : d + acc[q3];
                    }
                }
            }
            // z stage: each thread reads back the T2 it wrote (same item-to-thread map, no barrier).
            for (int item = tid; item < npairs; item += blockDim.x) {
                const int pa = item / npre, pb = item % npre;
                Real t2r[4][N];
#pragma unroll
                for (int zp = 0; zp < 4; ++zp)
#pragma unroll
                    for (int q3 = 0; q3 < N; ++q3) t2r[zp][q3] = t2[(long(zp) * N + q3) * npairs + item];
#pragma unroll 1
                for (int k1 = 0; k1 < PP; ++k1) {
                    const int sa = sshape[pa * PP + k1];
                    if (sa < 0) continue;
                    Real zk[2][N], v[PP];
#pragma unroll
                    for (int q3 = 0; q3 < N; ++q3) zk[0][q3] = sN[q3 * PP + k1], zk[1][q3] = sdN[q3 * PP + k1];
                    sf_z_row<N, PP>(t2r, zk, v);
#pragma unroll
                    for (int k2 = 0; k2 < PP; ++k2) {
                        const int sb = sshape[pb * PP + k2];
                        if (sb < 0) continue;
                        ke[(long(sa) * 3 + ie) * nn + long(sb) * 3 + je] = v[k2];
                        if (ie != je) ke[(long(sb) * 3 + je) * nn + long(sa) * 3 + ie] = v[k2];
                    }
                }
            }
        }
    }
}

// Calls f(kernel) with the stream design compiled for (n, pp): p = 6..10; false for other orders.
template <class Real, class F>
bool with_stream_kernel(int n, int pp, F&& f) {
    return with_eq7_shape<6, 10>(
        n, pp, [&](auto N, auto PP) { f(sumfact_stream_kernel<decltype(N)::value, decltype(PP)::value, Real>); });
}

// Which unrolled sum-factorisation design runs. The pair design wherever it is compiled and fits
// (H100, integration-h100.md, FP32 µs per element against the block design: p = 3 0.069 / 0.229, p = 4
// 0.167 / 0.651, p = 5 0.60 / 1.97, p = 6 2.88 / 4.29), else the stream design (p = 6..10),
// else the block design; VOXWAVE_SUMFACT_DESIGN=pair|stream|block chooses where that one is
// available (benchmarks and tests).
template <class Real>
SumfactDesign choose_sumfact_design(const ReferenceTables& t, int combos, std::size_t smem_limit, bool block_ok) {
    const int n = t.points_1d, pp = t.order + 1;
    const bool six = combos == kSfPairBlocks;
    const bool pair_ok =
        six && with_pair_kernel<Real>(n, pp, [](auto) {}) && sumfact_pair_bytes(t, sizeof(Real)) <= smem_limit;
    const bool stream_ok =
        six && with_stream_kernel<Real>(n, pp, [](auto) {}) && sumfact_stream_bytes(t, sizeof(Real)) <= smem_limit;
    if (const char* v = std::getenv("VOXWAVE_SUMFACT_DESIGN")) {
        const std::string d(v);
        if (d == "block" && block_ok) return SumfactDesign::Block;
        if (d == "stream" && stream_ok) return SumfactDesign::Stream;
        if (d == "pair" && pair_ok) return SumfactDesign::Pair;
    }
    return pair_ok ? SumfactDesign::Pair : (stream_ok ? SumfactDesign::Stream : SumfactDesign::Block);
}

using cuda::DeviceBuffer;
using cuda::PinnedHostBuffer;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class Real>
std::vector<Real> to_real(const std::vector<double>& v) {
    return std::vector<Real>(v.begin(), v.end());
}

// Calls f(kernel) with the shm kernel compiled for this register block and Jacobian mode.
template <class Pairs, class Real, class F>
void with_shm_kernel(const ShmBlock& b, bool computed_jacobian, F&& f) {
    const auto pick = [&](auto computed) {
        constexpr bool kComputed = decltype(computed)::value;
        if constexpr (sizeof(Real) == 4)
            if (b.ra * b.rb == 16) return f(shm_kernel<Pairs, Real, kComputed, 4, 4>);
        if (b.ra * b.rb == 8) return f(shm_kernel<Pairs, Real, kComputed, 4, 2>);
        f(shm_kernel<Pairs, Real, kComputed, 2, 2>);
    };
    computed_jacobian ? pick(std::true_type{}) : pick(std::false_type{});
}

// The shm launch of a run, planned once before the timed launches: the knobs (defaults per order
// or the environment), the tiling, points per batch and packing that fit the device's shared
// memory, and the kernel's shared-memory allowance.
template <class Pairs, class Real>
ShmTiling plan_shm(int nsh, JacobianMode jm, std::size_t smem_optin) {
    const ShmKnobs knobs = shm_knobs<Real>(nsh);
    const int max_threads = shm_max_threads(sizeof(Real), knobs.block.ra, knobs.block.rb);
    const int side_cap = knobs.block.side_max(max_threads);
    const int side_max = knobs.side > 0 ? std::min(side_cap, knobs.side / knobs.block.step() * knobs.block.step())
                                        : knobs.block.side_max();
    ShmTiling tl =
        shm_tiling(nsh, knobs.block, knobs.tile, knobs.points, std::max(knobs.block.step(), side_max), max_threads);
    // Fewer points per batch where one tile's arrays would not fit the device's shared memory.
    for (;;) {
        tl.group_bytes = unsigned((shm_shared_bytes<Pairs, Real>(tl) + 15) / 16 * 16);
        if (tl.group_bytes <= smem_optin || tl.points <= 16) break;
        tl.points /= 2;
    }
    tl.pack = std::max(1, std::min(knobs.pack, max_threads / tl.threads()));
    while (tl.pack > 1 && std::size_t(tl.pack) * tl.group_bytes > smem_optin) --tl.pack;
    const std::size_t smem = std::size_t(tl.pack) * tl.group_bytes;
    if (smem > 48 * 1024)
        with_shm_kernel<Pairs, Real>(tl.block, jm == JacobianMode::Computed, [&](auto kernel) {
            VOXWAVE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
        });
    return tl;
}

template <class Pairs, class Real>
void launch(Variant v, JacobianMode jm, const Args<Real>& a, const SumfactArgs<Real>& f, std::size_t sumfact_smem,
            const ShmTiling& shm, bool symmetric) {
    switch (v) {
        case Variant::Ai:
            ai_kernel<Pairs><<<(a.m + 127) / 128, 128>>>(a);
            break;
        case Variant::Aii:
            aii_kernel<Pairs><<<(a.m * 32 + 127) / 128, 128>>>(a);
            break;
        case Variant::Reg: {
            const int bpe = (a.nsh * a.nsh + 127) / 128;
            reg_kernel<Pairs><<<a.m * bpe, 128>>>(a, bpe);
            break;
        }
        case Variant::Shm: {
            const long all_tiles = long(a.m) * shm.per_a * shm.per_b;
            const unsigned blocks = unsigned((all_tiles + shm.pack - 1) / shm.pack);
            const std::size_t smem = std::size_t(shm.pack) * shm.group_bytes;
            with_shm_kernel<Pairs, Real>(shm.block, jm == JacobianMode::Computed, [&](auto kernel) {
                kernel<<<blocks, shm.pack * shm.threads(), smem>>>(a, shm);
            });
            break;
        }
        case Variant::SumFact:
            sumfact_kernel<Pairs><<<a.m, kSumfactThreads, sumfact_smem>>>(a, f, symmetric);
            break;
    }
    VOXWAVE_CUDA_CHECK_LAUNCH("integration kernel");
}

template <class Pairs, class Real>
void enable_sumfact_smem(std::size_t bytes) {
    VOXWAVE_CUDA_CHECK(
        cudaFuncSetAttribute(sumfact_kernel<Pairs, Real>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

template <class Pairs>
unsigned active_reference_pairs() {
    bool value_test = false, grad_test = false, value_trial = false, grad_trial = false;
    for (int p = 0; p < Pairs::pairs; ++p) {
        (Pairs::test_d(p) == 0 ? value_test : grad_test) = true;
        (Pairs::trial_d(p) == 0 ? value_trial : grad_trial) = true;
    }
    unsigned mask = 0;
    for (int r = 0; r < 4; ++r)
        for (int s = 0; s < 4; ++s)
            if ((r == 0 ? value_test : grad_test) && (s == 0 ? value_trial : grad_trial)) mask |= 1u << (r * 4 + s);
    return mask;
}

double device_peak_gflops(int device, bool fp64) {
    int sms = 0, khz = 0, major = 0, minor = 0;
    VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
    VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    // FP32 / FP64 lanes per SM (CUDA programming guide, arithmetic instruction throughput).
    int fp32 = 128, dp = 2;
    if (major == 8 && minor == 0) fp32 = 64, dp = 32;
    if (major == 9 || (major == 10 && minor == 0)) dp = 64;
    if (major == 7) fp32 = 64, dp = 32;
    return double(sms) * (fp64 ? dp : fp32) * 2.0 * khz * 1e3 / 1e9;
}

template <class Real>
CudaIntegrationTiming run(const CudaIntegrationRequest& r, std::vector<double>& kout) {
    const ReferenceTables& t = *r.tables;
    const ProblemCoefficients& c = *r.coefficients;
    const ElementBatch& b = *r.batch;
    if (r.variant == Variant::SumFact && t.type != ElementType::Hexahedron)
        throw InputError("", "--variant", "sumfact needs hexahedra (a tensor-product element)");
    if (std::string why; cuda_devices(&why).empty()) throw InputError("", "backend", why);
    int dev = 0;
    VOXWAVE_CUDA_CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    VOXWAVE_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    // Elasticity on hexahedra of a known order takes the unrolled sum-factorisation kernel when
    // its arrays fit; the first design serves the other problems and whatever does not fit.
    const int combos = c.symmetric() ? c.equations * (c.equations + 1) / 2 : c.equations * c.equations;
    SumfactPlan plan;
    plan.cg = 0;
    if (r.variant == Variant::SumFact && c.problem == Problem::Elasticity) {
        if (sumfact_unrolled_available(t)) plan = plan_sumfact(t, sizeof(Real), combos, prop.sharedMemPerBlockOptin);
        plan.design = choose_sumfact_design<Real>(t, combos, prop.sharedMemPerBlockOptin, plan.cg > 0);
        if (plan.design == SumfactDesign::Pair) {
            plan.threads = kSfPairThreads;
            plan.smem = sumfact_pair_bytes(t, sizeof(Real));
        } else if (plan.design == SumfactDesign::Stream) {
            plan.threads = kSfStreamThreads;
            plan.smem = sumfact_stream_bytes(t, sizeof(Real));
        }
    }
    const bool unrolled = plan.cg > 0 || plan.design != SumfactDesign::Block;
    const std::size_t smem =
        r.variant == Variant::SumFact && !unrolled ? sumfact_shared_bytes(t, sizeof(Real) == 8) : 0;
    if (r.variant == Variant::SumFact && !unrolled && t.points_1d > kSumfactMaxPoints)
        throw InputError("", "--order",
                         "sumfact on CUDA holds at most " + std::to_string(kSumfactMaxPoints) +
                             " points per direction in registers; order " + std::to_string(t.order) + " needs " +
                             std::to_string(t.points_1d) + " (use order <= 8)");
    if (smem > prop.sharedMemPerBlockOptin)
        throw InputError("", "--order",
                         "sumfact on CUDA keeps its stage arrays in shared memory: order " + std::to_string(t.order) +
                             " needs " + std::to_string(smem / 1024) + " KiB, the device allows " +
                             std::to_string(prop.sharedMemPerBlockOptin / 1024) + " KiB (use a lower order or fp32)");
    VOXWAVE_CUDA_CHECK(cudaFree(nullptr));  // context creation is not part of any stage

    CudaIntegrationTiming tm;
    tm.device = prop.name;
    tm.fp32_peak_gflops = device_peak_gflops(dev, false);
    tm.fp64_peak_gflops = device_peak_gflops(dev, true);

    const long n = long(c.equations) * t.nsh;
    const std::size_t mat = std::size_t(n) * n;
    // Chunks: at most ~1 GiB of element matrices and half the free memory per chunk.
    std::size_t free_b = 0, total_b = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::size_t per_element = (mat + std::size_t(t.nq) * 10 + 24) * sizeof(Real);
    const std::size_t budget = std::min<std::size_t>(free_b / 2, std::size_t(1) << 30);
    const std::int64_t chunk =
        std::max<std::int64_t>(1, std::min<std::int64_t>(b.count, std::int64_t(budget / per_element)));

    // --- initialisation: device buffers, reference data, coefficients, pinned staging buffer
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<Real> phi = to_real<Real>(t.phi), geo = to_real<Real>(t.geo), w = to_real<Real>(t.weights),
                            cp = to_real<Real>(c.packed()), n1d = to_real<Real>(t.n1d), dn1d = to_real<Real>(t.dn1d);
    DeviceBuffer<Real> d_phi(phi.size()), d_geo(geo.size()), d_w(w.size()), d_cp(cp.size());
    d_phi.upload(phi.data(), phi.size());
    d_geo.upload(geo.data(), geo.size());
    d_w.upload(w.data(), w.size());
    d_cp.upload(cp.data(), cp.size());
    DeviceBuffer<Real> d_xv(std::size_t(chunk) * b.vertices * 3), d_jac(std::size_t(chunk) * t.nq * 10),
        d_k(std::size_t(chunk) * mat);
    SumfactArgs<Real> f;
    DeviceBuffer<int> d_prefix, d_prefix_of, d_kidx;
    DeviceBuffer<Real> d_n1d, d_dn1d;
    if (r.variant == Variant::SumFact) {
        std::vector<int> pre, kidx;
        for (const auto& p : t.prefixes) pre.insert(pre.end(), {p[0], p[1]});
        for (const auto& m : t.modes) kidx.push_back(m[2]);
        d_prefix = DeviceBuffer<int>(pre.size());
        d_prefix_of = DeviceBuffer<int>(t.prefix_of.size());
        d_kidx = DeviceBuffer<int>(kidx.size());
        d_n1d = DeviceBuffer<Real>(n1d.size());
        d_dn1d = DeviceBuffer<Real>(dn1d.size());
        d_prefix.upload(pre.data(), pre.size());
        d_prefix_of.upload(t.prefix_of.data(), t.prefix_of.size());
        d_kidx.upload(kidx.data(), kidx.size());
        d_n1d.upload(n1d.data(), n1d.size());
        d_dn1d.upload(dn1d.data(), dn1d.size());
        f.n = t.points_1d;
        f.pp = t.order + 1;
        f.npre = int(t.prefixes.size());
        f.prefix = d_prefix.get();
        f.prefix_of = d_prefix_of.get();
        f.kidx = d_kidx.get();
        f.n1d = d_n1d.get();
        f.dn1d = d_dn1d.get();
        with_problem_pairs(c.problem, [&](auto pairs) {
            f.active_rs = active_reference_pairs<decltype(pairs)>();
            enable_sumfact_smem<decltype(pairs), Real>(smem);
        });
    }
    SfIndex ix;
    DeviceBuffer<int> d_pidx, d_shape_of;
    DeviceBuffer<Real> d_scratch;  // the stream design's T2, per persistent thread block
    if (unrolled) {
        const int pp = t.order + 1, npre = int(t.prefixes.size());
        std::vector<int> pidx(std::size_t(pp) * pp, -1), shape_of(std::size_t(npre) * pp, -1);
        for (int pa = 0; pa < npre; ++pa) pidx[t.prefixes[pa][0] * pp + t.prefixes[pa][1]] = pa;
        for (int sh = 0; sh < t.nsh; ++sh) shape_of[t.prefix_of[sh] * pp + t.modes[sh][2]] = sh;
        d_pidx = DeviceBuffer<int>(pidx.size());
        d_pidx.upload(pidx.data(), pidx.size());
        d_shape_of = DeviceBuffer<int>(shape_of.size());
        d_shape_of.upload(shape_of.data(), shape_of.size());
        ix.prefix = d_prefix.get();
        ix.prefix_of = d_prefix_of.get();
        ix.kidx = d_kidx.get();
        ix.pidx = d_pidx.get();
        ix.shape_of = d_shape_of.get();
        ix.npre = npre;
        ix.cg = plan.cg;
        ix.k_in_shared = plan.k_in_shared;
        ix.active_rs = f.active_rs;
        std::vector<Real> tab(2 * kSfTab, Real(0));
        for (std::size_t i = 0; i < n1d.size() && i < std::size_t(kSfTab); ++i) {
            tab[i] = n1d[i];
            tab[kSfTab + i] = dn1d[i];
        }
        if constexpr (sizeof(Real) == 4)
            VOXWAVE_CUDA_CHECK(cudaMemcpyToSymbol(c_sf_f, tab.data(), tab.size() * sizeof(Real)));
        else
            VOXWAVE_CUDA_CHECK(cudaMemcpyToSymbol(c_sf_d, tab.data(), tab.size() * sizeof(Real)));
        if (plan.design == SumfactDesign::Stream) {
            int per_sm = 0;
            with_stream_kernel<Real>(t.points_1d, t.order + 1, [&](auto kernel) {
                VOXWAVE_CUDA_CHECK(
                    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(plan.smem)));
                VOXWAVE_CUDA_CHECK(
                    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, plan.threads, plan.smem));
            });
            plan.stream_blocks = std::max(1, per_sm) * prop.multiProcessorCount;
            d_scratch = DeviceBuffer<Real>(std::size_t(plan.stream_blocks) * sumfact_stream_scratch(t));
            tm.sumfact_design = "stream, " + std::to_string(plan.smem / 1024) + " KiB shared, " +
                                std::to_string(plan.stream_blocks) + " persistent blocks";
        } else if (plan.design == SumfactDesign::Pair) {
            tm.sumfact_design = "pair, " + std::to_string(plan.smem / 1024) + " KiB shared";
            with_pair_kernel<Real>(t.points_1d, t.order + 1, [&](auto kernel) {
                VOXWAVE_CUDA_CHECK(
                    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(plan.smem)));
            });
        } else {
            tm.sumfact_design = "unrolled, " + std::to_string(plan.cg) + " equation blocks per pass, K in " +
                                (plan.k_in_shared ? "shared" : "global") + " memory, " +
                                std::to_string(plan.smem / 1024) + " KiB shared";
            enable_sumfact_unrolled_smem<ProblemPairs<Problem::Elasticity>, Real>(t.points_1d, t.order + 1, plan);
        }
    }
    ShmTiling shm;
    if (r.variant == Variant::Shm)
        with_problem_pairs(c.problem, [&](auto pairs) {
            shm = plan_shm<decltype(pairs), Real>(t.nsh, r.jacobian, prop.sharedMemPerBlockOptin);
        });
    // chunk >= 1 and mat >= 1: neither is empty.
    PinnedHostBuffer<Real> staging(std::size_t(chunk) * mat);
    PinnedHostBuffer<Real> staging_in(std::size_t(chunk) * std::max<std::size_t>(std::size_t(t.nq) * 10, 24));
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    tm.init_s = seconds_since(t0);

    cuda::EventTimer timer;
    const std::int64_t keep = std::min<std::int64_t>(r.keep_matrices, b.count);
    kout.assign(std::size_t(keep) * mat, 0.0);
    bool warmed = false;
    for (std::int64_t e0 = 0; e0 < b.count; e0 += chunk) {
        const int m = int(std::min<std::int64_t>(chunk, b.count - e0));
        ++tm.chunks;
        // --- transfer in (the precomputed variants also pay the host's Jacobian work here)
        t0 = std::chrono::steady_clock::now();
        Real* in = staging_in.get();
        ElementBatch part;
        part.type = b.type;
        part.vertices = b.vertices;
        part.count = m;
        part.xv.assign(b.xv.begin() + e0 * b.vertices * 3, b.xv.begin() + (e0 + m) * b.vertices * 3);
        const bool device_jacobian = r.jacobian == JacobianMode::Computed;
        if (device_jacobian) {
            for (std::size_t i = 0; i < part.xv.size(); ++i) in[i] = Real(part.xv[i]);
            VOXWAVE_CUDA_CHECK(cudaMemcpy(d_xv.get(), in, part.xv.size() * sizeof(Real), cudaMemcpyHostToDevice));
        } else {
            const std::vector<Real> jac = precompute_jacobian_terms<Real>(t, part);  // [e][q][10]
            for (int e = 0; e < m; ++e)
                for (int q = 0; q < t.nq; ++q)
                    for (int i = 0; i < 10; ++i)
                        in[(std::size_t(q) * 10 + i) * m + e] = jac[(std::size_t(e) * t.nq + q) * 10 + i];
            VOXWAVE_CUDA_CHECK(cudaMemcpy(d_jac.get(), in, jac.size() * sizeof(Real), cudaMemcpyHostToDevice));
        }
        tm.transfer_in_s += seconds_since(t0);

        Args<Real> a;
        a.m = m;
        a.nq = t.nq;
        a.nsh = t.nsh;
        a.nv = t.nv;
        a.phi = d_phi.get();
        a.geo = d_geo.get();
        a.w = d_w.get();
        a.xv = d_xv.get();
        a.jac = d_jac.get();
        a.cp = d_cp.get();
        a.k = d_k.get();
        auto run_kernels = [&] {
            // The shm kernel computes its own Jacobian terms; the others read them from a
            // device pass over (element, point) when they are not precomputed.
            if (device_jacobian && r.variant != Variant::Shm) {
                const long threads = long(m) * t.nq;
                jacobian_terms_kernel<<<unsigned((threads + 255) / 256), 256>>>(a, d_jac.get());
                VOXWAVE_CUDA_CHECK_LAUNCH("jacobian_terms_kernel");
            }
            if (plan.design == SumfactDesign::Stream) {
                with_stream_kernel<Real>(t.points_1d, t.order + 1, [&](auto kernel) {
                    kernel<<<std::min(plan.stream_blocks, m), plan.threads, plan.smem>>>(a, ix, d_scratch.get());
                });
                VOXWAVE_CUDA_CHECK_LAUNCH("sumfact_stream_kernel");
                return;
            }
            if (plan.design == SumfactDesign::Pair) {
                with_pair_kernel<Real>(t.points_1d, t.order + 1,
                                       [&](auto kernel) { kernel<<<m, plan.threads, plan.smem>>>(a, ix); });
                VOXWAVE_CUDA_CHECK_LAUNCH("sumfact_pair_kernel");
                return;
            }
            if (unrolled) {
                launch_sumfact_unrolled<ProblemPairs<Problem::Elasticity>>(t.points_1d, t.order + 1, m, a, ix, plan,
                                                                           c.symmetric());
                return;
            }
            with_problem_pairs(c.problem, [&](auto pairs) {
                launch<decltype(pairs)>(r.variant, r.jacobian, a, f, smem, shm, c.symmetric());
            });
        };
        if (!warmed) {
            run_kernels();
            VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
            warmed = true;
        }
        std::vector<double> seconds;
        for (int rep = 0; rep < std::max(1, r.repetitions); ++rep) {
            timer.start();
            run_kernels();
            timer.stop();
            seconds.push_back(timer.seconds());
        }
        std::sort(seconds.begin(), seconds.end());
        tm.kernel_s += seconds[seconds.size() / 2];

        // --- transfer out
        t0 = std::chrono::steady_clock::now();
        VOXWAVE_CUDA_CHECK(
            cudaMemcpy(staging.get(), d_k.get(), std::size_t(m) * mat * sizeof(Real), cudaMemcpyDeviceToHost));
        tm.transfer_out_s += seconds_since(t0);
        const Real* out = staging.get();
        for (std::int64_t e = e0; e < std::min<std::int64_t>(e0 + m, keep); ++e)
            for (std::size_t i = 0; i < mat; ++i)
                kout[std::size_t(e) * mat + i] = double(out[std::size_t(e - e0) * mat + i]);
    }
    return tm;
}

}  // namespace

CudaIntegrationTiming integrate_batch_cuda(const CudaIntegrationRequest& r, std::vector<double>& k) {
    return r.fp64 ? run<double>(r, k) : run<float>(r, k);
}

}  // namespace voxwave::integration
