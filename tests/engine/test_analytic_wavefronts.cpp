// The analytic wavefronts of the wavefield view's overlay (issue 35): the Rayleigh speed against
// closed forms, the fronts' radii against v (t - t0) worked out here, and where Rayleigh marks go.
#include <gtest/gtest.h>

#include <cmath>

#include "wave/analytic_wavefronts.hpp"

namespace voxwave {
namespace {

// A 20 x 20 x 20 block of steel at 1 mm, every face free, one source at `node`.
struct Block {
    Scene scene;
    VoxelGrid grid;
};

Block steel_block(std::array<int, 3> node, double frequency, std::array<int, 3> n = {20, 20, 20}) {
    Block b;
    b.scene.materials = {{"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    b.grid.n = n;
    b.grid.spacing = 1e-3;
    b.grid.ids.assign(b.grid.element_count(), 1);
    Source s;
    s.position = {node[0] * 1e-3, node[1] * 1e-3, node[2] * 1e-3};
    s.wavelet.type = WaveletType::Ricker;
    s.wavelet.frequency = frequency;
    s.wavelet.delay = 2e-6;
    b.scene.sources = {s};
    return b;
}

// The Rayleigh equation as a cubic in q = (v_R / vs)^2: q^3 - 8 q^2 + (24 - 16 k) q - 16 (1 - k) = 0.
double rayleigh_cubic(double vr, double vp, double vs) {
    const double q = (vr / vs) * (vr / vs), k = (vs / vp) * (vs / vp);
    return q * q * q - 8 * q * q + (24 - 16 * k) * q - 16 * (1 - k);
}

TEST(AnalyticWavefronts, RayleighSpeedSolvesTheRayleighEquation) {
    // Poisson's ratio 1/4 (vp = sqrt(3) vs): v_R = vs sqrt(2 - 2 / sqrt(3)) exactly.
    EXPECT_NEAR(rayleigh_wave_speed(std::sqrt(3.0) * 1000, 1000), 1000 * std::sqrt(2 - 2 / std::sqrt(3.0)), 1e-9);
    for (auto [vp, vs] : {std::pair{5900.0, 3200.0}, {4000.0, 2450.0}, {6320.0, 3130.0}, {2730.0, 1430.0}}) {
        const double vr = rayleigh_wave_speed(vp, vs);
        EXPECT_NEAR(rayleigh_cubic(vr, vp, vs), 0, 1e-10) << vp << " " << vs;
        // Viktorov's approximation, within its half a percent.
        const double nu = (vp * vp - 2 * vs * vs) / (2 * (vp * vp - vs * vs));
        EXPECT_NEAR(vr / vs, (0.862 + 1.14 * nu) / (1 + nu), 5e-3);
    }
    EXPECT_EQ(rayleigh_wave_speed(1481, 0), 0);  // a fluid has none
}

TEST(AnalyticWavefronts, PeakTimeAndCentreFrequencyOfEachWavelet) {
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 1e5;
    w.delay = 1.2e-5;
    EXPECT_EQ(wavelet_peak_time(w), 1.2e-5);
    EXPECT_EQ(wavelet_centre_frequency(w), 1e5);
    w.type = WaveletType::ToneBurst;
    w.cycles = 4;
    EXPECT_DOUBLE_EQ(wavelet_peak_time(w), 1.2e-5 + 2e-5);  // the middle of a 4-cycle window at 100 kHz
    w.type = WaveletType::Bandpass;
    w.f_low = 1e5;
    w.f_high = 1.25e5;
    EXPECT_EQ(wavelet_peak_time(w), 1.2e-5);
    EXPECT_EQ(wavelet_centre_frequency(w), 1.125e5);
    w.type = WaveletType::Samples;
    w.samples = {0, 0.5, -2, 1};
    w.sample_dt = 1e-7;
    EXPECT_DOUBLE_EQ(wavelet_peak_time(w), 2e-7);
    EXPECT_EQ(wavelet_centre_frequency(w), 0);
}

TEST(AnalyticWavefronts, BodyWaveCirclesHaveRadiusVTimesTimeSincePeak) {
    const Block b = steel_block({10, 10, 10}, 1e5);
    const double t = 2e-6 + 3e-6;  // 3 us after the pulse peak
    const SliceWavefronts through = slice_wavefronts(b.scene, b.grid, SlicePlane::XZ, 10, t);
    ASSERT_EQ(through.circles.size(), 2u);
    EXPECT_EQ(through.circles[0].kind, WavefrontKind::P);
    EXPECT_NEAR(through.circles[0].radius, 5900 * 3e-6 / 1e-3, 1e-9);  // 17.7 spacings
    EXPECT_EQ(through.circles[0].a, 10);
    EXPECT_EQ(through.circles[0].b, 10);
    EXPECT_EQ(through.circles[1].kind, WavefrontKind::S);
    EXPECT_NEAR(through.circles[1].radius, 3200 * 3e-6 / 1e-3, 1e-9);
    // A slice 4 spacings off the source cuts the spheres in smaller circles.
    const SliceWavefronts off = slice_wavefronts(b.scene, b.grid, SlicePlane::YZ, 14, t);
    ASSERT_EQ(off.circles.size(), 2u);
    EXPECT_NEAR(off.circles[0].radius, std::sqrt(17.7 * 17.7 - 16), 1e-9);
    // Before the peak, and in a slice the sphere has not reached, nothing.
    EXPECT_TRUE(slice_wavefronts(b.scene, b.grid, SlicePlane::XZ, 10, 1e-6).circles.empty());
    EXPECT_TRUE(slice_wavefronts(b.scene, b.grid, SlicePlane::XY, 20, 2e-6 + 1e-6).circles.empty());
    // No Rayleigh front from a source 10 mm deep at 100 kHz? 10 mm is below one Rayleigh
    // wavelength (29.5 mm) of the faces, but the block is thinner than two: none either way.
    EXPECT_TRUE(through.marks.empty());
}

TEST(AnalyticWavefronts, RayleighMarksSitOnFreeFacesOnly) {
    // On the top face at 500 kHz: Rayleigh wavelength 5.96 mm, the 20 mm block is thick enough.
    Block b = steel_block({10, 10, 20}, 5e5);
    const double vr = rayleigh_wave_speed(5900, 3200), t = 2e-6 + 2e-6;
    const double rr = vr * 2e-6 / 1e-3;
    const SliceWavefronts across = slice_wavefronts(b.scene, b.grid, SlicePlane::XZ, 10, t);
    ASSERT_EQ(across.marks.size(), 2u);
    for (const WavefrontMark& m : across.marks) {
        EXPECT_EQ(m.b, 20);  // on the top face's line
        EXPECT_NEAR(std::abs(m.a - 10), rr, 1e-9);
        EXPECT_EQ(m.nb, -1);  // pointing down into the block
    }
    // In the face itself: the whole circle.
    const SliceWavefronts in = slice_wavefronts(b.scene, b.grid, SlicePlane::XY, 20, t);
    ASSERT_EQ(in.circles.size(), 3u);
    EXPECT_EQ(in.circles[2].kind, WavefrontKind::Rayleigh);
    EXPECT_NEAR(in.circles[2].radius, rr, 1e-9);
    // An absorbing top face is no free surface; neither is a fixed one.
    b.scene.boundary.absorbing.faces = {"z+"};
    EXPECT_TRUE(slice_wavefronts(b.scene, b.grid, SlicePlane::XZ, 10, t).marks.empty());
    b.scene.boundary.absorbing.faces = {};
    b.scene.boundary.fixed_faces = {"z+"};
    EXPECT_TRUE(slice_wavefronts(b.scene, b.grid, SlicePlane::XZ, 10, t).marks.empty());
    // A plate thinner than two Rayleigh wavelengths carries Lamb waves: no Rayleigh front.
    const Block plate = steel_block({10, 10, 4}, 5e5, {20, 20, 4});
    EXPECT_TRUE(slice_wavefronts(plate.scene, plate.grid, SlicePlane::XZ, 10, t).marks.empty());
    // The speeds of a source's material; a source in void has none.
    EXPECT_NEAR(source_wave_speeds(b.scene, b.grid, b.scene.sources[0]).vr, vr, 1e-12);
    b.grid.ids.assign(b.grid.element_count(), 0);
    EXPECT_EQ(source_wave_speeds(b.scene, b.grid, b.scene.sources[0]).material, 0);
    EXPECT_TRUE(slice_wavefronts(b.scene, b.grid, SlicePlane::XZ, 10, t).circles.empty());
}

}  // namespace
}  // namespace voxwave
