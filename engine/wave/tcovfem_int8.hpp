// TCOVFEM (seed 000 §2.2, eqs. 9-17): the OVFEM element product K_e u_e on 8-bit integers.
//
// Split of the element matrix (our normalisation, DESIGN §2, checked when the matrix is built):
//   K_e = kappa K_kappa + G K_G,   256 K_kappa / ds and 384 K_G / ds are integer matrices;
//   384 K_G / ds = 245 I + (off-diagonal integers in [-77, 70]); 256 K_kappa / ds in [-49, 49].
// So with A = [256 K_kappa / ds | 384 K_G / ds - 245 I] (24 x 48, int8) and the 48-vector
//   ubar = [ (kappa ds / 256) u ; (G ds / 384) u ],
//   K_e u = A ubar + 245 (G ds / 384) u,
// where the last (diagonal) term stays in FP64 and is summed per node once (node_diagonal).
//
// Integer expansion of A ubar (hierarchical FP64 -> INT64 -> INT8):
//   * per-element scale s_e = 2^e, a power of two strictly above max |ubar| (eq. 10; the
//     smallest or one above it, see tcovfem_element_exponent; a power of two so the scaling
//     itself is exact);
//   * ONE conversion to INT64 (eq. 12), keeping M stages of 7 bits: q_M = round(ubar / s_e 2^(7M)),
//     |q_M| < 2^(7M) (M = 8: a = 2^56), where ubar / s_e 2^(7M) = w (factor 2^(7M - e)), the
//     exact product (tcovfem_column_scale), rounded once to an integer: not first to FP64, which
//     above 2^53 loses up to 3 of q_M's bits. Round to nearest, ties to even: unbiased (a floor's
//     constant half-unit bias grew over a full paper run to 3.4e-13 of the traces, against OVFEM
//     FP64). CPU and GPU take it with two fmas and an add (tcovfem_split_product);
//   * q_M split into M digits of b = 2^7 (eq. 16): digits 0..M-2 are in [0, 127], the top digit
//     is signed in [-128, 127] (all int8). The split Tensor Core kernel uses these digits; the fused
//     GPU step feeds q_M's own bytes instead (base 256, tcovfem_split_product), the same integer;
//   * each digit product r_j = A d_j is exact in INT32 (|r_j| <= 48 * 77 * 128 < 2^19) and runs on
//     INT8 Tensor Cores on the GPU (eq. 17);
//   * digits 0..3 are combined in INT64 (lo, < 2^47) and digits 4..M-1 likewise (hi), so
//     A q_M = hi 2^28 + lo is exact; the only rounding is  y = (hi 2^28 + lo) 2^(e - 7M) in FP64.
// M = 8 therefore has FP64-level accuracy (better than FP64 arithmetic, which rounds at every
// operation); M = 4 keeps 28 bits (FP32 level), as in the paper's Table 3.
// Because every integer step is exact, lo and hi are the same numbers however they are
// computed: the CPU uses two INT64 products (A (q_M mod 2^28) and A (q_M >> 28)), the GPU
// Horner-combines the 8-bit Tensor Core digit (or byte) products; both give bit-identical element forces.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/host_device.hpp"
#include "model/material.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave {

inline constexpr int kTcovfemMaxStages = 8;   // M
inline constexpr int kTcovfemDigitBits = 7;   // b = 2^7
inline constexpr int kTcovfemFixedBits = 56;  // a = 2^56
inline constexpr double kTcovfemKappaDenominator = 256.0;
inline constexpr double kTcovfemShearDenominator = 384.0;
inline constexpr int kTcovfemShearDiagonal = 245;

// A = [256 K_kappa / ds | 384 K_G / ds - 245 I]: row = output dof (local node order of
// voxel_element_kernel.hpp), column k < 24 = kappa part of input dof k, k >= 24 = G part of dof k - 24.
struct TcovfemInt8Matrix {
    std::int8_t a[24][48];
};

// Built by probing the OVFEM moment kernel with unit vectors. Throws RuntimeError if an entry
// is not an integer, does not fit int8, or the G diagonal is not 245 (i.e. if the derivation
// in the header comment were wrong for this kernel).
TcovfemInt8Matrix build_tcovfem_int8_matrix();

// kappa ds / 256 and G ds / 384 of a material: the two factors that build ubar.
struct TcovfemMaterialFactors {
    double kappa = 0, shear = 0;
};

