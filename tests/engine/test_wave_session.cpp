// The interactive session (the GUI's engine) against the batch run: same traces whatever the
// chunking, slices that read the same field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "core/errors.hpp"

#include "scene_builders.hpp"
#include "wave/slice_staging.hpp"
#include "wave/wave_run.hpp"
#include "wave/wave_session.hpp"

using namespace voxwave;
using voxwave::testing::block_scene;
using voxwave::testing::ricker;
using voxwave::testing::steel;

namespace {

WaveProblem small_problem(Method method, Precision precision) {
    Scene s = block_scene(10, 8, 6, 0.004);
    s.materials.push_back(steel());
    s.shapes.push_back(Shape{"steel", BoxShape{{0.012, 0.0, 0.008}, {0.024, 0.032, 0.016}}});
    s.sources.push_back({"S", {0.02, 0.016, 0.024}, {0.2, 0.3, 1.0}, 1.0, ricker(60e3, 2.0e-5)});
    s.receivers.push_back({"A", {0.008, 0.016, 0.024}});
    s.receivers.push_back({"B", {0.036, 0.028, 0.0}});
    s.run.method = method;
    s.run.precision = precision;
    s.run.steps = 120;
    return build_wave_problem(s, "test");
}

}  // namespace

TEST(WaveSession, ChunkedTracesEqualBatchRunExactly) {
    for (Precision prec : {Precision::Fp64, Precision::Fp32}) {
        const WaveProblem p = small_problem(Method::Ovfem, prec);
        const Result batch = run_wave(p, {});
        WaveSession session(p);
        EXPECT_EQ(session.backend(), Backend::Cpu);
        for (std::int64_t chunk : {1, 7, 50, 62}) session.advance(chunk);  // 120 steps in uneven chunks
        ASSERT_EQ(session.step(), 120);
        ASSERT_EQ(session.sample_count(), 120u);
        const Result live = session.result();
        ASSERT_EQ(live.displacement.size(), batch.displacement.size());
        double peak = 0;
        for (std::size_t i = 0; i < batch.displacement.size(); ++i) {
            EXPECT_EQ(live.displacement[i], batch.displacement[i]) << i;  // the same arithmetic in the same order
            peak = std::max(peak, std::abs(batch.displacement[i]));
        }
        EXPECT_GT(peak, 0.0);
        // Velocities equal the batch run's central differences except at the last sample,
        // whose u^{n+1} the session has not computed yet.
        const std::size_t nt = live.time.size();
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t t = 0; t + 1 < nt; ++t)
                for (int c = 0; c < 3; ++c)
                    EXPECT_DOUBLE_EQ(live.velocity[(r * nt + t) * 3 + c], batch.velocity[(r * nt + t) * 3 + c]);
    }
}

TEST(WaveSession, SlicesReadTheNodesOfTheirPlane) {
    const WaveProblem p = small_problem(Method::Vfem, Precision::Fp64);
    WaveSession session(p);
    session.advance(60);
    // Receiver A is node (2, 4, 6). The slice after 60 steps holds u^60; the receiver records
    // u^60 at the start of the next step.
    const SliceImage xy = session.slice(SlicePlane::XY, 6, SliceQuantity::Uz);
    const SliceImage xz = session.slice(SlicePlane::XZ, 4, SliceQuantity::Uz);
    const SliceImage yz = session.slice(SlicePlane::YZ, 2, SliceQuantity::Uz);
    ASSERT_EQ(xy.width, 11);
    ASSERT_EQ(xy.height, 9);
    ASSERT_EQ(xz.width, 11);
    ASSERT_EQ(xz.height, 7);
    ASSERT_EQ(yz.width, 9);
    ASSERT_EQ(yz.height, 7);
    session.advance(1);  // records u^60 at the receivers
    const double uz = session.receiver_samples()[(60 * 2 + 0) * 3 + 2];
    ASSERT_NE(uz, 0.0);
    EXPECT_EQ(xy.values[4 * 11 + 2], float(uz));
    EXPECT_EQ(xz.values[6 * 11 + 2], float(uz));
    EXPECT_EQ(yz.values[6 * 9 + 4], float(uz));
    // Magnitude is the norm of the three components at the same node.
    const SliceImage mag = session.slice(SlicePlane::XY, 0, SliceQuantity::DisplacementMagnitude);
    const SliceImage ux = session.slice(SlicePlane::XY, 0, SliceQuantity::Ux);
    const SliceImage uy = session.slice(SlicePlane::XY, 0, SliceQuantity::Uy);
    const SliceImage uzz = session.slice(SlicePlane::XY, 0, SliceQuantity::Uz);
    for (std::size_t i = 0; i < mag.values.size(); ++i)
        EXPECT_NEAR(mag.values[i], std::hypot(ux.values[i], uy.values[i], uzz.values[i]), 1e-6f * mag.max_abs());
    EXPECT_GT(mag.max_abs(), 0.0f);
    // An index past the grid is clamped to the last plane, not read out of bounds.
    EXPECT_EQ(session.slice(SlicePlane::XY, 99, SliceQuantity::Uz).values,
              session.slice(SlicePlane::XY, 6, SliceQuantity::Uz).values);
}

TEST(WaveSession, RefusesTcovfemInFp32) {
    WaveProblem p = small_problem(Method::Ovfem, Precision::Fp64);
    p.method = Method::Tcovfem;
    p.precision = Precision::Fp32;
    EXPECT_THROW(WaveSession session(p), std::logic_error);  // validate_scene refuses such a scene
}

// The GPU staging's colour-scale level comes from a log histogram of |value| / max (the device
// fills it; this host function reads it): within one bin (2^(1/16)) of abs_quantile's level.
TEST(SliceStaging, HistogramLevelMatchesAbsQuantile) {
    std::mt19937 rng(7);
    std::lognormal_distribution<float> mag(-20.0f, 2.5f);
    for (int trial = 0; trial < 4; ++trial) {
        SliceImage img{97, 61, {}};
        for (int i = 0; i < img.width * img.height; ++i)
            img.values.push_back(i % 11 == 0 ? 0.0f : (i % 2 ? 1.0f : -1.0f) * mag(rng));
        img.values[std::size_t(trial) * 100] = 3e-6f;  // a source-point peak far above the rest
        const float peak = img.max_abs();
        std::vector<std::uint32_t> bins(kStagingBins, 0);
        std::uint32_t count = 0;
        for (float v : img.values) {
            if (v == 0.0f) continue;
            const double t = -std::log2(std::min(1.0, double(std::abs(v)) / peak)) * kStagingBinsPerOctave;
            ++bins[t < kStagingBins - 1 ? int(t) : kStagingBins - 1];
            ++count;
        }
        for (double q : {0.5, 0.9, 0.99}) {
            const float want = abs_quantile({&img}, q);
            const float got = staged_level_from_histogram(bins.data(), count, peak, q);
            EXPECT_GT(got, want / 1.045f) << q;
            EXPECT_LT(got, want * 1.045f) << q;
        }
        EXPECT_EQ(staged_level_from_histogram(bins.data(), count, peak, 1.0), peak);
    }
    EXPECT_EQ(staged_level_from_histogram(std::vector<std::uint32_t>(kStagingBins, 0).data(), 0, 0.0f, 0.99), 0.0f);
}
