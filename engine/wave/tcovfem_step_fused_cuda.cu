// TCOVFEM's fused node-centred step: the sweep of fused_step.cuh (no atomics, f never in global
// memory, the update in the same kernel) with each element plane's forces from INT8 Tensor
// Cores. The arithmetic is the paper's (seed 000 eqs. 9-17, tcovfem_int8.hpp): per-element
// scale 2^e, one conversion to a 7M-bit integer q_M (rounded to nearest, tcovfem_quantize),
// exact INT32 products of its 8-bit pieces, one rounding. The pieces are q_M's bytes rather than
// the paper's 7-bit digits: the same integer, without the digit spreading. The element forces
// are bit-identical to the CPU emulation.
//
// Why it looks like this. The step is compute-bound, not memory-bound: its floor is the issue of the
// paper's arithmetic (the Tensor Core products, one FP64 product and one conversion per input, the
// INT64 joins, the single rounding), and on the H100 the FP64 instructions and the INT8 Tensor Core
// products issue through one shared pipe and do not overlap (bench/micro/shared_pipe_h100.cu). So
// every choice below removes instructions or keeps that pipe busy:
//   - for M >= 5 the input is converted as the paper does, an FP64 product and one F2I.S64.F64,
//     which runs on another pipe (the exact rounding would add FP64 instructions to the shared one);
//   - q_M's own bytes are the digits (no digit spreading), and for M = 8 the element scale has one
//     bit of headroom so that seven byte products do the work of eight (tcovfem_scale_headroom_bits);
//   - a lane takes two neighbouring elements, 2g and 2g + 1, so the node they share is summed within
//     the lane and the x sums take one shuffle; the element exponent's raise is built from its bits
//     (tcovfem_exponent_raise), not by ldexp;
//   - y tiles do not overlap (kHandoffRows): no element row is computed twice;
//   - every warp of a tile computes (kEveryWarpComputes), so the two blocks of an SM load its four
//     sub-partitions evenly; warps meet only their neighbours at a plane's end (kNeighbourBarriers),
//     so warps in different phases share the pipes; the last x tile's columns are merged
//     (kMergeLastXTile), so fewer warps sweep mostly empty element slots;
//   - each step is a programmatic dependent launch (its blocks start as the previous step's exit) and
//     the row handoff is polled before the plane's barrier (fused_step.cuh), so neither the launch nor
//     the handoff's wait leaves the SM idle;
//   - every version is checked for spills with -Xptxas -v at 128 registers (2 blocks of 8 warps
//     an SM): fewer instructions only pay while nothing spills.
// Measured results and the alternatives tried and dropped: bench/results/cuda-bench.md.
//
// Mapping (a warp is one tile row of 32 elements, as in the moment kernel's sweep):
//   - m-tiles of 16 elements; lane (g, t) takes elements 2g and 2g + 1 (the mma's rows g and
//     g + 8) and the kappa and G columns of their nodes (a, b, c) = (0 or 1, t & 1, t >> 1),
//     read straight from the shared w (node columns 2g, 2g + 1, 2g + 2: the middle one serves
//     both elements), whose columns are XOR-swizzled (fused_w_swizzle): the 16 lanes of a half
//     warp then hit 16 distinct bank pairs. The 4 lanes of a quad agree on the element's scale
//     with two shuffles.
//   - the conversion: q_M = round(w factor 2^(7M - e)) (tcovfem_quantize): for M >= 5 the
//     FP64 product and one F2I.S64.F64, whose two words q_M = hi 2^32 + lo (lo unsigned) are
//     used as they are; q_M's own bytes are the digits (base 256: bytes 0-5 unsigned, byte 6
//     signed, since |q_M| < 2^55 (tcovfem_scale_headroom_bits); byte 7 is only its sign and
//     takes no product), so there is no digit spreading; two byte-permutes per register turn 4
//     columns' words into one register per byte. M <= 4: one word, the exact product rounded by
//     one fma.
//   - the products: R (16 x 24) = D_j (16 x 48, INT8) A^T on 3 n-tiles, columns 0..31 as one
//     mma m16n8k32 and 32..47 as one m16n8k16, u8 x s8 for unsigned bytes and s8 x s8 for
//     the top byte; bytes are chained two per INT32 accumulator (c = 256 c + A d_j: |c| <=
//     1013 (255 256 + 255) < 2^27, 1013 being the largest row sum of |A|), the top byte 6
//     alone; for M >= 5 the four chains are joined in pairs in INT64 (the low chain of each
//     pair biased by 2^27 so that it is non-negative) and the pairs in the single rounding fma,
//     which also applies the scale.
//   - the output order of A^T (TcovfemOutputOrder::FaceRows) gives lane t the component nt of
//     the two nodes a = 0, 1 of face row (b, c) = (t & 1, t >> 1) of its elements, so the x
//     sums are one shuffle (node 2g + 1 is summed within the lane) and the partials go straight
//     to the sweep's shared arrays (columns XOR tcovfem_partial_swizzle(t)): row j (b = 0) to
//     stage0, row j + 1 (b = 1) to pass. No element force is staged.
#include <cstdint>