// 2^n as a double. Built from its bits where it is a normal number (the GPU's ldexp is a
// multi-instruction library call, this is two integer operations); multiplying by it rounds
// exactly as ldexp does, since both round the same exact product once.
VOXWAVE_HD double tcovfem_pow2(int n) {
    if (n < -1022 || n > 1023) return ldexp(1.0, n);
    const std::uint64_t bits = std::uint64_t(1023 + n) << 52;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

// The factors of every material id at spacing ds (materials[id - 1]; id 0, void, stays {0, 0}).
// Throws RuntimeError for more than 255 materials.
std::array<TcovfemMaterialFactors, 256> tcovfem_material_factors(const std::vector<Material>& materials, double ds);

// TCOVFEM's FP64 diagonal per node: D_n = sum over the elements at node n of 245 G_e ds / 384.
std::vector<double> tcovfem_node_diagonal(const VoxelGrid& grid,
                                          const std::array<TcovfemMaterialFactors, 256>& factors);

// Exponents stay at or above this, so that 2^(56 - e) times a material factor is finite: an
// element whose inputs are all below about 2^-900 (a wave's far precursor) keeps fewer bits,
// with an absolute error below 2^-956.
inline constexpr int kTcovfemMinExponent = -900;

// The top 32 bits of |x| (exponent and 20 mantissa bits); as unsigned integers they order
// like |x|.
VOXWAVE_HD std::uint32_t tcovfem_abs_high_word(double x) {
    std::uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return static_cast<std::uint32_t>(bits >> 32) & 0x7fffffffu;
}

// The element's scale exponent (eq. 10): s_e = 2^e strictly above every |ubar| = |factor w|,
// with room for rounding to M stages: |ubar| / s_e 2^(7M) < 2^(7M) - 1/2, so |q_M| < 2^(7M).
// max_high is the largest tcovfem_abs_high_word of the element's 24 inputs w (one integer max
// per input on the GPU, which has no FP64 max instruction: fmax costs a compare, selects and
// moves). That word completed with ones below is m >= max |w|; p = round(max(kappa, G factor) m)
// >= max |ubar|, raised by 2^-7M relative (a no-op for M = 8, where the 53-bit ubar cannot round
// up to 2^56), and e is the exponent just above it: the smallest such power of two, or one
// above it (m exceeds max |w| by less than 2^-20 relative). Never below kTcovfemMinExponent.
VOXWAVE_HD int tcovfem_element_exponent(std::uint32_t max_high, double factor_max, int stages) {
    const std::uint64_t m_bits = (std::uint64_t(max_high) << 32) | 0xffffffffu;
    double m;
    memcpy(&m, &m_bits, sizeof m);
    const double p0 = factor_max * m;
    const double p = fma(p0, tcovfem_pow2(-kTcovfemDigitBits * stages), p0);  // the product is exact
    std::uint64_t p_bits;
    memcpy(&p_bits, &p, sizeof p_bits);
    // p = f 2^(biased - 1023), f in [1, 2)  =>  p < 2^(biased - 1022); 0 and subnormals: 2^-1022.
    const int e = int((p_bits >> 52) & 0x7ff) - 1022;
    return e > kTcovfemMinExponent ? e : kTcovfemMinExponent;
}

// The factor that scales an input w of a column into the integer range: factor 2^(bits - e) is
// exact (power-of-two scaling), and round(w factor 2^(bits - e)) of the exact product
// (tcovfem_to_int64) keeps `bits` bits below s_e.
VOXWAVE_HD double tcovfem_column_scale(double factor, int e, int bits) { return factor * tcovfem_pow2(bits - e); }

// Digit j (0 = least significant) of q_M = sum_j 128^j d_j: unsigned 7-bit below the top digit,
// signed top digit. Every digit fits int8.
VOXWAVE_HD int tcovfem_digit(std::int64_t q_m, int j, int stages) {
    const std::int64_t shifted = q_m >> (kTcovfemDigitBits * j);
    return j == stages - 1 ? static_cast<int>(shifted) : static_cast<int>(shifted & 127);
}

// Low part of q_M for the INT64 product: digits 0..3 (all of q_M when M <= 4).
VOXWAVE_HD std::int64_t tcovfem_low_part(std::int64_t q_m, int stages) {
    return stages <= 4 ? q_m : (q_m & ((std::int64_t(1) << 28) - 1));
}
// High part: digits 4..M-1 (0 when M <= 4).
VOXWAVE_HD std::int64_t tcovfem_high_part(std::int64_t q_m, int stages) { return stages <= 4 ? 0 : (q_m >> 28); }

// 1.5 2^52: for |x| < 2^51, x + C lands where one unit is the last mantissa bit, so the low 32
// bits of the rounded sum are round(x) (to nearest, ties to even) in two's complement, and the
// high 32 bits are 0x43380000 + (the sign extension of round(x) above bit 31). The GPU rounds
// this way because FP64 <-> integer conversions run at a quarter of the FP64 rate on sm_80 and
// sm_90, while an add runs at full rate.
inline constexpr double kTcovfemRoundingBias = 6755399441055744.0;

// q = round(w scale) of the EXACT product (to nearest, ties to even; |w scale| < 2^63) as two
// 32-bit words, q = hi 2^32 + lo with lo unsigned: the fused GPU step's byte digits. The bytes of
// lo are base-256 digits 0..3 in [0, 255] and the bytes of hi (two's complement) digits 4..7,
// the top one signed; so the product A q is a sum of exact u8 x s8 (and, for the top byte,
// s8 x s8) Tensor Core products, with no digit spreading at all: q's own bits are the digits.
// How, with x = w scale 2^-32 (never formed): hi_bits = w scale + 1.5 2^84 rounded once lies
// where one unit is 2^32, so it is (1.5 2^52 + hi0) 2^32 with hi0 = round(x), and its low word
// is hi0. C = 1.5 2^52 (1 + 2^32) - hi_bits = 1.5 2^52 - hi0 2^32 is exact, so d_bits = w scale
// + C rounded once is 1.5 2^52 + d with d = round((x - hi0) 2^32), |d| <= 2^31; q = hi0 2^32 + d
// because 2^32 is even (ties to even carry over). d's low word is lo, and its high word says
// whether d < 0, i.e. whether hi0 must lend 1 to make lo unsigned: hi = hi0 + (high word -
// 0x43380000). Two fmas and a subtraction; the GPU keeps only `scale` live (a second, 2^-32
// scaled copy beside it spilled, s11 run 8).
struct TcovfemWords {
    std::int32_t hi = 0;
    std::uint32_t lo = 0;
};
VOXWAVE_HD TcovfemWords tcovfem_split_product(double w, double scale) {
    const double hi_bits = fma(w, scale, kTcovfemRoundingBias * 4294967296.0);  // (bias + hi0) 2^32
    const double c = kTcovfemRoundingBias * 4294967297.0 - hi_bits;
    const double d_bits = fma(w, scale, c);
    std::uint64_t r, d;
    memcpy(&r, &hi_bits, sizeof r);
    memcpy(&d, &d_bits, sizeof d);
    TcovfemWords out;
    out.lo = static_cast<std::uint32_t>(d);
    out.hi =
        static_cast<std::int32_t>(static_cast<std::uint32_t>(r) + static_cast<std::uint32_t>(d >> 32) - 0x43380000u);
    return out;
}

// The one FP64 -> INT64 conversion (eq. 12): q_M = round(w factor 2^(7M - e)) to nearest (ties
// to even), column_scale = tcovfem_column_scale(factor, e, 7M), |w column_scale| < 2^62.
// The exact product is rounded to an integer once, not first to FP64: for |q_M| > 2^53 an FP64
// product has already lost up to 3 of q_M's bits, and on the GPU the exact rounding costs an fma
// where the double rounding cost a multiply and an add. Host and GPU use the same
// tcovfem_split_product.
VOXWAVE_HD std::int64_t tcovfem_to_int64(double w, double column_scale) {
    const TcovfemWords q = tcovfem_split_product(w, column_scale);
    return static_cast<std::int64_t>(q.hi) * 4294967296ll + static_cast<std::int64_t>(q.lo);
}

// The single rounding: (hi 2^28 + lo) 2^(e - 7M).
VOXWAVE_HD double tcovfem_combine(std::int64_t hi, std::int64_t lo, int e, int stages) {
    const double exact_sum = static_cast<double>(hi) * 268435456.0 + static_cast<double>(lo);  // hi 2^28 + lo
    return exact_sum * tcovfem_pow2(e - kTcovfemDigitBits * stages);
}

// Reference element product on the CPU (and the oracle for the Tensor Core kernel):
// f = A ubar for the element's 24 input dofs w (the FP64 diagonal term NOT included).
inline void tcovfem_element_force_int(const TcovfemInt8Matrix& A, const double* w, TcovfemMaterialFactors m, int stages,
                                      double* f) {
    std::uint32_t max_high = 0;
    for (int d = 0; d < 24; ++d) max_high = std::max(max_high, tcovfem_abs_high_word(w[d]));
    const int e = tcovfem_element_exponent(max_high, std::fmax(m.kappa, m.shear), stages);
    const double scale[2] = {tcovfem_column_scale(m.kappa, e, kTcovfemDigitBits * stages),
                             tcovfem_column_scale(m.shear, e, kTcovfemDigitBits * stages)};
    std::int64_t lo_in[48], hi_in[48];
    for (int k = 0; k < 48; ++k) {
        const std::int64_t q_m = tcovfem_to_int64(w[k % 24], scale[k / 24]);
        lo_in[k] = tcovfem_low_part(q_m, stages);
        hi_in[k] = tcovfem_high_part(q_m, stages);
    }
    for (int r = 0; r < 24; ++r) {
        std::int64_t lo = 0, hi = 0;  // |lo|, |hi| < 48 * 77 * 2^28 < 2^41: no overflow
        for (int k = 0; k < 48; ++k) {
            lo += std::int64_t(A.a[r][k]) * lo_in[k];
            hi += std::int64_t(A.a[r][k]) * hi_in[k];
        }
        f[r] = tcovfem_combine(hi, lo, e, stages);
    }
}

}  // namespace voxwave
