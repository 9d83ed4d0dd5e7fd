// The scan views' numbers against closed forms: the receivers' line and order, the Hilbert
// envelope of a Gaussian-modulated cosine (its Gaussian), the gated peak of a sampled parabola.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "wave/receiver_scans.hpp"

using namespace voxwave;

TEST(ReceiverLine, ShuffledReceiversOnAnObliqueLineComeOutInOrderAlongIt) {
    // 20 receivers at s = 3 mm .. 60 mm along (1, 2, 2) / 3 from (10, 5, 7) mm, in shuffled order.
    const std::array<double, 3> d{1.0 / 3, 2.0 / 3, 2.0 / 3}, o{0.010, 0.005, 0.007};
    std::vector<std::size_t> slot(20);
    for (std::size_t i = 0; i < slot.size(); ++i) slot[i] = i;
    std::shuffle(slot.begin(), slot.end(), std::mt19937(7));
    std::vector<std::array<double, 3>> pos(20);
    for (std::size_t r = 0; r < 20; ++r) {
        const double s = 0.003 * double(slot[r] + 1);
        pos[r] = {o[0] + s * d[0], o[1] + s * d[1], o[2] + s * d[2]};
    }
    const ReceiverLine line = receiver_line(pos);
    ASSERT_TRUE(line.valid);
    EXPECT_EQ(line.axis, -1);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(line.direction[i], d[i], 1e-12);
    const double o_along = o[0] * d[0] + o[1] * d[1] + o[2] * d[2];
    for (std::size_t r = 0; r < 20; ++r) EXPECT_NEAR(line.coordinate[r], o_along + 0.003 * double(slot[r] + 1), 1e-12);
    for (std::size_t k = 0; k < 20; ++k) EXPECT_EQ(slot[line.order[k]], k) << k;
}

TEST(ReceiverLine, ALineAlongMinusYRunsAlongPlusYWithTheAxisNamed) {
    const std::vector<std::array<double, 3>> pos = {{0.02, 0.09, 0.01}, {0.02, 0.01, 0.01}, {0.02, 0.05, 0.01}};
    const ReceiverLine line = receiver_line(pos);
    ASSERT_TRUE(line.valid);
    EXPECT_EQ(line.axis, 1);
    EXPECT_EQ(line.direction, (std::array<double, 3>{0, 1, 0}));
    EXPECT_EQ(line.coordinate, (std::vector<double>{0.09, 0.01, 0.05}));  // the y coordinates themselves
    EXPECT_EQ(line.order, (std::vector<std::size_t>{1, 2, 0}));
}

TEST(ReceiverLine, OnePointOrNoneHasNoLineAndKeepsTheTableOrder) {
    for (const auto& pos :
         {std::vector<std::array<double, 3>>{}, std::vector<std::array<double, 3>>{{0.01, 0.02, 0.03}},
          std::vector<std::array<double, 3>>(4, {0.01, 0.02, 0.03})}) {
        const ReceiverLine line = receiver_line(pos);
        EXPECT_FALSE(line.valid);
        for (std::size_t r = 0; r < pos.size(); ++r) {
            EXPECT_EQ(line.order[r], r);
            EXPECT_EQ(line.coordinate[r], double(r));
        }
    }
}

TEST(HilbertEnvelope, OfAGaussianModulatedCosineIsItsGaussian) {
    // A 1 MHz cosine under a Gaussian of sigma 2 us: its spectrum has no negative-frequency part
    // to speak of (exp(-(2 pi f sigma)^2 / 2) ~ 1e-68), so the envelope is the Gaussian itself.
    const double dt = 20e-9, tc = 9.37e-6, sigma = 2e-6, f = 1e6;
    const std::size_t n = 1000;
    std::vector<double> x(n), g(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double t = double(i) * dt - tc;
        g[i] = 3e-9 * std::exp(-t * t / (2 * sigma * sigma));
        x[i] = g[i] * std::cos(2 * std::acos(-1.0) * f * t + 0.4);
    }
    const std::vector<double> env = hilbert_envelope(x);
    ASSERT_EQ(env.size(), n);
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(env[i] - g[i]));
    // The trace is cut at exp(-(9.37 / 2)^2 / 2) = 1.7e-5 of the peak at its start: the envelope
    // near the cut carries that much; everywhere else it is the Gaussian to rounding.
    EXPECT_LT(worst, 3e-5 * 3e-9);
    double inner = 0;
    for (std::size_t i = 200; i < 800; ++i) inner = std::max(inner, std::abs(env[i] - g[i]));
    EXPECT_LT(inner, 1e-6 * 3e-9);
}

TEST(HilbertEnvelope, OfACosineOverWholePeriodsIsFlat) {
    // 16 whole periods over 256 samples, no padding effects in the middle: envelope 2.5.
    std::vector<double> x(256);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 2.5 * std::cos(2 * std::acos(-1.0) * 16 * double(i) / 256);
    const std::vector<double> env = hilbert_envelope(x);
    for (std::size_t i = 64; i < 192; ++i) EXPECT_NEAR(env[i], 2.5, 0.05) << i;
    EXPECT_TRUE(hilbert_envelope({}).empty());
}

TEST(GatedPeak, FindsTheVertexOfASampledParabolaBetweenSamples) {
    // |x| peaks at 4.3 us (between samples at dt = 0.1 us) with height 2; a higher spike at
    // 9 us is outside the gate [2, 6] us.
    const double dt = 1e-7, tp = 4.33e-6;
    std::vector<double> x(120, 0.0);
    for (std::size_t n = 0; n < x.size(); ++n) {
        const double t = double(n) * dt;
        x[n] = -std::max(0.0, 2 - 1e12 * (t - tp) * (t - tp));  // a negative swing: |x| counts
    }
    x[90] = 5;
    const GatedPeak p = gated_peak(x, dt, 2e-6, 6e-6);
    ASSERT_TRUE(p.found);
    EXPECT_NEAR(p.time, tp, 1e-15);
    EXPECT_NEAR(p.amplitude, 2, 1e-12);
    const GatedPeak all = gated_peak(x, dt, 0, 1);
    EXPECT_NEAR(all.time, 9e-6, 1e-15);
    EXPECT_EQ(all.amplitude, 5);  // a lone spike: the parabola through it and its zero neighbours peaks on it
}

TEST(GatedPeak, AGateWithoutSamplesFindsNothing) {
    const std::vector<double> x(10, 1.0);
    EXPECT_FALSE(gated_peak(x, 1e-6, 20e-6, 30e-6).found);
    EXPECT_FALSE(gated_peak(x, 1e-6, 2.2e-6, 2.8e-6).found);
    EXPECT_FALSE(gated_peak(x, 1e-6, 5e-6, 4e-6).found);
    EXPECT_FALSE(gated_peak({}, 1e-6, 0, 1).found);
}