#include "wave/fused_step.cuh"
#include "wave/tcovfem_int8.hpp"
#include "wave/tcovfem_mma.cuh"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

constexpr unsigned kFullWarp = 0xffffffffu;

// Bytes 2h and 2h + 1 of four words as two registers: even = (x0.b2h, x1.b2h, x2.b2h, x3.b2h),
// odd likewise. Four columns' digit words become the A-fragment registers of two digits.
__device__ __forceinline__ void digit_pair(std::uint32_t x0, std::uint32_t x1, std::uint32_t x2, std::uint32_t x3,
                                           int h, std::uint32_t& even, std::uint32_t& odd) {
    const std::uint32_t sel = h ? 0x7362u : 0x5140u;
    const std::uint32_t t01 = __byte_perm(x0, x1, sel), t23 = __byte_perm(x2, x3, sel);
    even = __byte_perm(t01, t23, 0x5410u);
    odd = __byte_perm(t01, t23, 0x7632u);
}

// Byte 2 of four words as one register (x0.b2, x1.b2, x2.b2, x3.b2): the top byte of M = 8,
// whose byte 3 is only the sign (|q_8| < 2^55, tcovfem_scale_headroom_bits) and is not used.
__device__ __forceinline__ std::uint32_t digit_byte2(std::uint32_t x0, std::uint32_t x1, std::uint32_t x2,
                                                     std::uint32_t x3) {
    return __byte_perm(__byte_perm(x0, x1, 0x0062u), __byte_perm(x2, x3, 0x0062u), 0x5410u);
}

// The XOR of the partials' columns written by lanes t (face row (b, c) = (t & 1, t >> 1)): bits 0
// and 3, {0, 1, 8, 9}. A half warp's lanes (g = 0..3 or 4..7, t = 0..3) store node columns 2g (or
// 2g + 1), 4 even (or odd) columns within 8, and the 4 face rows' arrays start on the same bank:
// 16 distinct bank pairs.
__device__ __forceinline__ int tcovfem_partial_swizzle(int t) { return (t & 1) | ((t & 2) << 2); }

