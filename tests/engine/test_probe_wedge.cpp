// Angle-beam wedges (engine/probe, docs/architecture.md#probes-and-scans): the law through a wedge
// against Snell's law solved independently here, the painted block and the face on its top, the
// scene's errors, and a 55-degree shear wedge on steel whose refracted S beam peaks at 55 degrees.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/errors.hpp"
#include "probe/delay_law.hpp"
#include "probe/probe_footprint.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kWedgeVp = 2330, kSteelVs = 3200;

double deg(double radians) { return radians * 180 / kPi; }
double rad(double degrees) { return degrees * kPi / 180; }

// The interface point of the ray from (x, h) (h above the interface, speed c1) to F = (fx, -fz)
// (speed c2) where Snell's law holds, sin(a1) / c1 = sin(a2) / c2, by bisection on the residual
// (monotone in xi between x and fx): an independent solution of the refraction.
double snell_crossing(double x, double h, double fx, double fz, double c1, double c2) {
    auto residual = [&](double xi) {
        const double s1 = (xi - x) / std::hypot(xi - x, h), s2 = (fx - xi) / std::hypot(fx - xi, fz);
        return s1 / c1 - s2 / c2;
    };
    double lo = std::min(x, fx), hi = std::max(x, fx);
    const bool rising = residual(hi) > residual(lo);
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((residual(mid) > 0) == rising ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
}

// An 8-element 1 mm array at (x, y, z) on a 3 mm wedge of `material` at 36.6 degrees, steering
// to 55 degrees, a 1 MHz 3-cycle tone burst.
ProbeSpec wedge_array(double x, double y, double z, const std::string& material) {
    ProbeSpec p = top_array_probe("W", 8, 1e-3, 0.8e-3, 4e-3, {x, y, z}, tone_burst(1e6, 3));
    p.wedge = WedgeSpec{material, 36.6, 3e-3, 0, 0};
    p.delay_law = {"steer", 55, 0, {}, {}};
    return p;
}

}  // namespace

// Steering to 55 degrees of shear in steel from elements on a slope (heights varying along the
// array): the delays make one plane wave in the wedge at the incidence Snell's law gives,
// sin(a) = c_wedge sin(55) / vs, i.e. d_e - d_0 = ((x_e - x_0) sin(a) - (h_e - h_0) cos(a)) / c_wedge.
TEST(WedgeLaw, SteeringRefractsBySnellsLaw) {
    const std::vector<double> x = probe_element_offsets(16, 0.6e-3);
    std::vector<double> h;
    for (double xe : x) h.push_back(8e-3 + xe * std::tan(rad(20)));
    const DelayLawSpec law{"steer", 55, 0, {}, {}};
    const std::vector<double> d = wedge_delay_law_delays(law, 36.6, x, h, kWedgeVp, kSteelVs);
    const double a = std::asin(kWedgeVp * std::sin(rad(55)) / kSteelVs);
    for (std::size_t e = 0; e < x.size(); ++e)
        EXPECT_NEAR(d[e] - d[0], ((x[e] - x[0]) * std::sin(a) - (h[e] - h[0]) * std::cos(a)) / kWedgeVp, 1e-13)
            << "element " << e;
    EXPECT_EQ(*std::min_element(d.begin(), d.end()), 0.0);
    std::printf("incidence in the wedge for 55 degrees S in steel: %.2f degrees\n", deg(a));
}

// Focusing at 20 mm depth, 25 degrees, through the wedge: every element's wave reaches the focus at
// once along the ray that obeys Snell's law at the interface (found by bisection here).
TEST(WedgeLaw, FocusingArrivesTogetherAlongSnellRays) {
    const std::vector<double> x = probe_element_offsets(12, 1e-3);
    const std::vector<double> h(x.size(), 5e-3);
    const DelayLawSpec law{"focus", 25, 20e-3, {}, {}};
    const double c2 = 5900;
    const std::vector<double> d = wedge_delay_law_delays(law, 20, x, h, kWedgeVp, c2);
    const double fx = 20e-3 * std::tan(rad(25)), fz = 20e-3;
    std::vector<double> arrival;
    for (std::size_t e = 0; e < x.size(); ++e) {
        const double xi = snell_crossing(x[e], h[e], fx, fz, kWedgeVp, c2);
        arrival.push_back(d[e] + std::hypot(xi - x[e], h[e]) / kWedgeVp + std::hypot(fx - xi, fz) / c2);
    }
    for (std::size_t e = 1; e < x.size(); ++e) EXPECT_NEAR(arrival[e], arrival[0], 1e-13) << "element " << e;
}

