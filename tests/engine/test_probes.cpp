// Probes and scans (engine/probe, wave/probe_scan): footprints against hand-integrated shape
// functions and closed-form areas, delay laws against their geometry, the scene contract's
// errors, the result layout, reciprocity of two probes, and a B-scan over a side-drilled hole.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "core/errors.hpp"
#include "probe/delay_law.hpp"
#include "probe/probe_footprint.hpp"
#include "scene/rasterise.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/probe_scan.hpp"
#include "wave/receiver_scans.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kPi = std::numbers::pi;

// A piston on the top face (z = nz ds) of a block, pushing down into it.
ProbeSpec top_piston(const std::string& name, double x, double y, double z) {
    ProbeSpec p;
    p.name = name;
    p.center = {x, y, z};
    p.normal = {0, 0, -1};
    p.shape = "disk";
    p.diameter = 0;
    p.wavelet = ricker(1e5, 1.2e-5);
    return p;
}

// An array on the same top face, firing the same wavelet as top_piston.
ProbeSpec top_array(const std::string& name, int elements, double pitch, double width, double elevation, double x,
                    double y, double z) {
    return top_array_probe(name, elements, pitch, width, elevation, {x, y, z}, ricker(1e5, 1.2e-5));
}

double sum_weights(const std::vector<NodalWeight>& w) {
    double s = 0;
    for (const auto& n : w) s += n.weight;
    return s;
}

}  // namespace

// A disk of diameter 10 ds: the consistent weights add up to its area (the midpoint rule on 16 x
// 16 points a voxel face misses at most the boundary cells' slivers) and all sit on the top plane.
TEST(ProbeFootprint, DiskWeightsAddUpToItsArea) {
    const double ds = 1e-3;
    Scene s = block_scene(16, 16, 6, ds);
    const VoxelGrid g = rasterise(s);
    ProbeSpec p = top_piston("A", 8.3e-3, 7.6e-3, 6 * ds);
    p.diameter = 10 * ds;
    const ProbeFootprint f = probe_footprint(p, g, "scene.json", "probes[0]");
    ASSERT_EQ(f.elements.size(), 1u);
    EXPECT_NEAR(f.areas[0], kPi * 25 * ds * ds, 2e-3 * kPi * 25 * ds * ds);
    EXPECT_NEAR(sum_weights(f.elements[0]), f.areas[0], 1e-15);
    const std::size_t plane = std::size_t(17) * 17;
    for (const auto& w : f.elements[0]) {
        EXPECT_EQ(w.node / plane, 6u);
        EXPECT_GT(w.weight, 0);
    }
    EXPECT_EQ(f.normal_axis, 2);
    EXPECT_DOUBLE_EQ(f.direction[2], -1.0);
}

// An array element narrower than a voxel, x in [0.2, 0.5] ds and y in [1.25, 3.75] ds: its four
// x-y node columns get the integrals of the bilinear hats, written out here by hand.
TEST(ProbeFootprint, SubVoxelElementGetsTheIntegralsOfTheHats) {
    const double ds = 1e-3;
    Scene s = block_scene(6, 6, 3, ds);
    const VoxelGrid g = rasterise(s);
    // One element of width 0.3 ds centred at x = 0.35 ds, elevation 2.5 ds centred at y = 2.5 ds.
    ProbeSpec p = top_array("A", 1, ds, 0.3 * ds, 2.5 * ds, 0.35 * ds, 2.5 * ds, 3 * ds);
    const ProbeFootprint f = probe_footprint(p, g, "scene.json", "probes[0]");
    ASSERT_EQ(f.elements.size(), 1u);
    EXPECT_NEAR(f.areas[0], 0.3 * 2.5 * ds * ds, 1e-18);
    // x: hats of nodes i = 0, 1 over [0.2, 0.5]: (0.3 - (0.25 - 0.04) / 2) ds and (0.25 - 0.04) / 2 ds.
    const double wx[2] = {0.195 * ds, 0.105 * ds};
    // y: [1.25, 3.75] ds covers node 1's upper half partly, nodes 2 and 3 wholly, node 4 partly.
    // node 1: int_{0.25}^{1} (1 - xi) = 0.28125; node 2: int_{0.25}^{1} xi + 1/2 = 0.46875 + 0.5;
    // node 3: 0.5 + int_0^{0.75} (1 - xi) = 0.5 + 0.46875; node 4: int_0^{0.75} xi = 0.28125.
    const double wy[5] = {0, 0.28125 * ds, 0.96875 * ds, 0.96875 * ds, 0.28125 * ds};
    double checked = 0;
    for (const auto& w : f.elements[0]) {
        const std::size_t i = w.node % 7, j = w.node / 7 % 7;
        ASSERT_LT(i, 2u);
        ASSERT_GE(j, 1u);
        ASSERT_LE(j, 4u);
        EXPECT_NEAR(w.weight, wx[i] * wy[j], 1e-18) << "node " << i << ", " << j;
        checked += w.weight;
    }
    EXPECT_EQ(f.elements[0].size(), 8u);
    EXPECT_NEAR(checked, 0.75 * ds * ds, 1e-18);
}

