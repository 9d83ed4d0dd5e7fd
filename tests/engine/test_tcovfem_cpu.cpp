// TCOVFEM on the CPU (seed 000 eqs. 9-17, Table 3): the INT8 matrix, the digit expansion, the
// element and global products against FP128, and the time loop against OVFEM FP64.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "assembly_util.hpp"
#include "core/errors.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/central_difference.hpp"
#include "wave/stiffness_quad_reference.hpp"
#include "wave/tcovfem_int8.hpp"
#include "wave/tcovfem_stiffness_cpu.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/voxel_element_matrix.hpp"
#include "wave/voxel_stiffness_cpu.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using voxwave::test::random_vector;
using namespace voxwave::testing;

namespace {

constexpr double kUlp = 0x1p-52;  // FP64 spacing at 1

Quad quad_abs(Quad x) { return x < 0 ? -x : x; }

TcovfemMaterialFactors factors_of(const Material& m, double ds) {
    return {m.bulk_modulus() * ds / 256.0, m.shear_modulus() * ds / 384.0};
}

// ---------------------------------------------------------------------------------------------
// The int8 matrix A = [256 K_kappa / ds | 384 K_G / ds - 245 I].

TEST(TcovfemInt8Matrix, EntriesLieInTheDerivedIntegerRanges) {
    const TcovfemInt8Matrix A = build_tcovfem_int8_matrix();
    int kmin = 0, kmax = 0, gmin = 0, gmax = 0;
    for (int r = 0; r < 24; ++r) {
        int row_kappa = 0, row_g = kTcovfemShearDiagonal;
        for (int c = 0; c < 24; ++c) {
            const int kv = A.a[r][c], gv = A.a[r][24 + c];
            kmin = std::min(kmin, kv);
            kmax = std::max(kmax, kv);
            if (r == c) {
                EXPECT_EQ(gv, 0) << "G diagonal (" << r << ") must be stored as 0: it stays in FP64";
            } else {
                gmin = std::min(gmin, gv);
                gmax = std::max(gmax, gv);
            }
            // Both blocks are symmetric (K is).
            EXPECT_EQ(kv, A.a[c][r]);
            EXPECT_EQ(gv, A.a[c][24 + r]);
            row_kappa += kv;
            row_g += gv;
        }
        // Rigid translations are zero-energy modes, so K (1, ..., 1) = 0: every row of each
        // block sums to 0 (the G block with its 245 diagonal put back).
        EXPECT_EQ(row_kappa, 0) << "row " << r;
        EXPECT_EQ(row_g, 0) << "row " << r;
    }
    // docs/architecture.md#tcovfem-on-int8-tensor-cores: 256 K_kappa / ds in [-49, 49], off-diagonal
    // 384 K_G / ds in [-77, 70]; the ranges are attained (so the int8 budget in the bit analysis is
    // the true one).
    EXPECT_EQ(kmin, -49);
    EXPECT_EQ(kmax, 49);
    EXPECT_EQ(gmin, -77);
    EXPECT_EQ(gmax, 70);
}

TEST(TcovfemInt8Matrix, RecombinesToTheOvfemElementMatrix) {
    // (ds/256) kappa A_kappa + (ds/384) G (A_G + 245 I) == K_e of OVFEM (from the moment kernel,
    // i.e. voxel_element_force). Both sides are FP64 evaluations of the same exact matrix; the
    // tolerance 1e-14 of max |K| allows the ~10 roundings of the kernel's moment sums.
    const TcovfemInt8Matrix A = build_tcovfem_int8_matrix();
    for (const Material& m : {concrete(), steel()}) {
        for (double ds : {0.002, 0.0013}) {
            const ElementMatrix K = voxel_element_stiffness(ElementMethod::Ovfem, ds, m);
            const double kappa = m.bulk_modulus(), G = m.shear_modulus();
            double kmax = 0, worst = 0;
            for (int r = 0; r < 24; ++r)
                for (int c = 0; c < 24; ++c) {
                    const double rebuilt = ds / 256.0 * kappa * A.a[r][c] +
                                           ds / 384.0 * G * (A.a[r][24 + c] + (r == c ? kTcovfemShearDiagonal : 0));
                    kmax = std::max(kmax, std::abs(K(r, c)));
                    worst = std::max(worst, std::abs(rebuilt - K(r, c)));
                }
            ASSERT_GT(kmax, 0);
            EXPECT_LT(worst / kmax, 1e-14) << m.name << " ds " << ds;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Digits (eqs. 12-17).

// floor(q / 2^s), written without shifts of negative numbers.
std::int64_t floor_div_pow2(std::int64_t q, int s) {
    const std::int64_t d = std::int64_t(1) << s;
    return q >= 0 ? q / d : -((-q + d - 1) / d);
}

TEST(TcovfemDigits, SignedBase128DigitsRecombineExactly) {
    std::mt19937_64 rng(2024);
    const std::int64_t lim = (std::int64_t(1) << 56) - 1;
    std::uniform_int_distribution<std::int64_t> Q(-lim, lim);
    // -2^56: floor(ubar / s_e * 2^56) reaches it when ubar / s_e is just above -1.
    std::vector<std::int64_t> qs = {
        0, 1, -1, 127, -128, lim, -lim, -lim - 1, std::int64_t(1) << 55, -(std::int64_t(1) << 55)};
    for (int t = 0; t < 20000; ++t) qs.push_back(Q(rng));
    // Small magnitudes too (elements whose entries are far below their scale s_e).
    std::uniform_int_distribution<std::int64_t> small(-(1 << 20), 1 << 20);
    for (int t = 0; t < 2000; ++t) qs.push_back(small(rng));
    int top_negative = 0;
    for (std::int64_t q : qs) {
        for (int M = 1; M <= 8; ++M) {
            const std::int64_t qm = floor_div_pow2(q, 7 * (8 - M));  // a q_M of M stages
            std::int64_t sum = 0, weight = 1;
            for (int j = 0; j < M; ++j) {
                const int d = tcovfem_digit(qm, j, M);
                ASSERT_GE(d, -128) << q << " M " << M << " j " << j;
                ASSERT_LE(d, 127) << q << " M " << M << " j " << j;
                if (j < M - 1) {
                    ASSERT_GE(d, 0) << q << " M " << M << " j " << j;
                }
                if (j == M - 1 && d < 0) ++top_negative;
                sum += weight * d;
                weight *= 128;
            }
            ASSERT_EQ(sum, qm) << q << " M " << M;
            const std::int64_t hi = tcovfem_high_part(qm, M), lo = tcovfem_low_part(qm, M);
            ASSERT_EQ(hi * (std::int64_t(1) << 28) + lo, qm) << q << " M " << M;
            if (M > 4) {
                ASSERT_GE(lo, 0);
                ASSERT_LT(lo, std::int64_t(1) << 28);
            }
        }
    }
    EXPECT_GT(top_negative, 1000);  // the signed top digit was exercised
}

// tcovfem_to_int64 (the conversion of M <= 4) rounds the EXACT product w s to the nearest integer
// (ties to even), not the product rounded to FP64 first. Oracle: __float128, where w s is exact
// (106 < 113 bits) and adding and subtracting 1.5 2^112 rounds to an integer, ties to even.
// Random products over the whole M = 8 range (|q| < 2^56; above 2^53 the FP64 product has lost
// bits), exact ties, and products just off a tie that FP64 rounds onto it.
TEST(TcovfemDigits, ConversionRoundsTheExactProductOnce) {
    auto oracle = [](double w, double s) {
        const __float128 magic = __float128(1.5) * __float128(5192296858534827628530496329220096.0);  // 1.5 2^112
        const __float128 x = __float128(w) * __float128(s);
        return static_cast<std::int64_t>((x + magic) - magic);
    };
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> U(1.0, 2.0);
    std::uniform_int_distribution<int> E(-10, 55);
    int double_rounding_differs = 0, checked = 0;
    auto check = [&](double w, double s) {
        const std::int64_t q = tcovfem_to_int64(w, s);
        ASSERT_EQ(q, oracle(w, s)) << w << " * " << s;
        const TcovfemWords words = tcovfem_split_product(w, s);
        ASSERT_EQ(std::int64_t(words.hi) * 4294967296ll + std::int64_t(words.lo), q);
        if (q != std::llrint(std::nearbyint(w * s))) ++double_rounding_differs;
        ++checked;
    };
    for (int t = 0; t < 200000; ++t) {
        const double w = (t & 1 ? -1.0 : 1.0) * U(rng), s = std::ldexp(U(rng), E(rng));
        if (std::fabs(w * s) < std::ldexp(1.0, 56)) check(w, s);
    }
    // Exact ties n + 1/2 (both parities, both signs) and w s = n + 1/2 + 2^-60 (FP64: a tie).
    for (double n : {2.0, 3.0, 1000.0, 1001.0, 4503599627370494.0}) {
        check(n + 0.5, 1.0);
        check(-(n + 0.5), 1.0);
        check((2 * n + 1) * 0.25, 2.0);
    }
    const double w = 1.0 + std::ldexp(1.0, -52), s = std::ldexp(2.5, 0) / w;  // w s = 2.5 - tiny
    check(w, s);
    EXPECT_GT(checked, 100000);
    EXPECT_GT(double_rounding_differs, 1000);  // products above 2^53 where the two differ
}

// tcovfem_split_product's words of q = round(x 2^32): q = hi 2^32 + lo with lo unsigned, so q's
// bytes are its base-256 digits (bytes 0-6 unsigned, byte 7 signed; for |q| < 2^55 bytes 0-5
// unsigned and byte 6 signed, the layout the fused GPU step takes from F2I's 64-bit result).
// Oracle: nearbyint of the exact x 2^32 (ties to even), for random x over the whole M = 8 range
// (|x| < 2^24, so |q| < 2^56), ties, and the two cases where the low part is exactly +-2^31 (hi
// must lend only for -2^31).
TEST(TcovfemDigits, WordsOfQAreItsBase256Digits) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    std::uniform_int_distribution<int> E(-40, 24);
    // Zeros, halves (ties of round(x)), ties at 2^-32, both ends of the range, near-integers.
    std::vector<double> xs = {0.0,
                              -0.0,
                              1.0,
                              -1.0,
                              2.5,
                              3.5,
                              -2.5,
                              -3.5,
                              0.5,
                              -0.5,
                              std::ldexp(1.0, -33),
                              -std::ldexp(1.0, -33),
                              std::ldexp(3.0, -33),
                              std::ldexp(1.0, 24) - std::ldexp(1.0, -29),
                              -std::ldexp(1.0, 24) + std::ldexp(1.0, -29),
                              0.999999999999,
                              -0.999999999999,
                              12345.5,
                              -12345.5};
    for (int t = 0; t < 300000; ++t) {
        const double x = std::ldexp(U(rng), E(rng));
        if (std::fabs(x) < std::ldexp(1.0, 24)) xs.push_back(x);
    }
    int lent = 0, seven_bytes = 0;
    for (double x : xs) {
        const TcovfemWords w = tcovfem_split_product(x, 4294967296.0);  // q = round(x 2^32)
        const std::int64_t q = std::llrint(std::nearbyint(std::ldexp(x, 32)));
        ASSERT_EQ(std::int64_t(w.hi) * 4294967296ll + std::int64_t(w.lo), q) << x;
        // Byte by byte, as the Tensor Cores take them: seven unsigned, the top one signed.
        const std::uint64_t bits = (std::uint64_t(std::uint32_t(w.hi)) << 32) | w.lo;
        std::int64_t sum = 0;
        for (int j = 0; j < 7; ++j) sum += std::int64_t((bits >> (8 * j)) & 0xffu) << (8 * j);
        sum += std::int64_t(std::int8_t(bits >> 56)) * (std::int64_t(1) << 56);
        ASSERT_EQ(sum, q) << x;
        ASSERT_TRUE(std::int8_t(bits >> 56) == 0 || std::int8_t(bits >> 56) == -1) << x;  // |q| < 2^56
        if (std::llabs(q) < (std::int64_t(1) << 55)) {
            // M = 8 (|q| < 2^55, tcovfem_scale_headroom_bits): seven bytes, byte 6 signed.
            std::int64_t seven = std::int64_t(std::int8_t(bits >> 48)) * (std::int64_t(1) << 48);
            for (int j = 0; j < 6; ++j) seven += std::int64_t((bits >> (8 * j)) & 0xffu) << (8 * j);
            ASSERT_EQ(seven, q) << x;
            ++seven_bytes;
        }
        if (x != std::nearbyint(x) && std::int64_t(w.hi) < std::llrint(std::nearbyint(x))) ++lent;
    }
    EXPECT_GT(lent, 1000);  // the lending path (negative low part) was exercised
    EXPECT_GT(seven_bytes, 100000);
}

// The byte chains of the fused GPU step stay inside INT32 for every row of A: bytes 0-5 in
// [0, 255] chained two at a time (c = 256 c + A d), byte 6 in [-128, 127] alone, and for M <= 4
// the three top bytes of a 28-bit q (top byte in [-16, 15]). The bounds use the row sums of |A|
// of the matrix the engine builds, and the INT64 joins of the chains in pairs (low word: C1 2^16
// + C0, high word: C3 2^16 + C2) stay below 2^51, where the GPU moves them to FP64 exactly.
TEST(TcovfemDigits, ByteChainsOfTheFusedStepFitInt32) {
    const TcovfemInt8Matrix a = build_tcovfem_int8_matrix();
    std::int64_t row_sum = 0;
    for (const auto& row : a.a) {
        std::int64_t s = 0;
        for (std::int8_t v : row) s += std::abs(int(v));
        row_sum = std::max(row_sum, s);
    }
    EXPECT_EQ(row_sum, 1013);  // the figure quoted in tcovfem_step_fused_cuda.cu
    const std::int64_t limit = std::int64_t(1) << 31;
    const std::int64_t c_pair = row_sum * (255 * 256 + 255), c_top = row_sum * 128;
    EXPECT_LT(c_pair, limit);
    EXPECT_LT(c_top, limit);
    EXPECT_LT(row_sum * (16 * 65536 + 255 * 256 + 255), limit);  // M <= 4: bytes 3 2 1
    EXPECT_GE(row_sum * (255 * 65536), limit);                   // three unsigned bytes would not fit
    EXPECT_LT(c_pair * 65536 + c_pair, std::int64_t(1) << 43);   // low word
    EXPECT_LT(c_top * 65536 + c_pair, std::int64_t(1) << 35);    // high word
    // The chains joined as low parts (C0 and C2; C0 of M <= 4) carry the bias 2^27
    // (kTcovfemChainBias, tcovfem_mma.cuh): C + 2^27 must be positive and fit int32.
    const std::int64_t bias = std::int64_t(1) << 27;
    EXPECT_LT(c_pair, bias);
    EXPECT_LT(c_pair + bias, limit);
    EXPECT_LT(c_pair * 65536 + c_pair + bias, std::int64_t(1) << 51);  // join_bits' range
    // 1.5 2^52 + bias is an exact double (kTcovfemJoinBias), so taking it out is exact.
    const double rounding_bias = 6755399441055744.0;
    EXPECT_EQ((rounding_bias + double(bias)) - rounding_bias, double(bias));
}

// M >= 5 converts as the paper does (eq. 12): the FP64 product, rounded to nearest (ties to
// even) to an integer. Oracle: the exact product in FP128 (113 bits hold it) rounded to FP64 by
// the FP128 -> FP64 conversion, then to an integer by nearbyint; plus a product whose exact and
// FP64 roundings differ, and M <= 4, which keeps the exact rounding.
TEST(TcovfemDigits, FiveStagesAndMoreConvertTheFp64Product) {
    auto oracle = [](double w, double s) {
        return std::llrint(std::nearbyint(static_cast<double>(__float128(w) * __float128(s))));
    };
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> U(1.0, 2.0);
    std::uniform_int_distribution<int> E(-10, 55);
    int exact_differs = 0, checked = 0;
    for (int t = 0; t < 200000; ++t) {
        const double w = (t & 1 ? -1.0 : 1.0) * U(rng), s = std::ldexp(U(rng), E(rng));
        if (std::fabs(w * s) >= std::ldexp(1.0, 56)) continue;
        const std::int64_t q = tcovfem_product_to_int64(w, s);
        ASSERT_EQ(q, oracle(w, s)) << w << " * " << s;
        for (int M : {5, 8}) ASSERT_EQ(tcovfem_quantize(w, s, M), q);
        // Never more than half a unit of the product's last place from the exact rounding.
        const std::int64_t exact = tcovfem_to_int64(w, s);
        const double ulp = std::ldexp(1.0, std::max(0, std::ilogb(w * s) - 52));
        ASSERT_LE(std::llabs(q - exact), std::llrint(ulp / 2 + 1)) << w << " * " << s;
        if (q != exact) ++exact_differs;
        ++checked;
    }
    EXPECT_GT(checked, 100000);
    EXPECT_GT(exact_differs, 1000);  // above 2^53 the FP64 product has lost bits
    // (1 + 2^-52)(2^53 - 1) = 2^53 + 1 - 2^-52 exactly: rounded once it is 2^53 + 1; as an FP64
    // product (one unit is 2 there, and 1 - 2^-52 is below the midpoint) it is 2^53.
    const double w = 1.0 + std::ldexp(1.0, -52), s = std::ldexp(1.0, 53) - 1.0;
    const std::int64_t two53 = std::int64_t(1) << 53;
    EXPECT_EQ(tcovfem_to_int64(w, s), two53 + 1);
    EXPECT_EQ(tcovfem_product_to_int64(w, s), two53);
    EXPECT_EQ(tcovfem_quantize(w, s, 8), two53);
    EXPECT_EQ(tcovfem_quantize(w, s, 4), two53 + 1);
    // Ties to even: the conversion of an FP64 value n + 1/2.
    EXPECT_EQ(tcovfem_product_to_int64(2.5, 1.0), 2);
    EXPECT_EQ(tcovfem_product_to_int64(-3.5, 1.0), -4);
}

// For M = 8 the element's largest input sits just below 2^55 after scaling (s_e has one power
// of two of headroom), where the FP64 product rounds to 4 units: inputs and factors a few units
// below and above 1 (their products a hair below a power of two) must still give |q_M| < 2^55,
// or q_M's byte 6 would not hold its sign and the fused GPU step's 7 byte products would be
// wrong (and without the room for rounding, the split kernel's top digit would overflow int8).
TEST(TcovfemDigits, EightStagesStayBelow2To55) {
    const std::int64_t limit = std::int64_t(1) << 55;
    std::int64_t largest = 0;
    for (int j = 1; j <= 64; ++j)
        for (int i = 0; i <= 64; ++i) {
            const double w = 1.0 - j * std::ldexp(1.0, -53), f = 1.0 + i * std::ldexp(1.0, -52);
            const int e = tcovfem_element_exponent(tcovfem_abs_high_word(w), f, 8);
            const std::int64_t q = tcovfem_quantize(-w, tcovfem_column_scale(f, e, 56), 8);
            ASSERT_LT(std::llabs(q), limit) << j << " " << i;
            ASSERT_GT(std::llabs(q), limit / 4) << j << " " << i;
            largest = std::max<std::int64_t>(largest, std::llabs(q));
        }
    EXPECT_GT(largest, limit / 2);  // the cases reach the top half of the range
}

// s_e = 2^e is strictly above every |ubar| of the element and at most two powers of two above
// the largest (the smallest such power, or one more when the 20-bit bound of max |w| or the
// room for rounding crosses it), for M = 8 one power of two more (|q_8| < 2^55); every input
// rounds to |q_M| < 2^(7M - h), the largest to |q_M| >= 2^(7M - h - 2) (h = 1 for M = 8, else 0);
// tiny and zero elements stay finite; rounding is to nearest, ties to even.
TEST(TcovfemDigits, ScaleIsAPowerOfTwoStrictlyAboveTheMaximum) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    std::uniform_int_distribution<int> E(-60, 60);
    int one_above = 0;
    for (int t = 0; t < 20000; ++t) {
        const int M = 1 + t % 8;
        const TcovfemMaterialFactors f{std::ldexp(1.0 + U(rng) * 0.9, E(rng) / 4),
                                       std::ldexp(1.0 + U(rng) * 0.9, E(rng) / 4)};
        double w[24];
        const int scale = E(rng);
        for (double& v : w) v = std::ldexp(U(rng), scale);
        std::uint32_t high = 0;
        double max_ubar = 0;
        for (double v : w) {
            high = std::max(high, tcovfem_abs_high_word(v));
            max_ubar = std::max({max_ubar, std::fabs(f.kappa * v), std::fabs(f.shear * v)});
        }
        const int e = tcovfem_element_exponent(high, std::fmax(f.kappa, f.shear), M);
        const int h = M == 8 ? 1 : 0;
        ASSERT_LT(max_ubar, std::ldexp(1.0, e - h));
        ASSERT_GE(max_ubar, std::ldexp(1.0, e - h - 2));
        if (max_ubar < std::ldexp(1.0, e - h - 1)) ++one_above;
        const std::int64_t limit = std::int64_t(1) << (7 * M - h);
        std::int64_t largest = 0;
        for (double v : w)
            for (double factor : {f.kappa, f.shear}) {
                const std::int64_t q = tcovfem_quantize(v, tcovfem_column_scale(factor, e, 7 * M), M);
                ASSERT_LT(std::abs(q), limit) << "M " << M;
                largest = std::max(largest, std::abs(q));
            }
        ASSERT_GE(largest, limit / 4) << "M " << M;
    }
    EXPECT_LT(one_above, 200);  // rare: the bounds exceed max |ubar| by far less than a factor 2
    // max |ubar| a hair below 2^e would round up to 2^(7M) (a top digit of 128 overflows int8):
    // the room for rounding moves such an element to the next exponent; M = 8 needs none.
    const double below_one = 1.0 - std::ldexp(1.0, -40);
    EXPECT_EQ(tcovfem_element_exponent(tcovfem_abs_high_word(below_one), 1.0, 4), 1);
    EXPECT_LT(std::abs(tcovfem_to_int64(below_one, tcovfem_column_scale(1.0, 1, 28))), std::int64_t(1) << 28);
    EXPECT_EQ(tcovfem_element_exponent(tcovfem_abs_high_word(0.75), 1.0, 7), 0);
    EXPECT_EQ(tcovfem_element_exponent(tcovfem_abs_high_word(0.75), 1.0, 8), 1);  // the headroom bit
    // The raise built from its bits is 2^-(6M + 1) for every M (ldexp as the oracle).
    for (int m = 1; m <= kTcovfemMaxStages; ++m) EXPECT_EQ(tcovfem_exponent_raise(m), std::ldexp(1.0, -(6 * m + 1)));
    // All-zero and far-precursor elements: the exponent is clamped, the scales stay finite.
    EXPECT_EQ(tcovfem_element_exponent(0u, 1e6, 8), kTcovfemMinExponent);
    EXPECT_EQ(tcovfem_element_exponent(tcovfem_abs_high_word(1e-300), 1e6, 8), kTcovfemMinExponent);
    EXPECT_TRUE(std::isfinite(tcovfem_column_scale(1e9, kTcovfemMinExponent, kTcovfemFixedBits)));
    EXPECT_EQ(tcovfem_to_int64(0.0, tcovfem_column_scale(1e9, kTcovfemMinExponent, kTcovfemFixedBits)), 0);
    // Round to nearest, ties to even (the GPU's add of 1.5 2^52 does the same): no bias.
    EXPECT_EQ(tcovfem_to_int64(-2.5, 1.0), -2);
    EXPECT_EQ(tcovfem_to_int64(2.5, 1.0), 2);
    EXPECT_EQ(tcovfem_to_int64(3.5, 1.0), 4);
    EXPECT_EQ(tcovfem_to_int64(-2.7, 1.0), -3);
}

// ---------------------------------------------------------------------------------------------
// Element product against FP128.

// Max-norm error of the TCOVFEM element force (integer part + FP64 diagonal) relative to the
// max entry of the FP128 OVFEM element force, worst over `trials` random w.
double element_error(int stages, const Material& m, double ds, int trials, unsigned seed) {
    static const TcovfemInt8Matrix A = build_tcovfem_int8_matrix();
    const TcovfemMaterialFactors fac = factors_of(m, ds);
    const Quad rho = m.density, vp = m.vp, vs = m.vs;
    const Quad lam = rho * (vp * vp - 2 * vs * vs), mu = rho * vs * vs;
    Quad sc[3];
    quad_mode_scales(ElementMethod::Ovfem, ds, sc);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> U(-1, 1);
    double worst = 0;
    for (int t = 0; t < trials; ++t) {
        const double amp = std::ldexp(1.0, -10 - t % 30);  // displacements of 1e-3 .. 1e-12 m
        double w[24], f[24];
        Quad wq[24], fq[24];
        for (int d = 0; d < 24; ++d) {
            w[d] = amp * U(rng);
            wq[d] = w[d];
        }
        tcovfem_element_force_int(A, w, fac, stages, f);
        for (int d = 0; d < 24; ++d) f[d] += kTcovfemShearDiagonal * fac.shear * w[d];
        voxel_element_force<Quad>(wq, lam, mu, sc[0], sc[1], sc[2], fq);
        Quad fmax = 0, err = 0;
        for (int d = 0; d < 24; ++d) {
            fmax = std::max(fmax, quad_abs(fq[d]));
            err = std::max(err, quad_abs(Quad(f[d]) - fq[d]));
        }
        worst = std::max(worst, double(err / fmax));
    }
    return worst;
}

TEST(TcovfemElement, EightStagesHaveFp64Accuracy) {
    // Error budget of one entry, relative to max|f| (|f| <= max|f|): the kappa and G factors
    // are FP64 roundings of kappa ds / 256 and G ds / 384 (and kappa itself is an FP64
    // evaluation of rho (vp^2 - 4/3 vs^2)): ~2 ulp/2 as a systematic relative error; ubar = factor w
    // rounds (1/2 ulp per entry); the truncation to 56 bits below s_e <= 2 max|ubar| is a further
    // 2^-55 relative per input, summed over the row with weights |A_rk| / (row sum) -> well below
    // 1 ulp; the combine rounds once (1/2 ulp); the diagonal product and the final add round twice
    // (1 ulp). 4 ulp bounds all of it; a wrong digit or a dropped stage would be >= 2^-49.
    for (const Material& m : {concrete(), steel()}) {
        const double err = element_error(8, m, 0.002, 600, 11);
        EXPECT_LT(err, 4 * kUlp) << m.name;
        EXPECT_GT(err, 0x1p-60) << m.name;  // a real computation, not the reference itself
        std::printf("%s: M=8 element error %.3g ulp\n", m.name.c_str(), err / kUlp);
    }
}

TEST(TcovfemElement, FourStagesHaveFp32LikeAccuracyAndErrorFallsWithStages) {
    // M = 4 keeps 28 bits of ubar / s_e: the truncation error per input is < 2^-28 s_e <=
    // 2^-27 max|ubar|, and a row sums 48 of them with integer weights up to 77 (random signs),
    // so relative to max|f| the worst of 600 random w lies between 2^-30 and 2^-25 (measured
    // 2^-26.1), and certainly not FP64-like (> 1e-12).
    double err[9] = {};
    for (int M : {2, 4, 6, 8}) err[M] = element_error(M, concrete(), 0.002, 600, 5);
    EXPECT_GT(err[4], 0x1p-30);
    EXPECT_LT(err[4], 0x1p-25);
    EXPECT_GT(err[4], 1e-12);
    EXPECT_LT(err[8], err[6]);
    EXPECT_LT(err[6], err[4]);
    EXPECT_LT(err[4], err[2]);
    // Each pair of stages buys 14 bits: the ratio is ~2^14 (at least 2^10) until FP64 rounding.
    EXPECT_GT(err[2] / err[4], 0x1p10);
    EXPECT_GT(err[4] / err[6], 0x1p10);
    std::printf("element error / max|f|: M=2 %.3g, M=4 %.3g (2^%.1f), M=6 %.3g, M=8 %.3g\n", err[2], err[4],
                std::log2(err[4]), err[6], err[8]);
}

// ---------------------------------------------------------------------------------------------
// Global product on a heterogeneous model against the FP128 assembly (the Table 3 pattern).

Scene rebar_scene() {
    Scene s = block_scene(12, 8, 10, 0.002);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", CylinderShape{{0.012, 0.008, 0.009}, {0, 1, 0}, 0.005, 0.016}});
    s.shapes.push_back({"void", BoxShape{{0.0, 0.0, 0.016}, {0.004, 0.006, 0.020}}});
    s.shapes.push_back({"void", SphereShape{{0.018, 0.004, 0.004}, 0.0025}});
    s.boundary.fixed_points = {{0, 0, 0}, {0.024, 0, 0}, {0, 0.016, 0}, {0.024, 0.016, 0}};
    return s;
}

double relative_l2(const std::vector<double>& y, const std::vector<Quad>& ref) {
    Quad num = 0, den = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const Quad d = Quad(y[i]) - ref[i];
        num += d * d;
        den += ref[i] * ref[i];
    }
    return std::sqrt(double(num / den));
}

template <class Real>
std::vector<double> voxel_product(const VoxelGrid& g, const std::vector<Material>& mats, const std::vector<double>& u) {
    const std::size_t nn = g.node_count();
    std::vector<Real> in(u.begin(), u.end()), out(3 * nn);
    VoxelStiffnessCpu<Real>(g, mats, ElementMethod::Ovfem)
        .apply({in.data(), in.data() + nn, in.data() + 2 * nn}, {nullptr, nullptr, nullptr}, Real(0),
               {out.data(), out.data() + nn, out.data() + 2 * nn});
    return std::vector<double>(out.begin(), out.end());
}

std::vector<double> tcovfem_product(const VoxelGrid& g, const std::vector<Material>& mats, int stages,
                                    const std::vector<double>& u) {
    const std::size_t nn = g.node_count();
    std::vector<double> out(3 * nn);
    TcovfemStiffnessCpu(g, mats, stages)
        .apply({u.data(), u.data() + nn, u.data() + 2 * nn}, {nullptr, nullptr, nullptr}, 0.0,
               {out.data(), out.data() + nn, out.data() + 2 * nn});
    return out;
}

TEST(TcovfemGlobal, NodeDiagonalIsTheScatteredElementDiagonal) {
    // tcovfem_node_diagonal gathers per node, in parallel; the oracle scatters element by element
    // (k, j, i order), as the diagonal's definition reads. The same terms in the same order per
    // node: equal bit for bit, on a model with void (the sphere) and two materials.
    const WaveProblem p = build_wave_problem(rebar_scene(), "rebar");
    const VoxelGrid& g = p.grid;
    const auto factors = tcovfem_material_factors(p.materials, g.spacing);
    std::vector<double> scattered(g.node_count(), 0.0);
    std::size_t voids = 0;
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                const MaterialId id = g.at(i, j, k);
                if (id == kVoidId) {
                    ++voids;
                    continue;
                }
                for (int c = 0; c < 2; ++c)
                    for (int b = 0; b < 2; ++b)
                        for (int a = 0; a < 2; ++a)
                            scattered[g.node_index(i + a, j + b, k + c)] += 245.0 * factors[id].shear;
            }
    ASSERT_GT(voids, 0u);
    EXPECT_EQ(tcovfem_node_diagonal(g, factors), scattered);
}