// No law on a wedge: the slope's own plane wave, which Snell's law refracts to the angle that a
// steer law gives the same delays for (20 degrees in the wedge: asin(3200 / 2330 sin 20) in steel).
TEST(WedgeLaw, TheSlopeAloneRefractsLikeASteerLaw) {
    const std::vector<double> x = probe_element_offsets(8, 1e-3);
    const std::vector<double> h(x.size(), 4e-3);
    const std::vector<double> slope = wedge_delay_law_delays({"none", 0, 0, {}, {}}, 20, x, h, kWedgeVp, kSteelVs);
    const double refracted = deg(std::asin(kSteelVs / kWedgeVp * std::sin(rad(20))));
    const std::vector<double> steer =
        wedge_delay_law_delays({"steer", refracted, 0, {}, {}}, 20, x, h, kWedgeVp, kSteelVs);
    for (std::size_t e = 0; e < x.size(); ++e) EXPECT_NEAR(slope[e], steer[e], 1e-13);
    // A fast wedge cannot send a ray to 80 degrees in a slow specimen (sin > 1).
    EXPECT_THROW(wedge_delay_law_delays({"steer", 80, 0, {}, {}}, 20, x, h, 5900, kSteelVs), std::invalid_argument);
}

// The block is painted on the specimen under the probe, the face lies on its top, the law's
// default speed is the steel's vs (36.6 degrees is past the first critical angle, 23.3), and the
// delays are those of the law at the wedge's height.
TEST(WedgeProbe, TheBlockIsPaintedAndTheFaceSitsOnTop) {
    const double ds = 0.5e-3;
    Scene s = steel_slab_in_void(40, 16, 30, ds, 20 * ds);
    s.materials.push_back(rexolite());
    s.probes = {wedge_array(20 * ds, 8 * ds, 20 * ds, "rexolite")};
    validate_scene(s, "w");
    const VoxelGrid g = rasterise(s);
    // 6 layers (3 mm) of rexolite, 7.8 + 2 x 3 tan(36.6) = 12.3 mm long, about the centre.
    EXPECT_EQ(g.at(20, 8, 19), 1);
    EXPECT_EQ(g.at(20, 8, 20), 2);
    EXPECT_EQ(g.at(20, 8, 25), 2);
    EXPECT_EQ(g.at(20, 8, 26), kVoidId);
    EXPECT_EQ(g.at(20 + 11, 8, 22), 2);
    EXPECT_EQ(g.at(20 + 13, 8, 22), kVoidId);
    EXPECT_EQ(g.at(20 - 13, 8, 22), kVoidId);
    const ProbeFootprint f = probe_footprint(s.probes[0], g, "w", "probes[0]");
    EXPECT_DOUBLE_EQ(f.center[2], 26 * ds);
    EXPECT_EQ(f.material, 2);
    EXPECT_EQ(f.specimen, 1);
    EXPECT_DOUBLE_EQ(f.wedge_height, 3e-3);
    EXPECT_DOUBLE_EQ(probe_law_velocity(s.probes[0], f, s.materials), 3200);
    const WaveProblem p = build_wave_problem(s, "w");
    const double a = std::asin(kWedgeVp * std::sin(rad(55)) / kSteelVs);
    const std::vector<double>& d = p.probes[0].delays;
    for (std::size_t e = 0; e < d.size(); ++e) EXPECT_NEAR(d[e], e * 1e-3 * std::sin(a) / kWedgeVp, 1e-13);
}

