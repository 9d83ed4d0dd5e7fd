// TCOVFEM (seed 000 §2.2, eqs. 9-17): the OVFEM element product K_e u_e on 8-bit integers.
//
// Split of the element matrix (our normalisation, docs/architecture.md#tcovfem-on-int8-tensor-cores,
// checked when the matrix is built):
//   K_e = kappa K_kappa + G K_G,   256 K_kappa / ds and 384 K_G / ds are integer matrices;
//   384 K_G / ds = 245 I + (off-diagonal integers in [-77, 70]); 256 K_kappa / ds in [-49, 49].
// So with A = [256 K_kappa / ds | 384 K_G / ds - 245 I] (24 x 48, int8) and the 48-vector
//   ubar = [ (kappa ds / 256) u ; (G ds / 384) u ],
//   K_e u = A ubar + 245 (G ds / 384) u,
// where the last (diagonal) term stays in FP64 and is summed per node once (node_diagonal).
//
// Integer expansion of A ubar (hierarchical FP64 -> INT64 -> INT8):
//   * per-element scale s_e = 2^e, a power of two strictly above max |ubar| (eq. 10; the
//     smallest or one above it, see tcovfem_element_exponent, and for M = 8 one more, so that
//     |q_8| < 2^55: tcovfem_scale_headroom_bits; a power of two so the scaling itself is exact);
//   * ONE conversion to INT64 (eq. 12), keeping M stages of 7 bits: q_M = round(ubar / s_e 2^(7M)),
//     |q_M| < 2^(7M) (M = 8: a = 2^56), where ubar / s_e 2^(7M) = w (factor 2^(7M - e))
//     (tcovfem_column_scale), rounded to nearest, ties to even (unbiased: a floor's constant
//     half-unit bias grew over a full paper run to 3.4e-13 of the traces, against OVFEM FP64).
//     How (tcovfem_quantize):
//       - M <= 4: the exact product rounded once, one fma on CPU and GPU (tcovfem_to_int64);
//       - M >= 5: as the paper does, the FP64 product, then one FP64 -> INT64 conversion
//         (tcovfem_product_to_int64). For M = 8 the product keeps 53 of q_M's 56 bits, as
//         FP64 arithmetic would. Why not the exact rounding there: it takes three FP64
//         operations per input, and on the H100 FP64 instructions and the INT8 Tensor Core
//         products issue through one pipe, while the conversion (F2I.S64.F64) runs on another
//         (bench/micro/shared_pipe_h100.cu). The fused step took 209 us against 222.6 with it
//         (2 mm paper model, cuda-bench.md), and its traces stay as close to OVFEM
//         FP64 (3.7e-14 against 4.9e-14 over the full paper run);
//   * q_M split into M digits of b = 2^7 (eq. 16): digits 0..M-2 are in [0, 127], the top digit
//     is signed in [-128, 127] (all int8). The split Tensor Core kernel uses these digits; the fused
//     GPU step feeds q_M's own bytes instead (base 256: q_M's two 32-bit words), the same integer;
//   * each digit product r_j = A d_j is exact in INT32 (|r_j| <= 48 * 77 * 128 < 2^19) and runs on
//     INT8 Tensor Cores on the GPU (eq. 17);
//   * digits 0..3 are combined in INT64 (lo, < 2^47) and digits 4..M-1 likewise (hi), so
//     A q_M = hi 2^28 + lo is exact; the only rounding is  y = (hi 2^28 + lo) 2^(e - 7M) in FP64.
// M = 8 therefore has FP64-level accuracy (one rounding of each input and one of each output,
// where FP64 arithmetic rounds at every operation); M = 4 keeps 28 bits (FP32 level), as in the
// paper's Table 3.
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
#include "scene/run_rules.hpp"

