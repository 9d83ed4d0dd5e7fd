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
//   * per-element scale s_e = 2^e, the smallest power of two strictly above max |ubar| (eq. 10;
//     a power of two so the scaling itself is exact);
//   * ONE conversion to INT64: q = floor(ubar / s_e * a), a = 2^56 (eq. 12), -2^56 <= q < 2^56
//     (floor, not truncation: the GPU takes it with one rounded-down add, see tcovfem_mma.cuh);
//   * keep M stages: q_M = floor(q / 2^(7 (8 - M))), split into M digits of b = 2^7 (eq. 16):
//     digits 0..M-2 are in [0, 127], the top digit is signed in [-128, 127] (all int8);
//   * each digit product r_j = A d_j is exact in INT32 (|r_j| <= 48 * 77 * 128 < 2^19) and runs on
//     INT8 Tensor Cores on the GPU (eq. 17);
//   * digits 0..3 are combined in INT64 (lo, < 2^47) and digits 4..M-1 likewise (hi), so
//     A q_M = hi 2^28 + lo is exact; the only rounding is  y = (hi 2^28 + lo) 2^(e - 7M) in FP64.
// M = 8 therefore has FP64-level accuracy (better than FP64 arithmetic, which rounds at every
// operation); M = 4 keeps 28 bits (FP32 level), as in the paper's Table 3.
// Because every integer step is exact, lo and hi are the same numbers however they are
// computed: the CPU uses two INT64 products (A (q_M mod 2^28) and A (q_M >> 28)), the GPU
// Horner-combines the 8-bit Tensor Core digit products; both give bit-identical element forces.
#pragma once

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

// Exponent e of s_e = 2^e > max_abs (strictly); 0 when max_abs == 0 (then every q is 0).
VOXWAVE_HD int tcovfem_scale_exponent(double max_abs) {
    if (!(max_abs > 0)) return 0;
    std::uint64_t bits;
    memcpy(&bits, &max_abs, sizeof bits);
    const int biased = int((bits >> 52) & 0x7ff);
    if (biased == 0) {  // subnormal: rare, let the library do it
        int e = 0;
        (void)frexp(max_abs, &e);
        return e;
    }
    return biased - 1022;  // max_abs = f 2^e with f in [0.5, 1)  =>  max_abs < 2^e
}

// The one FP64 -> INT64 conversion (eq. 12): floor(x / 2^e * 2^56), in [-2^56, 2^56) when |x| < 2^e.
VOXWAVE_HD std::int64_t tcovfem_to_int64(double x, int e) {
    return static_cast<std::int64_t>(floor(x * tcovfem_pow2(kTcovfemFixedBits - e)));
}

// Keeps the top M of the 8 base-128 digits (floor division; exact arithmetic shift).
VOXWAVE_HD std::int64_t tcovfem_keep_stages(std::int64_t q, int stages) {
    return q >> (kTcovfemDigitBits * (kTcovfemMaxStages - stages));
}

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

// The single rounding: (hi 2^28 + lo) 2^(e - 7M).
VOXWAVE_HD double tcovfem_combine(std::int64_t hi, std::int64_t lo, int e, int stages) {
    const double exact_sum = static_cast<double>(hi) * 268435456.0 + static_cast<double>(lo);  // hi 2^28 + lo
    return exact_sum * tcovfem_pow2(e - kTcovfemDigitBits * stages);
}

// Reference element product on the CPU (and the oracle for the Tensor Core kernel):
// f = A ubar for the element's 24 input dofs w (the FP64 diagonal term NOT included).
inline void tcovfem_element_force_int(const TcovfemInt8Matrix& A, const double* w, TcovfemMaterialFactors m, int stages,
                                      double* f) {
    double ubar[48];
    double max_abs = 0;
    for (int d = 0; d < 24; ++d) {
        ubar[d] = m.kappa * w[d];
        ubar[24 + d] = m.shear * w[d];
    }
    for (double v : ubar) max_abs = std::fmax(max_abs, std::fabs(v));
    const int e = tcovfem_scale_exponent(max_abs);
    std::int64_t lo_in[48], hi_in[48];
    for (int k = 0; k < 48; ++k) {
        const std::int64_t q_m = tcovfem_keep_stages(tcovfem_to_int64(ubar[k], e), stages);
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