// Bad wedges: one line naming the probe and the field.
TEST(WedgeProbe, BadWedgesAreNamed) {
    Scene s = steel_slab_in_void(40, 16, 30, 0.5e-3, 10e-3);
    s.probes = {wedge_array(10e-3, 4e-3, 10e-3, "perspex")};
    auto message = [&](const Scene& t, const std::string& field) {
        return test::input_error_message([&] { validate_scene(t, "w.json"); }, field);
    };
    EXPECT_NE(message(s, "probes[0].wedge.material").find("probe 'W': unknown material 'perspex'"), std::string::npos);
    s.materials.push_back(rexolite());
    s.probes[0].wedge->material = "rexolite";
    EXPECT_NO_THROW(validate_scene(s, "w.json"));
    for (double angle : {0.0, 90.0, -10.0}) {
        Scene t = s;
        t.probes[0].wedge->angle = angle;
        EXPECT_NE(message(t, "probes[0].wedge.angle").find("strictly between 0 and 90"), std::string::npos);
    }
    Scene tall = s;
    tall.probes[0].wedge->height = 6e-3;
    EXPECT_NE(message(tall, "probes[0].wedge.height").find("probe 'W': the wedge reaches outside the grid along z"),
              std::string::npos);
    Scene wide = s;
    wide.probes[0].wedge->width = 40e-3;
    EXPECT_NE(message(wide, "probes[0].wedge.width").find("outside the grid along y"), std::string::npos);
    Scene short_block = s;
    short_block.probes[0].wedge->length = 2e-3;
    EXPECT_NE(message(short_block, "probes[0].wedge.length").find("must cover the array's aperture"),
              std::string::npos);
    Scene piston = s;
    piston.probes[0].type = "piston";
    piston.probes[0].elements = 1;
    piston.probes[0].diameter = 4e-3;
    piston.probes[0].delay_law = {};
    EXPECT_NE(message(piston, "probes[0].type").find("needs an array"), std::string::npos);

    // The probe library's wedge reads and builds on a steel block with rexolite.
    {
        const std::vector<ProbeSpec> lib =
            read_probe_library(std::string(VOXWAVE_ASSETS_DIR) + "/probes/wedge_55s_2.25mhz.json");
        ASSERT_EQ(lib.size(), 1u);
        ASSERT_TRUE(lib[0].wedge.has_value());
        Scene t = steel_slab_in_void(120, 40, 84, 0.25e-3, 12e-3);
        t.materials.push_back(rexolite());
        t.probes = lib;
        t.probes[0].center = {14e-3, 5e-3, 12e-3};
        validate_scene(t, "lib");
        const WaveProblem wp = build_wave_problem(t, "lib");
        ASSERT_EQ(wp.probes.size(), 1u);
        // Past the first critical angle: the law steers at the steel's vs, the last element first.
        const double a = std::asin(kWedgeVp * std::sin(rad(55)) / kSteelVs);
        EXPECT_NEAR(wp.probes[0].delays.back(), 15 * 0.6e-3 * std::sin(a) / kWedgeVp, 1e-13);
    }
    // The scene file: the wedge round-trips, a wedge key typo is named.
    test::TempDir dir;
    write_scene_json(dir.file("w.json"), s);
    EXPECT_TRUE(read_scene_json(dir.file("w.json")).probes == s.probes);
    std::string text = scene_to_json_text(s);
    text.replace(text.find("\"height\""), 8, "\"heigth\"");
    EXPECT_NE(test::input_error_message([&] { parse_scene_json(text, "w.json", dir.str()); }, "probes[0].wedge.heigth")
                  .find("unknown key"),
              std::string::npos);
}