// Parts = 2: M = 5..8 (hi and lo words, 8 digits); Parts = 1: M = 1..4 (one word, 4 digits).
// Unused top digits are sign extension, so the integer products stay exact for every M.
template <class Real, int TileY, int Parts>
class TcovfemPlane {
    static_assert(sizeof(Real) == 8, "TCOVFEM computes in FP64 and INT8");

public:
    struct Shared {
        double kf[256], gf[256];                     // kappa ds / 256 and G ds / 384 by material id
        double fmax[256];                            // max(kf, gf): no compare and selects per element
        double stage0[2][2][3][TileY][kFusedTileX];  // row-j partials, by plane parity (pass holds row j + 1)
    };
    static constexpr bool kDiagonal = true;
    // Nothing loaded is live across the Tensor Core work: the next plane's loads come after it
    // and the node values loaded before are stored to shared memory first (spills 176 -> 24 B,
    // 355 -> 337 us).
    static constexpr bool kLoadAfterForces = true;
    // w's columns are XOR-swizzled (fused_w_column): with this lane's nodes (a = h, b = t & 1,
    // c = t >> 1) every read of w below is free of bank conflicts.
    static constexpr bool kSwizzleW = true;
    // Compute-bound: at 2 mm the last x tile (13 nodes) computed a full warp row of 32 element
    // slots in each of its 11 y tiles; merged in pairs, those are 6 columns instead of 11.
    static constexpr bool kMergeLastXTile = true;
    // All 8 warps compute (the tile loads the node row below it): with the last row only
    // loading, the two blocks' load-only warps shared one SM sub-partition, which had half the
    // Tensor Core work of the others. 238.4 -> 226.0 us a step at 2 mm (A/B).
    static constexpr bool kEveryWarpComputes = true;
    // Each warp waits at the end of a plane for its two neighbours only (fused_plane_barrier):
    // 226.6 -> 222.4 us a step at 2 mm (A/B).
    static constexpr bool kNeighbourBarriers = true;
    // No overlap of y tiles: a tile's 8 warps compute 8 element rows and own 8 node rows, the
    // first row's lower partials handed over from the tile below through global memory
    // (fused_step.cuh), where 7 rows were owned and the first element row was recomputed.
    static constexpr bool kHandoffRows = true;

    __device__ TcovfemPlane(const FusedStepArgs<double>& a, Shared& s, int tid, int threads) {
        for (int m = tid; m < 256; m += threads) {
            s.kf[m] = __ldg(a.kappa_factor + m);
            s.gf[m] = __ldg(a.shear_factor + m);
            s.fmax[m] = fmax(s.kf[m], s.gf[m]);
        }
        const int lane = tid & 31, t = lane & 3;
        load_b_fragments(a.b_fragments, lane, bf_);
        // This lane's nodes (a, b, c) = (h, t & 1, t >> 1), h = 0, 1 (TcovfemOutputOrder::FaceRows
        // orders A's input columns the same way): one node plane and one tile row for both.
        node_plane_ = t >> 1;
        node_row_ = t & 1;
    }

