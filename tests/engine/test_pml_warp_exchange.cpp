// The CUDA PML element pass runs one layer element per warp, lane v its moment value v
// (engine/wave/pml_correction_cuda.cu): each lane makes its moment from its component's 8
// corners (voxel_corner_moments_of), sums its stress moment T[o] from one change per filter
// pulled from another lane (PmlStressExchange), and each dof lane sends back its component's 7
// stress moments (voxel_corner_scatter_of). The gpu tests compare the whole pass with the CPU
// engine on the device; these check, on the host, that the lanes' pieces add up to the element's
// algebra: the stress moments against the formula written out in pml_stress_oracle.hpp (sigma_ij
// per stress mode), the per-component transforms against the element kernel's 24-dof ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "pml_stress_oracle.hpp"
#include "test_util.hpp"
#include "wave/pml_element_kernel.hpp"
#include "wave/voxel_element_kernel.hpp"

using namespace voxwave;

TEST(PmlWarpExchange, StressMomentsOfTheLanesEqualTheElementFormula) {
    for (ElementMethod method : {ElementMethod::Vfem, ElementMethod::Ovfem}) {
        const ModeScales m = mode_scales(method, 0.002);
        const double sc[3] = {m.constant, m.linear, m.bilinear};
        const PmlStressExchange x = pml_stress_exchange(sc);
        for (unsigned seed = 1; seed <= 20; ++seed) {
            const std::vector<double> r = voxwave::test::random_vector(kPmlFilters * kPmlMomentValues + 2, seed);
            double dS[kPmlFilters][kPmlMomentValues];
            for (int f = 0; f < kPmlFilters; ++f)
                for (int v = 0; v < kPmlMomentValues; ++v) dS[f][v] = r[std::size_t(f * kPmlMomentValues + v)];
            const double lambda = 1e10 * (1.5 + r[r.size() - 2]), mu = 1e10 * (1.5 + r.back());
            double expected[kPmlMomentValues];
            test::plain_stress_moments(dS, lambda, mu, sc, expected);
            double peak = 0;
            for (double t : expected) peak = std::max(peak, std::abs(t));
            ASSERT_GT(peak, 0.0);
            // The warp: lanes 21..31 hold no value (their changes are 0 in the pass).
            const auto lane_change = [&](int f, int lane) { return lane < kPmlMomentValues ? dS[f][lane] : 0.0; };
            for (int o = 0; o < PmlStressExchange::kLanes; ++o) {
                double t_mu = 0, t_lambda = 0;
                for (int f = 0; f < kPmlFilters; ++f) {
                    const double pulled = lane_change(f, x.source(o, f));
                    t_mu += x.mu_w[o][f] * pulled;
                    t_lambda += x.lambda_w[o][f] * pulled;
                }
                const double T = mu * t_mu + lambda * t_lambda;
                if (o < kPmlMomentValues)
                    EXPECT_NEAR(T, expected[o], 1e-14 * peak) << "stress moment " << o << ", seed " << seed;
                else
                    EXPECT_EQ(T, 0.0) << "lane " << o << " has no stress moment";
            }
        }
    }
}

TEST(PmlWarpExchange, EveryTermOfTheFormulaHasItsLane) {
    // Each term's value is pulled by its stress moment's lane (a term dropped or doubled would
    // move the weights): a change of 1 in one value at a time gives the formula's column.
    const double sc[3] = {1.0, 0.25, 1.0 / 16};
    const PmlStressExchange x = pml_stress_exchange(sc);
    for (int f = 0; f < kPmlFilters; ++f)
        for (int v = 0; v < kPmlMomentValues; ++v) {
            double dS[kPmlFilters][kPmlMomentValues] = {};
            dS[f][v] = 1;
            double expected[kPmlMomentValues];
            test::plain_stress_moments(dS, 3.0, 5.0, sc, expected);
            for (int o = 0; o < kPmlMomentValues; ++o) {
                const int from = x.source(o, f);
                const double T = from == v ? 5.0 * x.mu_w[o][f] + 3.0 * x.lambda_w[o][f] : 0.0;
                EXPECT_DOUBLE_EQ(T, expected[o]) << "filter " << f << ", value " << v << ", moment " << o;
            }
        }
}

TEST(PmlWarpExchange, PerComponentTransformsAreTheElementKernels) {
    const std::vector<double> r = voxwave::test::random_vector(24 + kPmlMomentValues, 7);
    // Moments: lane 3 P + i from its component's corners, as the warp gathers them.
    double S[kPmlMomentValues];
    voxel_corner_moments(r.data(), S);
    for (int v = 0; v < kPmlMomentValues; ++v) {
        double S7[kVoxelMoments];
        const int i = v % 3;
        voxel_corner_moments_of([&](int a, int b, int c) { return r[std::size_t(3 * voxel_local_node(a, b, c) + i)]; },
                                S7, 1);
        EXPECT_EQ(S7[v / 3], S[v]) << "moment value " << v;  // the same operations: the same bits
    }
    // Forces: dof 3 l + c from component c's 7 stress moments.
    const double* T = r.data() + 24;
    double f[24];
    voxel_corner_scatter(T, f);
    for (int d = 0; d < 24; ++d) {
        const int l = d / 3, c = d % 3;
        double T7[kVoxelMoments], f8[8];
        for (int P = 0; P < kVoxelMoments; ++P) T7[P] = T[3 * P + c];
        voxel_corner_scatter_of(T7, 1, f8, 1);
        EXPECT_EQ(f8[l], f[d]) << "dof " << d;
    }
}