// The wedge: "55 degree shear in steel". A 32-element 1.2 mm array at 1 MHz on a 10 mm
// rexolite block (incidence 36.6 degrees, past the first critical angle: only S refracts) with the
// law steer 55 at vs. The S amplitude (the peak particle velocity across the ray) on a 60 mm arc
// about the central ray's exit point peaks within 2 degrees of 55: the vertex of the
// least-squares parabola through the lobe's points above 70 % of its largest (receivers snap to
// nodes, so single points scatter). Scaled for CI: 1 MHz at ds = 0.4 mm (8 voxels an S wavelength
// in steel, 5.8 a P wavelength in the wedge) in a slab 4 voxels thick with free faces (plane
// stress: the S speeds are unchanged, and the refraction follows the trace velocity c_w / sin(a)
// the law imposes along the interface), PML on the sides and the bottom; each receiver's window
// ends before the wedge's first reverberation (the earliest arrival + the 3-cycle burst + 2.5 us;
// the echo inside the block follows 2 h cos(a) / c_wedge = 6.9 us after the direct wave).
TEST(WedgeBeam, FiftyFiveDegreeShearWedgeRefractsToFiftyFive) {
    const double ds = 0.4e-3, f = 1e6, h = 25 * ds, cycles = 3;
    const int nx = 246, ny = 4, nz = 163, n_steel = 138;
    Scene s = steel_slab_in_void(nx, ny, nz, ds, n_steel * ds);
    s.materials.push_back(rexolite());
    s.run.steps = 0;
    s.boundary.absorbing.type = "pml";
    s.boundary.absorbing.faces = {"x-", "x+", "z-"};
    s.boundary.absorbing.thickness = 5 * ds;
    ProbeSpec p = wedge_array(74 * ds, 2 * ds, n_steel * ds, "rexolite");
    p.elements = 32;
    p.pitch = 1.2e-3;
    p.element_width = 1.0e-3;
    p.elevation = ny * ds;
    p.wedge->height = h;
    p.wedge->angle = 36.6;
    p.wavelet.frequency = f;
    p.wavelet.cycles = cycles;
    p.receive = false;
    s.probes = {p};
    validate_scene(s, "wedge");

    // The law's delays and the elements' positions, to time each receiver's window.
    const std::vector<double> x = probe_element_offsets(p.elements, p.pitch);
    const std::vector<double> d =
        wedge_delay_law_delays(p.delay_law, p.wedge->angle, x, std::vector<double>(x.size(), h), kWedgeVp, kSteelVs);
    const double a = std::asin(kWedgeVp * std::sin(rad(55)) / kSteelVs);
    const Vec3 exit{p.center[0] + h * std::tan(a), p.center[1], p.center[2]};
    const double R = 60e-3;
    const VoxelGrid g = rasterise(s);
    std::vector<double> angle, window_end;
    std::vector<Vec3> across;
    for (int deg_ = 30; deg_ <= 75; ++deg_) {
        const double th = rad(deg_);
        const auto n = nearest_node(g, {exit[0] + R * std::sin(th), exit[1], exit[2] - R * std::cos(th)});
        const Vec3 q = g.node_position(n[0], n[1], n[2]);
        s.receivers.push_back({"r" + std::to_string(deg_), q});
        const double dx = q[0] - exit[0], dz = exit[2] - q[2], phi = std::atan2(dx, dz);
        angle.push_back(deg(phi));
        across.push_back({std::cos(phi), 0, std::sin(phi)});
        // The earliest wedge P to steel S arrival from any element (the interface point by a
        // fine scan, independent of the law's minimiser).
        double first = 1e9;
        for (std::size_t e = 0; e < x.size(); ++e)
            for (int k = 0; k <= 4000; ++k) {
                const double xi = x[e] - 5e-3 + k * 100e-3 / 4000;
                const double t =
                    d[e] + std::hypot(xi - x[e], h) / kWedgeVp + std::hypot(q[0] - p.center[0] - xi, dz) / kSteelVs;
                first = std::min(first, t);
            }
        window_end.push_back(first + cycles / f + 2.5e-6);
    }
    s.run.duration = *std::max_element(window_end.begin(), window_end.end()) + 0.1e-6;
    const Result r = run_wave(build_wave_problem(s, "wedge"), {});
    std::vector<double> amplitude;
    for (std::size_t i = 0; i < angle.size(); ++i) {
        double peak = 0;
        for (std::size_t t = 0; t < r.sample_count() && r.time[t] < window_end[i]; ++t) {
            double v = 0;
            for (int c = 0; c < 3; ++c) v += r.velocity[(i * r.sample_count() + t) * 3 + c] * across[i][c];
            peak = std::max(peak, std::abs(v));
        }
        amplitude.push_back(peak);
    }
    // Least squares y = c0 + c1 u + c2 u^2 (u = angle - 55) over the lobe's top.
    const double top = *std::max_element(amplitude.begin(), amplitude.end());
    double m[3][4] = {};
    for (std::size_t i = 0; i < angle.size(); ++i) {
        if (amplitude[i] < 0.7 * top) continue;
        const double u = angle[i] - 55, row[3] = {1, u, u * u};
        for (int j = 0; j < 3; ++j) {
            for (int k = 0; k < 3; ++k) m[j][k] += row[j] * row[k];
            m[j][3] += row[j] * amplitude[i];
        }
    }
    for (int j = 0; j < 3; ++j)  // Gauss-Jordan on the 3 x 3 normal equations
        for (int k = 0; k < 3; ++k) {
            if (k == j) continue;
            const double q = m[k][j] / m[j][j];
            for (int c = 0; c < 4; ++c) m[k][c] -= q * m[j][c];
        }
    const double c1 = m[1][3] / m[1][1], c2 = m[2][3] / m[2][2];
    ASSERT_LT(c2, 0) << "the lobe has no maximum";
    const double at = 55 - c1 / (2 * c2);
    std::printf("55-degree shear wedge: S maximum on the 60 mm arc at %.2f degrees (incidence %.2f)\n", at, deg(a));
    EXPECT_NEAR(at, 55.0, 2.0);
}