    template <class Sh>
    __device__ __forceinline__ void forces(Sh& sh, const FusedStepArgs<double>& a, int k, unsigned id, int tx, int ty) {
        // A warp with no element at all (void, or past the model's edge) writes zero partials.
        const int lane = tx, g = lane >> 2, t = lane & 3;
        const int M = a.stages;
        const bool empty = !__any_sync(kFullWarp, id != 0);
        // Where this lane's partials go: face row (b, c) = (t & 1, t >> 1); components stride TileY 32.
        // Columns XOR tcovfem_partial_swizzle(t): the four face rows of a quad's nodes then fill all
        // 32 banks (without a swizzle, Nsight Compute counted 8 wavefronts per store, 4x the ideal).
        double* const out = (t & 1) ? &sh.pass[k & 1][t >> 1][0][ty][0] : &sh.plane.stage0[k & 1][t >> 1][0][ty][0];
        const int so = tcovfem_partial_swizzle(t);
        if (empty) {
#pragma unroll
            for (int nt = 0; nt < 3; ++nt)
#pragma unroll
                for (int col = 0; col < 32; col += 16) {
                    out[nt * TileY * kFusedTileX + col + ((2 * g) ^ so)] = 0.0;
                    out[nt * TileY * kFusedTileX + col + ((2 * g + 1) ^ so)] = 0.0;
                }
            return;
        }
        // This lane's w: node plane k + c, tile row ty + b, columns (E + a) swizzled. The 16 lanes
        // of a half warp read columns 2g + x of 4 (row, plane) parities: with the swizzle those are
        // 16 distinct bank pairs (before any swizzle: 4-way conflicts, 8 wavefronts per load
        // against 2).
        const int row = ty + node_row_;
        // w's component stride: TileY + 1 rows (the tile's and the one below it).
        constexpr int kWComponent = int(sizeof(sh.w[0][0]) / sizeof(double));
        static_assert(kWComponent == (TileY + 1) * kFusedTileX);
        const double* const wbase = &sh.w[(k + node_plane_) % 3][0][row][0];
        const int wmask = fused_w_swizzle(row, k + node_plane_);
        double prev[3] = {0.0, 0.0, 0.0};  // a = 1 outputs of the last element of the previous m-tile
#pragma unroll
        for (int mt = 0; mt < 2; ++mt) {
            std::uint32_t y[Parts][2][12];  // q_M's words [0 lo, 1 hi][element row][slot]: 4 bytes each
            int e[2];
            // The lane's node columns 2g + x, x = 0..2 (elements 2g and 2g + 1 share x = 1), and
            // each one's integer max of the inputs' top words.
            double wc[3][3];
            std::uint32_t mc[3];
#pragma unroll
            for (int r = 0; r < 2; ++r) {
                const int E = 16 * mt + 2 * g + r;
                const unsigned idr = __shfl_sync(kFullWarp, id, E);
#pragma unroll
                for (int x = r == 0 ? 0 : 2; x < r + 2; ++x) {
                    // Column 16 mt + (2g + x): the swizzle touches bits 0 and 3 only.
                    const double* col = wbase + 16 * mt + ((2 * g + x) ^ wmask);
                    mc[x] = 0;
#pragma unroll
                    for (int c = 0; c < 3; ++c) {
                        wc[x][c] = load_shared_in_order(col + c * kWComponent);
                        mc[x] = max(mc[x], tcovfem_abs_high_word(wc[x][c]));
                    }
                }
                double w[6];  // the element's corners a = h: columns 2g + r + h
#pragma unroll
                for (int i = 0; i < 6; ++i) w[i] = wc[r + i / 3][i % 3];
                // The element's scale: an integer max of the inputs' top words, then over the quad.
                std::uint32_t m = max(mc[r], mc[r + 1]);
                m = max(m, __shfl_xor_sync(kFullWarp, m, 1));
                m = max(m, __shfl_xor_sync(kFullWarp, m, 2));
                // No element (idr = 0: void, or outside the model): its factors are 0, so its inputs
                // scale to q_M = 0 and its forces are 0 with no select per input. Its w are finite:
                // every slot of w holds loaded values or zeros, and a read past a row's end lands on
                // another w (or, at the very end, own) entry.
                const double kf = sh.plane.kf[idr], gf = sh.plane.gf[idr];
                e[r] = tcovfem_element_exponent(m, sh.plane.fmax[idr], M);
                // The column scales of q_M = round(w factor 2^(7M - e)) (tcovfem_column_scale, the
                // power of two made without a branch).
                const double p2 = pow2_normal(7 * M - e[r]);
                const double pk = kf * p2, pg = gf * p2;
#pragma unroll
                for (int s = 0; s < 12; ++s) {
                    // q_M = round(w pk) (tcovfem_quantize).
                    if constexpr (Parts == 2) {
                        // The FP64 product and one F2I.S64.F64 (tcovfem_product_to_int64), whose
                        // 64-bit result is q_M's two words: lo (bytes 0..3) and hi (bytes 4..7).
                        const auto q =
                            static_cast<unsigned long long>(tcovfem_product_to_int64(w[s % 6], s < 6 ? pk : pg));
                        y[1][r][s] = static_cast<std::uint32_t>(q >> 32);
                        y[0][r][s] = static_cast<std::uint32_t>(q);
                    } else {
                        // The exact product rounded once: one fma (tcovfem_to_int64's integer).
                        y[0][r][s] = static_cast<std::uint32_t>(round_product_to_int(w[s % 6], s < 6 ? pk : pg));
                    }
                }
            }
            int c[3][4], p[3][4];  // the running chain, and a finished one
            // c = 256 c + bias (one IMAD either way): the bias keeps a chain joined as a low part
            // non-negative (join_bits).
            auto times256 = [&](int bias = 0) {
#pragma unroll
                for (int nt = 0; nt < 3; ++nt)
#pragma unroll
                    for (int i = 0; i < 4; ++i) c[nt][i] = c[nt][i] * 256 + bias;
            };
            auto keep = [&] {
#pragma unroll
                for (int nt = 0; nt < 3; ++nt)
#pragma unroll
                    for (int i = 0; i < 4; ++i) p[nt][i] = c[nt][i];
            };
            // c += A d for the byte whose registers are d[element row][slot group]: unsigned bytes
            // below the top one, the signed top byte of q_M's two's complement.
            // first: the chain starts here (c = A d, c not read).
            auto product = [&](const std::uint32_t(&d)[2][3], bool top, bool first = false, int init = 0) {
#pragma unroll
                for (int nt = 0; nt < 3; ++nt) {
                    // Columns 32..47 as k = 16 (the k-block's upper half is empty).
                    if (top) {
                        if (first)
                            mma_s8_first(c[nt], d[0][0], d[1][0], d[0][1], d[1][1], bf_[nt][0][0], bf_[nt][0][1], init);
                        else
                            mma_s8(c[nt], d[0][0], d[1][0], d[0][1], d[1][1], bf_[nt][0][0], bf_[nt][0][1]);
                        mma_s8_k16(c[nt], d[0][2], d[1][2], bf_[nt][1][0]);
                    } else {
                        if (first)
                            mma_u8_first(c[nt], d[0][0], d[1][0], d[0][1], d[1][1], bf_[nt][0][0], bf_[nt][0][1], init);
                        else
                            mma_u8(c[nt], d[0][0], d[1][0], d[0][1], d[1][1], bf_[nt][0][0], bf_[nt][0][1]);
                        mma_u8_k16(c[nt], d[0][2], d[1][2], bf_[nt][1][0]);
                    }
                }
            };
            // The registers of bytes 2h, 2h + 1 of word q.
            auto digits = [&](int q, int h, std::uint32_t(&even)[2][3], std::uint32_t(&odd)[2][3]) {
#pragma unroll
                for (int r = 0; r < 2; ++r)
#pragma unroll
                    for (int g4 = 0; g4 < 3; ++g4)
                        digit_pair(y[q][r][4 * g4], y[q][r][4 * g4 + 1], y[q][r][4 * g4 + 2], y[q][r][4 * g4 + 3], h,
                                   even[r][g4], odd[r][g4]);
            };
            // The registers of byte 6 (byte 2 of the high word) alone.
            auto top_digit = [&](std::uint32_t(&d)[2][3]) {
#pragma unroll
                for (int r = 0; r < 2; ++r)
#pragma unroll
                    for (int g4 = 0; g4 < 3; ++g4)
                        d[r][g4] =
                            digit_byte2(y[1][r][4 * g4], y[1][r][4 * g4 + 1], y[1][r][4 * g4 + 2], y[1][r][4 * g4 + 3]);
            };
            std::uint32_t d0[2][3], d1[2][3];
            // The element forces fy = T 2^(e - 7M), T = A q_M exact, rounded once: [nt][0..1] element
            // 2g (nodes a = 0, 1), [nt][2..3] element 2g + 1. Power-of-two scaling commutes with the
            // rounding (normal range: e >= kTcovfemMinExponent), so the scale goes into the fmas.
            double fy[3][4];
            // 2^(e - 7M), 2^(e - 7M + 32) (M > 4), -(1.5 2^52 + chain bias) 2^(e - 7M); made
            // after the products (live across them, they spilled). The last is finite, and the
            // scaled fmas exact, while e - 7M <= 969: always for M = 8 (e <= 1024), and for M < 8
            // while the element's largest |factor w| < 2^(968 + 7M).
            double sc[2], sc32[2], bias_sc[2];
            auto scales = [&] {
#pragma unroll
                for (int r = 0; r < 2; ++r) {
                    sc[r] = pow2_normal(e[r] - 7 * M);
                    if constexpr (Parts == 2) sc32[r] = pow2_normal(e[r] - 7 * M + 32);
                    bias_sc[r] = -kTcovfemJoinBias * sc[r];
                }
            };
            if constexpr (Parts == 2) {
                // Bytes 1 0 | 3 2 | 5 4 | 6, two per INT32 chain (c = 256 c + A d): |C| <= 1013
                // (255 256 + 255) < 2^27; byte 6 is signed (|q_M| < 2^55: tcovfem_scale_headroom_bits),
                // |C3| <= 1013 128, so byte 7, its sign extension, needs no product. The low word
                // first, so that it is dead before the high word's chains: L = C1 2^16 + C0 < 2^43
                // in INT64, H = C3 2^16 + C2 < 2^35, both exact doubles, and T = H 2^32 + L is
                // rounded once, by an fma (142 registers unconstrained against 150 high word
                // first; 304.4 against 306 us), scaled: fma(H, 2^32 s, L s). C0 and C2
                // carry the bias 2^27 (non-negative), taken out exactly in FP64.
                double h[3][4];        // the bits of 1.5 2^52 + L + bias
                digits(0, 0, d0, d1);  // bytes 0, 1
                product(d1, false, true);
                times256(kTcovfemChainBias);
                product(d0, false);
                keep();                // C0 + bias
                digits(0, 1, d0, d1);  // bytes 2, 3
                product(d1, false, true);
                times256();
                product(d0, false);  // C1; L = C1 2^16 + C0 < 2^43, the low word is dead
#pragma unroll
                for (int nt = 0; nt < 3; ++nt)
#pragma unroll
                    for (int i = 0; i < 4; ++i) h[nt][i] = join_bits<16>(c[nt][i], static_cast<unsigned>(p[nt][i]));
                digits(1, 0, d0, d1);  // bytes 4, 5
                product(d1, false, true);
                times256(kTcovfemChainBias);
                product(d0, false);
                keep();                   // C2 + bias
                top_digit(d0);            // byte 6, signed (|q_M| < 2^55); byte 7 is its sign only
                product(d0, true, true);  // C3; T = (C3 2^16 + C2) 2^32 + L, one rounding
                scales();
#pragma unroll
                for (int nt = 0; nt < 3; ++nt)
#pragma unroll
                    for (int i = 0; i < 4; ++i)
                        fy[nt][i] = fma(join_bits<16>(c[nt][i], static_cast<unsigned>(p[nt][i])) - kTcovfemJoinBias,
                                        sc32[i >> 1], fma(h[nt][i], sc[i >> 1], bias_sc[i >> 1]));
            } else {
                // Bytes 3 2 1 | 0: |byte 3| <= 16 since |q_M| < 2^28, so the chain of three stays
                // below 1013 (16 2^16 + 255 2^8 + 255) < 2^31; T = C1 256 + C0, exact.
                digits(0, 1, d0, d1);  // bytes 2, 3
                product(d1, true, true);
                times256();
                product(d0, false);
                digits(0, 0, d0, d1);  // bytes 0, 1
                times256();
                product(d1, false);
                keep();
                product(d0, false, true, kTcovfemChainBias);  // C0 + bias
                scales();
#pragma unroll
                for (int nt = 0; nt < 3; ++nt)
#pragma unroll
                    for (int i = 0; i < 4; ++i)
                        fy[nt][i] =
                            fma(join_bits<8>(p[nt][i], static_cast<unsigned>(c[nt][i])), sc[i >> 1], bias_sc[i >> 1]);
            }
            // Node 2g + 1 gets a = 1 of element 2g and a = 0 of element 2g + 1, both this lane's;
            // node 2g gets a = 0 of element 2g and a = 1 of element 2g - 1: from the quad below
            // (lane - 4), for g = 0 from lanes g = 7, which in the second m-tile send their first
            // m-tile's element 15. In the first m-tile node 0 is the tile's (or the merged half's)
            // left halo, whose partials no thread uses: it gets element 15 too, unselected.
            const int src = (lane + 28) & 31;
#pragma unroll
            for (int nt = 0; nt < 3; ++nt) {
                const double y00 = fy[nt][0], y01 = fy[nt][1], y10 = fy[nt][2], y11 = fy[nt][3];
                const double left = __shfl_sync(kFullWarp, mt == 1 && g == 7 ? prev[nt] : y11, src);
                prev[nt] = y11;
                out[nt * TileY * kFusedTileX + 16 * mt + ((2 * g) ^ so)] = y00 + left;
                out[nt * TileY * kFusedTileX + 16 * mt + ((2 * g + 1) ^ so)] = y01 + y10;
            }
        }
    }