namespace voxwave {

inline constexpr int kTcovfemDigitBits = 7;   // b = 2^7
inline constexpr int kTcovfemFixedBits = 56;  // a = 2^56
// M = 1..kTcovfemMaxStages (scene/run_rules.hpp): every digit of an input fits the fixed point.
static_assert(kTcovfemMaxStages * kTcovfemDigitBits <= kTcovfemFixedBits);
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

// M = 8: s_e one power of two higher than the other M need, so that |q_8| < 2^55 and q_8's
// seventh byte (bits 48..55) holds its sign: the fused GPU step then takes 7 byte products
// (bytes 0-5 unsigned, byte 6 signed) where 8 were needed with |q_8| < 2^56, whose eighth byte
// was only the sign (0 or -1). The cost is one bit at the element's largest input: it keeps
// 55 bits where the FP64 product that makes it (tcovfem_product_to_int64) has rounded to 53.
// The paper's a = 2^56, M = 8 digits of b = 2^7 and the single conversion are unchanged; only
// s_e, already a power of two above max |ubar| rather than max |ubar| itself, moves.
// stages >> 3 is 1 for M = 8 and 0 for M = 1..7 (a compare and select spilled 8 bytes more in
// the split GPU kernel).
VOXWAVE_HD int tcovfem_scale_headroom_bits(int stages) { return stages >> 3; }

// The element's scale exponent (eq. 10): s_e = 2^e strictly above every |ubar| = |factor w|,
// with room for rounding to M stages: |q_M| < 2^(7M), so the top digit fits int8. For M >= 5 the
// FP64 product of tcovfem_product_to_int64 rounds too (to 8 units near 2^56 for M = 8): the raise
// below, 2^-(6M + 1) relative, is at least 2^-7M (room for rounding to an integer) and for M = 8
// 2^-49, which keeps |ubar| / s_e 2^56 < 2^56 - 96, whose FP64 product cannot round up to 2^56;
// with the headroom bit, |ubar| / s_e 2^56 < 2^55 - 48 and |q_8| < 2^55.
// max_high is the largest tcovfem_abs_high_word of the element's 24 inputs w (one integer max
// per input on the GPU, which has no FP64 max instruction: fmax costs a compare, selects and
// moves). That word completed with ones below is m >= max |w|; p = round(max(kappa, G factor) m)
// >= max |ubar| (to within its rounding, 2^-53 relative), raised by 2^-(6M + 1) relative, and
// e is the exponent just above it: the smallest such power of two, or one
// above it (m exceeds max |w| by less than 2^-20 relative). Never below kTcovfemMinExponent.
// M = 8 takes one power of two more (tcovfem_scale_headroom_bits): |q_8| < 2^55.
// The raise 2^-(6M + 1) of tcovfem_element_exponent, from its bits: a normal number for every
// M = 1..kTcovfemMaxStages (validate_scene refuses other M), equal to tcovfem_pow2(-(6M + 1)), whose
// ldexp branch for other exponents the GPU cannot rule out for a run-time M: the fused step
// issued its predicated DMULs and moves, about 35 instructions, in every warp's element plane
// (Nsight Compute source counters).
VOXWAVE_HD double tcovfem_exponent_raise(int stages) {
    const std::uint64_t bits = std::uint64_t(1022 - 6 * stages) << 52;
    double r;
    memcpy(&r, &bits, sizeof r);
    return r;
}

VOXWAVE_HD int tcovfem_element_exponent(std::uint32_t max_high, double factor_max, int stages) {
    const std::uint64_t m_bits = (std::uint64_t(max_high) << 32) | 0xffffffffu;
    double m;
    memcpy(&m, &m_bits, sizeof m);
    const double p0 = factor_max * m;
    // 6M + 1, not min(7M, 50): the same bounds without a min, which cost the fused GPU step a spill.
    const double p = fma(p0, tcovfem_exponent_raise(stages), p0);  // the product is exact
    std::uint64_t p_bits;
    memcpy(&p_bits, &p, sizeof p_bits);
    // p = f 2^(biased - 1023), f in [1, 2)  =>  p < 2^(biased - 1022); 0 and subnormals: 2^-1022.
    const int e = int((p_bits >> 52) & 0x7ff) - 1022 + tcovfem_scale_headroom_bits(stages);
    return e > kTcovfemMinExponent ? e : kTcovfemMinExponent;
}

// The factor that scales an input w of a column into the integer range: factor 2^(bits - e) is
// exact (power-of-two scaling), and round(w factor 2^(bits - e)) of the exact product
// (tcovfem_quantize) keeps `bits` bits below s_e.
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
// sm_90, while an add runs at full rate. (M >= 5 converts with F2I after all, for another reason:
// see tcovfem_product_to_int64.)
inline constexpr double kTcovfemRoundingBias = 6755399441055744.0;

// q = round(w scale) of the EXACT product (to nearest, ties to even; |w scale| < 2^63) as two
// 32-bit words, q = hi 2^32 + lo with lo unsigned. How, with x = w scale 2^-32 (never formed):
// hi_bits = w scale + 1.5 2^84 rounded once lies where one unit is 2^32, so it is
// (1.5 2^52 + hi0) 2^32 with hi0 = round(x), and its low word is hi0. C = 1.5 2^52 (1 + 2^32) -
// hi_bits = 1.5 2^52 - hi0 2^32 is exact, so d_bits = w scale + C rounded once is 1.5 2^52 + d
// with d = round((x - hi0) 2^32), |d| <= 2^31; q = hi0 2^32 + d because 2^32 is even (ties to
// even carry over). d's low word is lo, and its high word says whether d < 0, i.e. whether hi0
// must lend 1 to make lo unsigned: hi = hi0 + (high word - 0x43380000).
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

// round(w column_scale) of the EXACT product, to nearest (ties to even), |w column_scale| < 2^62
// (tcovfem_split_product; the GPU's fused step takes the one fma of its M <= 4 case).
VOXWAVE_HD std::int64_t tcovfem_to_int64(double w, double column_scale) {
    const TcovfemWords q = tcovfem_split_product(w, column_scale);
    return static_cast<std::int64_t>(q.hi) * 4294967296ll + static_cast<std::int64_t>(q.lo);
}

// The paper's conversion (eq. 12): the FP64 product w column_scale, then one FP64 -> INT64
// conversion to nearest (ties to even). Bit-identical on CPU and GPU: one IEEE multiply, and an
// integer that the conversion represents exactly (|q| < 2^56 here). On the GPU this is a DMUL and
// an F2I.S64.F64, whose 64-bit result is q_M's two words (the fused step's byte digits).
VOXWAVE_HD std::int64_t tcovfem_product_to_int64(double w, double column_scale) {
#if defined(__CUDA_ARCH__)
    return __double2ll_rn(__dmul_rn(w, column_scale));
#else
    return std::llrint(w * column_scale);  // the default rounding mode: to nearest, ties to even
#endif
}

// The one FP64 -> INT64 conversion of an input (eq. 12): q_M = round(w factor 2^(7M - e)),
// column_scale = tcovfem_column_scale(factor, e, 7M); see the top of this file for why M <= 4
// rounds the exact product and M >= 5 the FP64 one.
VOXWAVE_HD std::int64_t tcovfem_quantize(double w, double column_scale, int stages) {
    return stages <= 4 ? tcovfem_to_int64(w, column_scale) : tcovfem_product_to_int64(w, column_scale);
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
        const std::int64_t q_m = tcovfem_quantize(w[k % 24], scale[k / 24], stages);
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