TEST(TcovfemGlobal, QuadReferenceMatchesTheAssembledFp64ElementMatrices) {
    // The yardstick itself: an independent FP64 assembly of dense element matrices agrees with
    // the FP128 product to FP64 round-off (sums of ~24 * 8 terms: 1e-14 of the max entry).
    const WaveProblem p = build_wave_problem(rebar_scene(), "rebar");
    const auto& g = p.grid;
    const std::size_t nn = g.node_count();
    const auto u = random_vector(3 * nn, 3);
    const auto ref = stiffness_times_quad(g, p.materials, ElementMethod::Ovfem, u);
    const std::vector<double> y = assembled_product(g, p.materials, ElementMethod::Ovfem, u);
    EXPECT_LT(relative_l2(y, ref), 1e-14);
    EXPECT_GT(relative_l2(y, ref), 0);
}

TEST(TcovfemGlobal, Table3PatternOnAHeterogeneousModel) {
    const WaveProblem p = build_wave_problem(rebar_scene(), "rebar");
    const auto& g = p.grid;
    int voids = 0, steels = 0;
    for (MaterialId id : g.ids) {
        voids += id == kVoidId;
        steels += id == 2;
    }
    ASSERT_GT(voids, 4);
    ASSERT_GT(steels, 20);
    const auto u = random_vector(3 * g.node_count(), 1);
    const auto ref = stiffness_times_quad(g, p.materials, ElementMethod::Ovfem, u);
    const double e64 = relative_l2(voxel_product<double>(g, p.materials, u), ref);
    const double e32 = relative_l2(voxel_product<float>(g, p.materials, u), ref);
    const double e8 = relative_l2(tcovfem_product(g, p.materials, 8, u), ref);
    const double e4 = relative_l2(tcovfem_product(g, p.materials, 4, u), ref);
    // FP64 arithmetic rounds at each of ~300 operations per element and 8 global additions per
    // node: ~1e-16. INT8 M = 8 rounds once per element entry plus the FP64 diagonal and the
    // global additions: no worse than FP64 (factor 2 of slack for the random-vector spread).
    EXPECT_GT(e64, 1e-18);
    EXPECT_LT(e64, 1e-15);
    EXPECT_LE(e8, 2 * e64 + 1e-16);
    EXPECT_LT(e8, 1e-15);
    // M = 4 keeps 28 bits, FP32 24: both ~1e-8 .. 1e-7.
    EXPECT_GT(e4, 1e-10);
    EXPECT_LT(e4, 1e-6);
    EXPECT_GT(e32, 1e-9);
    EXPECT_LT(e32, 1e-5);
    std::printf("relative errors vs FP128: FP64 %.3g, FP32 %.3g, INT8 M=4 %.3g, INT8 M=8 %.3g\n", e64, e32, e4, e8);
}