    template <class Sh>
    __device__ __forceinline__ void node_sums(Sh& sh, int k, int tx, int ty, double (&node)[2][3]) const {
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c)
                // Written by lanes t = 2 cc (stage0) and 2 cc + 1 (pass), swizzled.
                node[cc][c] = sh.plane.stage0[k & 1][cc][c][ty][tx ^ tcovfem_partial_swizzle(2 * cc)] +
                              (ty > 0 ? passed(sh, k, cc, c, ty - 1, tx) : 0.0);
    }

    // The row-(ty + 1) partials of node column tx as node_sums of row ty + 1 reads them: what
    // the tile's last row passes on to the next tile (kHandoffRows).
    template <class Sh>
    __device__ __forceinline__ void passed_on(Sh& sh, int k, int tx, int ty, double (&v)[2][3]) const {
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c) v[cc][c] = passed(sh, k, cc, c, ty, tx);
    }

private:
    // The row-(row + 1) partial of face cc, component c at node column tx (written by lanes
    // t = 2 cc + 1 to pass, swizzled): what node_sums adds for row + 1 and passed_on hands over.
    template <class Sh>
    __device__ __forceinline__ static double passed(const Sh& sh, int k, int cc, int c, int row, int tx) {
        return sh.pass[k & 1][cc][c][row][tx ^ tcovfem_partial_swizzle(2 * cc + 1)];
    }

    std::uint32_t bf_[3][2][2];  // A^T as B fragments [n-tile][k-block][register], FaceRows order
    int node_plane_, node_row_;
};

template <class Real, int TileY>
using TcovfemPlaneLow = TcovfemPlane<Real, TileY, 1>;
template <class Real, int TileY>
using TcovfemPlaneHigh = TcovfemPlane<Real, TileY, 2>;

}  // namespace

std::size_t fused_handoff_words(int nx, int ny, int nz) {
    // Virtual x tiles: the full ones and a merged last one (as many as x tiles without merging).
    return fused_handoff_words_of<TcovfemPlaneHigh<double, 8>, 8>(nx, ny, nz);
}

// 2 blocks per SM by default: 16 warps at 128 registers (a few bytes spilled) took 386 us a step
// on the H100 against 403 us for 8 warps at 173 registers (2 mm model, M = 8).
void launch_tcovfem_fused_step(const FusedStepArgs<double>& a, bool damped, cudaStream_t stream) {
    if (a.stages <= 4)
        launch_fused_plane<double, false, TcovfemPlaneLow>(a, damped, 2, stream);
    else
        launch_fused_plane<double, false, TcovfemPlaneHigh>(a, damped, 2, stream);
}

}  // namespace voxwave::cuda