TEST(ProbeFootprint, AFaceInsideTheMaterialIsRefused) {
    const double ds = 1e-3;
    const VoxelGrid g = rasterise(block_scene(10, 10, 10, ds));
    ProbeSpec p = top_piston("A", 5e-3, 5e-3, 5e-3);
    p.diameter = 4e-3;
    const std::string msg =
        test::input_error_message([&] { probe_footprint(p, g, "s.json", "probes[0]"); }, "probes[0].center");
    EXPECT_NE(msg.find("probe 'A'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("not on a surface"), std::string::npos) << msg;
    // Facing out of the specimen (the normal must point into it): void under the face.
    p.center = {5e-3, 5e-3, 10e-3};
    p.normal = {0, 0, 1};
    const std::string out =
        test::input_error_message([&] { probe_footprint(p, g, "s.json", "probes[0]"); }, "probes[0].center");
    EXPECT_NE(out.find("no material under it"), std::string::npos) << out;
}

TEST(ProbeFootprint, ElementsOutsideTheGridAreRefused) {
    const double ds = 1e-3;
    const VoxelGrid g = rasterise(block_scene(10, 10, 4, ds));
    const ProbeSpec p = top_array("A", 16, 0.75e-3, 0.6e-3, 5e-3, 5e-3, 5e-3, 4e-3);  // 12 mm on a 10 mm face
    const std::string msg =
        test::input_error_message([&] { probe_footprint(p, g, "s.json", "probes[0]"); }, "probes[0].elements");
    EXPECT_NE(msg.find("probe 'A': element 0 reaches outside the grid along x"), std::string::npos) << msg;
}

// Steering: d_e = x_e sin(theta) / c from the earliest element; focus: every element's delay plus
// its travel time to the focus is the same.
TEST(DelayLaw, SteerAndFocusFollowTheirGeometry) {
    const std::vector<double> x = probe_element_offsets(16, 0.75e-3);
    EXPECT_DOUBLE_EQ(x[0], -7.5 * 0.75e-3);
    EXPECT_DOUBLE_EQ(x[15], 7.5 * 0.75e-3);
    const double c = 5900;
    DelayLawSpec steer{"steer", 30, 0, {}, {}};
    const std::vector<double> d = delay_law_delays(steer, x, c);
    for (std::size_t e = 0; e < x.size(); ++e) EXPECT_NEAR(d[e], (x[e] - x[0]) * 0.5 / c, 1e-18);
    DelayLawSpec focus{"focus", -20, 15e-3, {}, {}};
    const std::vector<double> f = delay_law_delays(focus, x, c);
    const double fx = 15e-3 * std::tan(-20 * kPi / 180);
    double lo = 1e9;
    for (std::size_t e = 0; e < x.size(); ++e) {
        const double arrival = f[e] + std::hypot(fx - x[e], 15e-3) / c;
        EXPECT_NEAR(arrival, f[0] + std::hypot(fx - x[0], 15e-3) / c, 1e-15);
        lo = std::min(lo, f[e]);
    }
    EXPECT_EQ(lo, 0.0);
    // Focused to the -x side: the far (+x) elements fire first.
    EXPECT_GT(f[0], f[15]);
}

// A sub-aperture [2, 4] of 8 elements fires alone, with the law of a 4-element probe about its
// own centre: element e's delay (x_e - x_2) sin(theta) / c, the others silent (no loads) at 0.
TEST(DelayLaw, SubApertureFiresAloneWithItsOwnLaw) {
    Scene s = block_scene(20, 10, 4, 1e-3, steel());
    ProbeSpec a = top_array("PA", 8, 1e-3, 0.8e-3, 4e-3, 10e-3, 5e-3, 4e-3);
    a.delay_law = {"steer", -25, 0, {}, {}};
    a.active_first = 2;
    a.active_count = 4;
    s.probes = {a};
    const WaveProblem p = build_wave_problem(s, "sub");
    ASSERT_EQ(p.probes.size(), 1u);
    const std::vector<double>& d = p.probes[0].delays;
    const double sine = std::sin(-25 * kPi / 180);
    for (int e = 0; e < 8; ++e) {
        // Negative angle: the +x end fires first, element 5 at 0.
        const double expected = e < 2 || e > 5 ? 0.0 : (e - 5) * 1e-3 * sine / 5900;
        EXPECT_NEAR(d[std::size_t(e)], expected, 1e-18) << "element " << e;
    }
    for (const SourceTerm& t : p.sources) {
        const int e = std::stoi(t.name.substr(t.name.find('[') + 1));
        EXPECT_GE(e, 2);
        EXPECT_LE(e, 5);
        EXPECT_DOUBLE_EQ(t.time_shift, d[std::size_t(e)]);
    }
    EXPECT_TRUE(p.probes[0].elements[0].empty());
    EXPECT_FALSE(p.probes[0].elements[3].empty());
}

// The scene contract: a probe and a scan survive write and read; each bad key is one error
// naming the probe and the field.
TEST(ProbeScene, ProbesAndScanRoundTripAndBadKeysAreNamed) {
    test::TempDir dir;
    Scene s = block_scene(20, 10, 10, 1e-3);
    ProbeSpec a = top_array("PA", 8, 1e-3, 0.8e-3, 4e-3, 10e-3, 5e-3, 10e-3);
    a.delay_law = {"focus", 15, 6e-3, 5000.0, {}};
    a.active_first = 2;
    a.active_count = 4;
    ProbeSpec b = top_piston("UT", 5e-3, 5e-3, 10e-3);
    b.shape = "rect";
    b.width = 3e-3;
    b.length = 2e-3;
    b.mode = "shear";
    b.polarization = {0, 1, 0};
    b.transmit = false;
    s.probes = {a, b};
    s.scan = ScanSpec{"PA", "raster", {1e-3, 0, 0}, 3, {0, 1e-3, 0}, 2, true, 1e-6, 4e-6};
    write_scene_json(dir.file("p.json"), s);
    const Scene back = read_scene_json(dir.file("p.json"));
    EXPECT_TRUE(back.probes == s.probes);
    EXPECT_TRUE(back.scan == s.scan);

    const std::string text = scene_to_json_text(s);
    auto edited = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        const auto at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return t.replace(at, from.size(), to);
    };
    auto message = [&](const std::string& t, const std::string& field) {
        return test::input_error_message([&] { parse_scene_json(t, "p.json", dir.str()); }, field);
    };
    Scene steep = s;
    steep.probes[0].delay_law.angle = 95;
    EXPECT_NE(test::input_error_message([&] { validate_scene(steep, "p.json"); }, "probes[0].delay_law.angle")
                  .find("probe 'PA'"),
              std::string::npos);
    EXPECT_NE(message(edited("\"elements\": 8", "\"elements\": 8, \"lens\": 1"), "probes[0].lens").find("unknown key"),
              std::string::npos);
    const std::string wedge =
        message(edited("\"elements\": 8", "\"elements\": 8, \"wedge\": {\"material\": \"rexolite\", \"angle\": 36}"),
                "probes[0].wedge.height");
    EXPECT_NE(wedge.find("missing"), std::string::npos) << wedge;
    EXPECT_NE(message(edited("\"type\": \"piston\"", "\"type\": \"horn\""), "probes[1].type").find("probe 'UT'"),
              std::string::npos);
    EXPECT_NE(message(edited("\"probe\": \"PA\"", "\"probe\": \"PB\""), "scan.probe").find("no probe named 'PB'"),
              std::string::npos);
}

// Every probe of the library reads and runs as a scene's probe.
TEST(ProbeScene, TheProbeLibraryReads) {
    for (const char* file : {"disk_10mm_2.25mhz.json", "array_32el_5mhz.json", "array_16el_2.25mhz.json"}) {
        const std::vector<ProbeSpec> lib = read_probe_library(std::string(VOXWAVE_ASSETS_DIR) + "/probes/" + file);
        ASSERT_EQ(lib.size(), 1u) << file;
        Scene s = block_scene(100, 40, 20, 0.25e-3, steel());
        s.probes = lib;
        s.probes[0].center = {12.5e-3, 5e-3, 5e-3};
        EXPECT_NO_THROW(validate_scene(s, file)) << file;
        const WaveProblem p = build_wave_problem(s, file);
        EXPECT_EQ(p.probes.size(), 1u);
        EXPECT_GT(p.sources.size(), 0u);
    }
}

TEST(ProbeResult, ProbesAndScanRoundTripThroughHdf5) {
    test::TempDir dir;
    Result r;
    r.method = "ovfem", r.precision = "fp64", r.backend = "cpu", r.stages = 8, r.spacing = 1e-3, r.dt = 1e-7,
    r.steps = 3;
    r.time = {0, 1e-7, 2e-7};
    r.probes.push_back({"UT", false, {0.0}, {1, 2, 3}, 0, 1});
    r.probes.push_back({"PA", true, {0, 1e-7}, {1, 2, 3, 4, 5, 6}, 0, 2});
    ScanRecord s;
    s.probe = "PA", s.type = "raster", s.positions = 2, s.positions2 = 1, s.array = true, s.elements = 2;
    s.shot_positions = {{0, 0, 0}, {1e-3, 0, 0}};
    s.shot_signals = std::vector<double>(12, 0.5);
    s.gated = true, s.gate_start = 0, s.gate_end = 2e-7;
    s.cscan = {0.25, 0.75};
    r.scan = s;
    write_result_h5(dir.file("r.h5"), r);
    EXPECT_TRUE(read_result_h5(dir.file("r.h5")) == r);
}

// Reciprocity (the FEM operators are symmetric): the mean normal velocity that a normal traction
// on A makes over B equals the mean velocity along B's polarization that the same traction along
// it on B makes over A, for faces of equal area (here 3 x 2 voxel rectangles, exact areas).
TEST(ProbeRun, ReciprocityBetweenTwoProbes) {
    const double ds = 1e-3;
    Scene s = block_scene(14, 10, 12, ds, steel());
    s.run.steps = 160;
    ProbeSpec a = top_piston("A", 5e-3, 5e-3, 12e-3);
    a.shape = "rect";
    a.width = 3e-3;
    a.length = 2e-3;
    a.wavelet = ricker(5900.0 / 8e-3, 1.2 / (5900.0 / 8e-3));
    ProbeSpec b = a;
    b.name = "B";
    b.center = {0, 4.5e-3, 5e-3};
    b.normal = {1, 0, 0};
    b.array_axis = {0, 1, 0};
    b.mode = "shear";
    b.polarization = {0, 0.6, 0.8};
    auto signal = [&](bool a_sends) {
        Scene t = s;
        t.probes = {a, b};
        t.probes[0].transmit = a_sends, t.probes[0].receive = !a_sends;
        t.probes[1].transmit = !a_sends, t.probes[1].receive = a_sends;
        const Result r = run_wave(build_wave_problem(t, "reciprocity"), {});
        EXPECT_EQ(r.probes.size(), 1u);
        EXPECT_EQ(r.receiver_count(), 0u);
        return r.probes.at(0).element_signals;
    };
    const std::vector<double> ab = signal(true), ba = signal(false);
    ASSERT_EQ(ab.size(), ba.size());
    double peak = 0, diff = 0;
    for (std::size_t n = 0; n < ab.size(); ++n) {
        peak = std::max(peak, std::abs(ab[n]));
        diff = std::max(diff, std::abs(ab[n] - ba[n]));
    }
    EXPECT_GT(peak, 0);
    EXPECT_LT(diff, 0.01 * peak) << "peak " << peak << ", largest difference " << diff;
    std::printf("reciprocity: largest difference %.3g of the peak\n", diff / peak);
}

// A linear scan of 20 shots over a side-drilled hole (the B-scan, scaled: 8 voxels a P
// wavelength, a 4 x 8 mm line-like probe across a plate 8 mm wide, PML on the x faces so the
// ends of the scan see no wall echo): the hyperbola's apex, the shot whose hole echo comes
// first, lies within one step of the hole's lateral position; the same shot's echo is the
// strongest; and the first echo arrives no earlier than the P wave's round trip to the hole.
TEST(ProbeScan, BscanApexIsAboveTheSideDrilledHole) {
    const double ds = 1e-3, vp = 5900, lambda = 8 * ds, f = vp / lambda;
    const double hole_x = 31.4e-3, hole_depth = 15e-3, hole_r = 3e-3, step = 2e-3;
    Scene s = block_scene(64, 8, 30, ds, steel());
    s.shapes.push_back({"void", CylinderShape{{hole_x, 4e-3, 30e-3 - hole_depth}, {0, 1, 0}, hole_r, 20e-3}});
    s.boundary.absorbing.type = "pml";
    s.boundary.absorbing.faces = {"x-", "x+"};
    s.boundary.absorbing.thickness = 5 * ds;
    ProbeSpec p = top_piston("UT", 13e-3, 4e-3, 30e-3);
    p.shape = "rect";
    p.width = 4e-3;
    p.length = 8e-3;
    p.wavelet = ricker(f, 1.2 / f);
    s.probes = {p};
    // From the end of the transmitted Ricker to the onset of the back-wall echo (30 mm down and up).
    const double gate0 = 2 * (1.2 / f) + 0.5 / f, gate1 = 0.6 / f + 2 * (30e-3 - 1e-3) / vp;
    s.scan = ScanSpec{"UT", "linear", {step, 0, 0}, 20, {0, 0, 0}, 1, true, gate0, gate1};
    s.run.steps = 0;
    s.run.duration = gate1;
    validate_scene(s, "bscan");
    const Result r = run_probe_scan(s, rasterise(s), "bscan", {});
    ASSERT_TRUE(r.scan.has_value());
    const ScanRecord& scan = *r.scan;
    ASSERT_EQ(scan.shot_positions.size(), 20u);
    ASSERT_EQ(scan.cscan.size(), 20u);
    const std::size_t nt = r.sample_count();
    // Each shot's echo: the envelope's first crossing of half the scan's largest gated envelope.
    std::vector<std::vector<double>> env;
    double top = 0;
    for (std::size_t k = 0; k < 20; ++k) {
        env.push_back(hilbert_envelope(std::vector<double>(scan.shot_signals.begin() + std::ptrdiff_t(k * nt),
                                                           scan.shot_signals.begin() + std::ptrdiff_t((k + 1) * nt))));
        top = std::max(top, gated_peak(env.back(), r.dt, gate0, gate1).amplitude);
    }
    std::size_t first_shot = 0, strongest = 0;
    double first_time = 1e9;
    for (std::size_t k = 0; k < 20; ++k) {
        for (std::size_t n = 0; n < nt; ++n) {
            const double t = double(n) * r.dt;
            if (t < gate0 || t > gate1 || env[k][n] < 0.5 * top) continue;
            if (t < first_time) first_time = t, first_shot = k;
            break;
        }
        if (scan.cscan[k] > scan.cscan[strongest]) strongest = k;
        std::printf("shot %2zu at x = %5.1f mm: gated peak %.4g\n", k, scan.shot_positions[k][0] * 1e3, scan.cscan[k]);
    }
    const double apex_x = scan.shot_positions[first_shot][0];
    std::printf("apex: shot %zu at x = %.1f mm (hole at %.1f mm), echo at %.3g s; strongest shot %zu\n", first_shot,
                apex_x * 1e3, hole_x * 1e3, first_time, strongest);
    EXPECT_LE(std::abs(apex_x - hole_x), step);
    EXPECT_LE(std::abs(scan.shot_positions[strongest][0] - hole_x), step);
    // The echo cannot beat the P wave to the hole's top and back (its onset is half a period
    // before the Ricker's peak at 1.2 / f).
    EXPECT_GE(first_time, 1.2 / f - 0.5 / f + 2 * (hole_depth - hole_r) / vp);
}

// ---------------------------------------------------------------------------------------------
// Beams in steel at 2 MHz (lambda_P = 2.95 mm), at 8 voxels a P wavelength (ds = lambda / 8).
// Amplitudes are the peaks of the particle velocity before any S wave (from any part of the
// probe face) or any boundary echo can reach the receiver, so that they measure the P beam.

namespace {

constexpr double kVp = 5900, kVs = 3200, kF = 2e6, kLambda = kVp / kF, kDs = kLambda / 8;

struct Probe2d {
    std::vector<double> x;       // element centres along x, metres (from the probe's centre)
    std::vector<double> delays;  // s
};

// Receivers' peak |v . dir_r| within [0, end_r), with end_r the first S arrival from the face
// points `face_x` (metres along x from the probe's centre, each firing at its delay) and the
// first echo from the model's walls and bottom (image sources of the face's nearest point).
struct BeamSetup {
    Scene scene;
    Vec3 center;
    std::vector<Vec3> receivers, directions;
    std::vector<double> face_x, face_delay;
    bool walls_echo = true;  // false where a PML lines the walls and the bottom
};

// With `at_frequency`, the amplitude is instead |sum_t v(t) exp(-i 2 pi kF t) dt| over the same
// window: the P field's continuous-wave amplitude at kF (the window holds every P arrival of a
// short burst and none of the S ones), what a long tone burst reaches in its steady state.
std::vector<double> beam_peaks(const BeamSetup& b, bool at_frequency = false) {
    Scene s = b.scene;
    s.receivers.clear();
    for (std::size_t i = 0; i < b.receivers.size(); ++i)
        s.receivers.push_back({"r" + std::to_string(i), b.receivers[i]});
    const WaveProblem p = build_wave_problem(s, "beam");
    const Result r = run_wave(p, {});
    const double xmax = s.grid.size[0], depth = s.grid.size[2];
    std::vector<double> peaks;
    for (std::size_t i = 0; i < b.receivers.size(); ++i) {
        const Vec3& q = r.receiver_positions[i];
        const double dx = q[0] - b.center[0], dz = b.center[2] - q[2];
        double end = 1e9;
        for (std::size_t k = 0; k < b.face_x.size(); ++k) {
            const double fx = b.center[0] + b.face_x[k];
            end = std::min(end, b.face_delay[k] + std::hypot(dx - b.face_x[k], dz) / kVs);
            if (!b.walls_echo) continue;
            // P echoes from the walls x = 0, x = xmax and the bottom, by image receivers.
            end = std::min(end, b.face_delay[k] + std::hypot(fx + q[0], dz) / kVp);
            end = std::min(end, b.face_delay[k] + std::hypot(2 * xmax - fx - q[0], dz) / kVp);
            end = std::min(end, b.face_delay[k] + std::hypot(fx - q[0], 2 * depth - dz) / kVp);
        }
        double peak = 0, re = 0, im = 0;
        for (std::size_t t = 0; t < r.sample_count() && r.time[t] < end; ++t) {
            double v = 0;
            for (int c = 0; c < 3; ++c) v += r.velocity[(i * r.sample_count() + t) * 3 + c] * b.directions[i][c];
            peak = std::max(peak, std::abs(v));
            re += v * std::cos(2 * kPi * kF * r.time[t]) * r.dt;
            im -= v * std::sin(2 * kPi * kF * r.time[t]) * r.dt;
        }
        peaks.push_back(at_frequency ? std::hypot(re, im) : peak);
    }
    return peaks;
}

// The abscissa of the largest value, refined by the parabola through it and its neighbours.
double peak_position(const std::vector<double>& x, const std::vector<double>& y) {
    const std::size_t k = std::size_t(std::max_element(y.begin(), y.end()) - y.begin());
    if (k == 0 || k + 1 == y.size()) return x[k];
    const double x0 = x[k - 1], x1 = x[k], x2 = x[k + 1], y0 = y[k - 1], y1 = y[k], y2 = y[k + 1];
    const double d1 = (y1 - y0) / (x1 - x0), d2 = (y2 - y1) / (x2 - x1), a = (d2 - d1) / (x2 - x0);
    if (a >= 0) return x1;
    // y = y1 + b (x - x1) + a (x - x1)^2 with b from the first divided difference.
    const double b = d1 + a * (x1 - x0);
    return x1 - b / (2 * a);
}

// The array: 16 elements, pitch 0.75 mm, on a steel block; receivers on a 15 mm arc (or
// on the axis), PML on the side walls and the bottom.
BeamSetup array_setup(const DelayLawSpec& law) {
    BeamSetup b;
    const int nx = 98, ny = 20, nz = 56;
    b.scene = block_scene(nx, ny, nz, kDs, steel());
    b.scene.run.steps = 0;
    b.scene.boundary.absorbing.type = "pml";
    b.scene.boundary.absorbing.faces = {"x-", "x+", "z-"};
    b.scene.boundary.absorbing.thickness = 5 * kDs;
    b.walls_echo = false;
    b.center = {49 * kDs, 10 * kDs, nz * kDs};
    ProbeSpec p = top_array("PA", 16, 0.75e-3, 0.65e-3, 10 * kDs, b.center[0], b.center[1], b.center[2]);
    p.wavelet = tone_burst(kF, 3);
    p.delay_law = law;
    p.receive = false;
    b.scene.probes = {p};
    const std::vector<double> x = probe_element_offsets(16, 0.75e-3);
    const std::vector<double> d = delay_law_delays(law, x, kVp);
    for (std::size_t e = 0; e < x.size(); ++e)
        for (double edge : {-0.325e-3, 0.325e-3}) {
            b.face_x.push_back(x[e] + edge);
            b.face_delay.push_back(d[e]);
        }
    return b;
}

// The P maximum's angle on a 15 mm arc, degrees from the normal (towards +x).
double arc_maximum_degrees(const DelayLawSpec& law) {
    BeamSetup b = array_setup(law);
    const double R = 15e-3;
    for (int deg = -60; deg <= 60; ++deg) {
        const double th = deg * kPi / 180;
        b.receivers.push_back({b.center[0] + R * std::sin(th), b.center[1], b.center[2] - R * std::cos(th)});
    }
    // Directions and angles from the snapped nodes: the radial (P) direction of each.
    VoxelGrid g = rasterise(b.scene);
    std::vector<double> angle;
    for (Vec3& q : b.receivers) {
        const auto n = nearest_node(g, q);
        q = g.node_position(n[0], n[1], n[2]);
        const double dx = q[0] - b.center[0], dz = b.center[2] - q[2], r = std::hypot(dx, dz);
        b.directions.push_back({dx / r, 0, -dz / r});
        angle.push_back(std::atan2(dx, dz) * 180 / kPi);
    }
    b.scene.run.duration = 20e-3 / kVp + 1.5e-6 + 1.1e-6;
    const std::vector<double> peaks = beam_peaks(b);
    return peak_position(angle, peaks);
}

}  // namespace

TEST(ProbeBeam, ArraySteeredThirtyDegreesPeaksAtThirty) {
    const double at = arc_maximum_degrees({"steer", 30, 0, {}, {}});
    std::printf("steered 30 degrees: P maximum on the 15 mm arc at %.2f degrees\n", at);
    EXPECT_NEAR(at, 30.0, 2.0);
}

TEST(ProbeBeam, ArrayUnsteeredPeaksOnTheNormal) {
    const double at = arc_maximum_degrees({"none", 0, 0, {}, {}});
    std::printf("unsteered: P maximum on the 15 mm arc at %.2f degrees\n", at);
    EXPECT_NEAR(at, 0.0, 2.0);
}

// Focus at 15 mm on the normal: the largest on-axis P amplitude lies within 10 % of 15 mm. The
// amplitude is the continuous-wave one at 2 MHz (beam_peaks, at_frequency) of a 2-cycle burst,
// short enough that every element's P arrival ends before the first S wave on the axis.
TEST(ProbeBeam, ArrayFocusedAtFifteenMillimetresPeaksThere) {
    BeamSetup b = array_setup({"focus", 0, 15e-3, {}, {}});
    b.scene.probes[0].wavelet = tone_burst(kF, 2);
    std::vector<double> depth;
    for (int k = 8; k <= 48; ++k) {
        b.receivers.push_back({b.center[0], b.center[1], b.center[2] - k * kDs});
        b.directions.push_back({0, 0, -1});
        depth.push_back(k * kDs);
    }
    b.scene.run.duration = 20e-3 / kVp + 1.5e-6 + 1.1e-6;
    const std::vector<double> amplitude = beam_peaks(b, true);
    const double at = peak_position(depth, amplitude);
    std::printf("focused at 15 mm: on-axis P maximum at %.2f mm\n", at * 1e3);
    EXPECT_NEAR(at, 15e-3, 1.5e-3);
}

// The last on-axis maximum of u_z for a uniform normal traction on a disk of radius a on an elastic
// half-space, from the far-field P directivity of a normal surface point load (Miller & Pursey
// 1954): u_r ~ cos(t) (m^2 - 2 sin^2 t) / F0(sin t) exp(i k r) / r, m = vp / vs,
// F0(z) = (2 z^2 - m^2)^2 - 4 z^2 sqrt(z^2 - 1) sqrt(z^2 - m^2), summed over the disk (rings of
// radius rho) and projected on the axis (cos t). It applies where every point of the face is
// many wavelengths from the receiver (k r >= 10 from 4 mm down here). In a fluid (directivity 1)
// the same sum puts the maximum at N = (D^2 - lambda^2) / (4 lambda).
double miller_pursey_last_maximum(double a, double z0, double z1) {
    using C = std::complex<double>;
    const double m = kVp / kVs, k = 2 * kPi / kLambda;
    auto F0 = [&](double zeta) {
        const C z(zeta, 0);
        return (2.0 * z * z - m * m) * (2.0 * z * z - m * m) -
               4.0 * z * z * std::sqrt(z * z - 1.0) * std::sqrt(z * z - m * m);
    };
    const int rings = 800;
    double best = 0, at = z0;
    for (double z = z0; z <= z1; z += 0.01e-3) {
        C u = 0;
        for (int i = 0; i < rings; ++i) {
            const double rho = (i + 0.5) * a / rings, r = std::hypot(z, rho), s = rho / r, c = z / r;
            u += c * (m * m - 2 * s * s) / F0(s) * c * std::exp(C(0, k * r)) / r * (2 * kPi * rho * a / rings);
        }
        if (std::abs(u) > best) best = std::abs(u), at = z;
    }
    return at;
}

// The near field of a 10 mm disk at 2 MHz on steel: the last on-axis maximum of the P amplitude
// within 10 % of the Miller-Pursey prediction for a disk load on a half-space (9.0 mm; a fluid
// piston's N = (D^2 - lambda^2) / (4 lambda) is 7.7 mm: the solid's directivity weakens the
// rim's contribution and moves the maximum down). The continuous-wave amplitude at 2 MHz (what
// a long tone burst reaches) comes from a 2-cycle burst whose P arrivals from the whole face end
// before the rim's S wave reaches the axis (beam_peaks, at_frequency), from 4 mm down, past the
// last minimum but one (sqrt(z^2 + a^2) - z = 3 lambda / 2 at 0.6 mm): one maximum is left.
TEST(ProbeBeam, DiskNearFieldEndsWhereMillerPurseyPutsIt) {
    const double D = 10e-3, N = (D * D - kLambda * kLambda) / (4 * kLambda);
    BeamSetup b;
    const int nx = 56, nz = 66;
    b.scene = block_scene(nx, nx, nz, kDs, steel());
    b.scene.run.steps = 0;
    b.center = {28 * kDs, 28 * kDs, nz * kDs};
    ProbeSpec p = top_piston("UT", b.center[0], b.center[1], b.center[2]);
    p.diameter = D;
    p.wavelet = tone_burst(kF, 2);
    p.receive = false;
    b.scene.probes = {p};
    // The disk's rim in the x-z plane is its earliest S source on the axis.
    b.face_x = {-D / 2, D / 2};
    b.face_delay = {0, 0};
    std::vector<double> depth;
    for (int k = 11; k <= 44; ++k) {
        b.receivers.push_back({b.center[0], b.center[1], b.center[2] - k * kDs});
        b.directions.push_back({0, 0, -1});
        depth.push_back(k * kDs);
    }
    b.scene.run.duration = std::hypot(44 * kDs, D / 2) / kVs;
    const std::vector<double> amplitude = beam_peaks(b, true);
    const double at = peak_position(depth, amplitude);
    const double expected = miller_pursey_last_maximum(D / 2, depth.front(), depth.back());
    std::printf("disk: last on-axis maximum at %.2f mm; Miller-Pursey %.2f mm (fluid N %.2f mm)\n", at * 1e3,
                expected * 1e3, N * 1e3);
    EXPECT_NEAR(at, expected, 0.1 * expected);
}

// The far field of the same disk (at 6 voxels a P wavelength, to keep the larger model fast): the
// -6 dB half-angle of the P amplitude on a 20 mm arc
// (about 2.2 times the last maximum's depth) within 15 % of that of a disk load on a half-space,
// 2 J1(k a sin t) / (k a sin t) times the Miller-Pursey directivity (sin t = 0.51 lambda / D for
// the piston factor alone).
TEST(ProbeBeam, DiskFarFieldHalfAngleFollowsMillerPursey) {
    const double D = 10e-3, a = D / 2, R = 20e-3, k = 2 * kPi / kLambda, m = kVp / kVs;
    auto directivity = [&](double t) {
        using C = std::complex<double>;
        const C z(std::sin(t), 0);
        const C f0 = (2.0 * z * z - m * m) * (2.0 * z * z - m * m) -
                     4.0 * z * z * std::sqrt(z * z - 1.0) * std::sqrt(z * z - m * m);
        const double x = k * a * std::sin(t), piston = x < 1e-12 ? 1.0 : 2 * std::cyl_bessel_j(1.0, x) / x;
        return std::abs(piston * std::cos(t) * (m * m - 2 * std::sin(t) * std::sin(t)) / f0) * m * m;
    };
    double lo = 0, hi = 0.5;
    for (int i = 0; i < 60; ++i) (directivity(0.5 * (lo + hi)) > 0.5 ? lo : hi) = 0.5 * (lo + hi);
    const double expected = 0.5 * (lo + hi) * 180 / kPi;

    BeamSetup b;
    const double ds = kLambda / 6;  // coarser than the other beams' 8 a wavelength: a larger model
    const int nx = 50, ny = 34, nz = 48;
    b.scene = block_scene(nx, ny, nz, ds, steel());
    b.scene.run.steps = 0;
    b.scene.boundary.absorbing.type = "pml";
    b.scene.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-"};
    b.scene.boundary.absorbing.thickness = 4 * ds;
    b.walls_echo = false;
    b.center = {25 * ds, 17 * ds, nz * ds};
    ProbeSpec p = top_piston("UT", b.center[0], b.center[1], b.center[2]);
    p.diameter = D;
    p.wavelet = tone_burst(kF, 2);
    p.receive = false;
    b.scene.probes = {p};
    b.face_x = {-a, a};
    b.face_delay = {0, 0};
    VoxelGrid g = rasterise(b.scene);
    std::vector<double> angle;
    for (double deg = 0; deg <= 24; deg += 1) {
        const double th = deg * kPi / 180;
        const auto n = nearest_node(g, {b.center[0] + R * std::sin(th), b.center[1], b.center[2] - R * std::cos(th)});
        const Vec3 q = g.node_position(n[0], n[1], n[2]);
        const double dx = q[0] - b.center[0], dz = b.center[2] - q[2], r = std::hypot(dx, dz);
        b.receivers.push_back(q);
        b.directions.push_back({dx / r, 0, -dz / r});
        angle.push_back(std::atan2(dx, dz) * 180 / kPi);
    }
    b.scene.run.duration = (R - a) / kVs + 0.5e-6;
    const std::vector<double> amp = beam_peaks(b, true);
    double measured = angle.back();
    for (std::size_t i = 1; i < amp.size(); ++i)
        if (amp[i] < 0.5 * amp[0]) {
            const double f = (amp[i - 1] - 0.5 * amp[0]) / (amp[i - 1] - amp[i]);
            measured = angle[i - 1] + f * (angle[i] - angle[i - 1]);
            break;
        }
    std::printf("disk far field: -6 dB half-angle %.4f degrees; Miller-Pursey disk %.4f, piston factor alone %.2f\n",
                measured, expected, std::asin(0.51 * kLambda / D) * 180 / kPi);
    EXPECT_NEAR(measured, expected, 0.15 * expected);
}