TEST(TcovfemGlobal, DampedApplyEqualsTheProductOfWAndIsThreadIndependent) {
    const WaveProblem p = build_wave_problem(rebar_scene(), "rebar");
    const auto& g = p.grid;
    const std::size_t nn = g.node_count();
    const auto u = random_vector(3 * nn, 8), up = random_vector(3 * nn, 9);
    const double b = 0.37;
    std::vector<double> w(3 * nn);
    // The engine's w formula (one fma): written out as (1 + b) u - b up, the last bits depend on
    // whether the compiler contracts it (it failed under GCC 13 on the GPU machine).
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = damped_operand(u[i], up[i], 1.0 + b, b);
    const TcovfemStiffnessCpu K(g, p.materials, 8);
    std::vector<double> fd(3 * nn), fw(3 * nn), f1(3 * nn);
    K.apply({u.data(), u.data() + nn, u.data() + 2 * nn}, {up.data(), up.data() + nn, up.data() + 2 * nn}, b,
            {fd.data(), fd.data() + nn, fd.data() + 2 * nn});
    K.apply({w.data(), w.data() + nn, w.data() + 2 * nn}, {nullptr, nullptr, nullptr}, 0.0,
            {fw.data(), fw.data() + nn, fw.data() + 2 * nn});
    EXPECT_EQ(fd, fw);  // same w formula, same integer path: bit-identical
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    K.apply({w.data(), w.data() + nn, w.data() + 2 * nn}, {nullptr, nullptr, nullptr}, 0.0,
            {f1.data(), f1.data() + nn, f1.data() + 2 * nn});
    omp_set_num_threads(threads);
    EXPECT_EQ(f1, fw);
    // The diagonal: an interior concrete node has 8 elements -> 8 * 245 G ds / 384.
    const double G = concrete().shear_modulus();
    EXPECT_DOUBLE_EQ(K.node_diagonal()[g.node_index(2, 6, 4)], 8 * 245 * (G * g.spacing / 384));
}

TEST(TcovfemGlobal, RefusesBadStagesAndFp32) {
    const WaveProblem p = build_wave_problem(rebar_scene(), "rebar");
    // A programming error: validate_scene refuses such a scene before a run is built.
    EXPECT_THROW(TcovfemStiffnessCpu(p.grid, p.materials, 0), std::logic_error);
    EXPECT_THROW(TcovfemStiffnessCpu(p.grid, p.materials, 9), std::logic_error);
    WaveProblem q = p;
    q.method = Method::Tcovfem;
    q.precision = Precision::Fp32;
    EXPECT_THROW(CpuTimeStepper<float>{q}, std::logic_error);
    EXPECT_THROW(CpuTimeStepper<double>{q}, std::logic_error);  // the problem breaks the rule
    q.precision = Precision::Fp64;
    EXPECT_THROW(CpuTimeStepper<float>{q}, std::logic_error);  // no FP32 engine runs TCOVFEM
    EXPECT_NO_THROW(CpuTimeStepper<double>{q});
}

// ---------------------------------------------------------------------------------------------
// Time stepping.

TEST(TcovfemRun, TracesMatchOvfemFp64AtEightStages) {
    // Rayleigh damping (the stiffness term goes through the damped w path), fixed corners, a
    // void, a steel inclusion. TCOVFEM quantises w relative to the element's max |w| (not its
    // differences), so its error in K w relative to |K w| grows as |w| / |w_b - w_a| for nearly
    // rigid element motion (a few at 4 elements per wavelength here, ~1e3 far from the source):
    // ~1e-16 .. 1e-13 per step at M = 8 and ~1e-8 .. 1e-5 at M = 4. Over 250 steps the
    // traces (measured: 1.3e-15 and 6.1e-6 of the peak) stay below 1e-12 at M = 8; M = 4
    // differs by more than 1e-12 but less than 1e-5.
    Scene s = block_scene(10, 8, 8, 0.002);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", SphereShape{{0.012, 0.008, 0.006}, 0.003}});
    s.shapes.push_back({"void", BoxShape{{0.0, 0.0, 0.012}, {0.004, 0.004, 0.016}}});
    s.boundary.fixed_points = {{0, 0, 0}, {0.02, 0, 0}, {0, 0.016, 0}, {0.02, 0.016, 0}};
    s.damping = {"rayleigh", 0.05, 100e3, 125e3};
    Wavelet ricker;
    ricker.frequency = 300e3;
    ricker.delay = 4e-6;
    s.sources.push_back({"S", {0.01, 0.008, 0.016}, {0, 0, 1}, 1.0, ricker});
    s.receivers.push_back({"R1", {0.004, 0.012, 0.016}});
    s.receivers.push_back({"R2", {0.018, 0.004, 0.0}});
    s.run.steps = 250;
    s.run.method = Method::Ovfem;
    const Result ref = run_wave(build_wave_problem(s, "run"), {});
    s.run.method = Method::Tcovfem;
    const Result t8 = run_wave(build_wave_problem(s, "run"), {});
    s.run.stages = 4;
    const Result t4 = run_wave(build_wave_problem(s, "run"), {});
    EXPECT_EQ(t8.method, "tcovfem");
    EXPECT_EQ(t4.stages, 4);
    double peak = 0, d8 = 0, d4 = 0;
    for (std::size_t i = 0; i < ref.displacement.size(); ++i) {
        peak = std::max(peak, std::abs(ref.displacement[i]));
        d8 = std::max(d8, std::abs(t8.displacement[i] - ref.displacement[i]));
        d4 = std::max(d4, std::abs(t4.displacement[i] - ref.displacement[i]));
    }
    ASSERT_GT(peak, 0);
    EXPECT_LT(d8, 1e-12 * peak);
    EXPECT_GT(d4, 1e-12 * peak);
    EXPECT_LT(d4, 1e-5 * peak);
    std::printf("max trace difference / peak: M=8 %.3g, M=4 %.3g\n", d8 / peak, d4 / peak);
}

}  // namespace
