// Scan execution (wave/probe_scan, wave/wave_run's ShotRunner; docs/architecture.md#probes-and-scans):
// shots run back to back on one stepper give, bit for bit, what independent runs of each shot's
// scene give; the round-robin shares cover every shot once; a wedge's block moves with the probe.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "probe/probe_footprint.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "wave/probe_scan.hpp"
#include "wave/receiver_scans.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

// A 3-element steered array scanned along x over a steel block with a hole, a scene point
// source and receiver beside it (so the scene's own sources and receivers ride along in every
// shot), and the boundary of the case.
Scene scan_scene(const std::string& case_name) {
    const double ds = 1e-3, f = 5900.0 / 8e-3;
    Scene s = block_scene(20, 8, 12, ds, steel());
    s.shapes.push_back({"void", CylinderShape{{10.5e-3, 4e-3, 5e-3}, {0, 1, 0}, 2e-3, 20e-3}});
    ProbeSpec p = top_array_probe("PA", 3, 1.25e-3, 1e-3, 4e-3, {5e-3, 4e-3, 12e-3}, ricker(f, 1.2 / f));
    p.delay_law = {"steer", 20, 0, {}, {}};
    s.probes = {p};
    s.sources = {{"S", {17e-3, 4e-3, 12e-3}, {0, 0, -1}, 1e3, ricker(f, 1.5 / f)}};
    s.receivers = {{"R", {2e-3, 4e-3, 0}}};
    s.scan = ScanSpec{"PA", "linear", {2e-3, 0, 0}, 4, {0, 0, 0}, 1, true, 2e-6, 5e-6};
    s.run.steps = 90;
    if (case_name == "pml") {
        s.boundary.absorbing.type = "pml";
        s.boundary.absorbing.faces = {"x-", "x+", "z-"};
        s.boundary.absorbing.thickness = 3 * ds;
    } else if (case_name == "sponge-fp32") {
        s.boundary.absorbing.type = "sponge";
        s.boundary.absorbing.faces = {"x-", "z-"};
        s.boundary.absorbing.thickness = 3 * ds;
        s.damping = {"rayleigh", 0.02, 0.5 * f, 1.5 * f};
        s.run.precision = Precision::Fp32;
    } else if (case_name == "tcovfem") {
        s.run.method = Method::Tcovfem;
        s.run.stages = 3;
    }
    return s;
}

class ScanBackToBack : public ::testing::TestWithParam<const char*> {};

}  // namespace

// The issue's rule for reuse: a scan's rows are the signals of independent single runs of each
// shot's scene (a fresh problem and stepper each), exactly; so is the gated C-scan value, and
// shot 0's whole result (its traces and probes) is the file's.
TEST_P(ScanBackToBack, RowsEqualIndependentRunsOfEachShotBitForBit) {
    const Scene s = scan_scene(GetParam());
    validate_scene(s, "scan");
    const Result scan = run_probe_scan(s, rasterise(s), "scan", {});
    ASSERT_TRUE(scan.scan.has_value());
    const ScanRecord& rec = *scan.scan;
    const std::vector<ScanShot> shots = scan_shots(s, "scan");
    ASSERT_EQ(shots.size(), 4u);
    const std::size_t nt = std::size_t(s.run.steps), row = 3 * nt;
    ASSERT_EQ(rec.shot_signals.size(), shots.size() * row);
    ASSERT_EQ(rec.cscan.size(), shots.size());
    std::vector<double> previous;
    for (const ScanShot& shot : shots) {
        SCOPED_TRACE(shot.label);
        EXPECT_DOUBLE_EQ(rec.shot_positions[shot.index][0], 5e-3 + 2e-3 * double(shot.index));
        const Result alone = run_wave(build_wave_problem(shot_scene(s, shot), "shot"), {});
        ASSERT_EQ(alone.probes.size(), 1u);
        const std::vector<double>& expected = alone.probes[0].element_signals;
        ASSERT_EQ(expected.size(), row);
        const std::vector<double> got(rec.shot_signals.begin() + std::ptrdiff_t(shot.index * row),
                                      rec.shot_signals.begin() + std::ptrdiff_t((shot.index + 1) * row));
        EXPECT_TRUE(got == expected);
        // Each shot sees something, and something else than the shot before (the probe moved).
        EXPECT_GT(*std::max_element(expected.begin(), expected.end()), 0.0);
        if (!previous.empty()) EXPECT_FALSE(previous == expected);
        previous = expected;
        const std::vector<double> sum = delay_and_sum(expected, nt, alone.probes[0].delays, alone.dt);
        EXPECT_EQ(rec.cscan[shot.index], gated_peak(sum, alone.dt, 2e-6, 5e-6).amplitude);
        if (shot.index == 0) {
            EXPECT_TRUE(scan.displacement == alone.displacement);
            EXPECT_TRUE(scan.velocity == alone.velocity);
            EXPECT_TRUE(scan.probes == alone.probes);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Boundaries, ScanBackToBack, ::testing::Values("free", "pml", "sponge-fp32", "tcovfem"),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

// A ShotRunner restarted on a changed problem forgets the previous shot: running shot B after
// shot A gives B's fresh result, and A again after B gives A's first result.
TEST(ShotRunner, ARestartedShotForgetsTheOneBefore) {
    Scene s = scan_scene("pml");
    s.scan.reset();
    WaveProblem base = build_wave_problem(s, "runner");
    const std::size_t scene_sources = base.scene_source_count, scene_receivers = base.scene_receiver_count;
    auto place = [&](double x) {
        base.sources.resize(scene_sources);
        base.receivers.resize(scene_receivers);
        base.probes.clear();
        add_probe(base, s.probes[0], {x, 4e-3, 12e-3}, 0, "runner");
    };
    ShotRunner runner(base);
    place(5e-3);
    const Result a1 = runner.run({});
    place(9e-3);
    const Result b = runner.run({});
    place(5e-3);
    const Result a2 = runner.run({});
    EXPECT_TRUE(a1.probes == a2.probes);
    EXPECT_TRUE(a1.displacement == a2.displacement);
    EXPECT_FALSE(a1.probes == b.probes);
    Scene moved = s;
    moved.probes[0].center = {9e-3, 4e-3, 12e-3};
    const Result b_alone = run_wave(build_wave_problem(moved, "runner"), {});
    EXPECT_TRUE(b.probes == b_alone.probes);
    EXPECT_TRUE(b.velocity == b_alone.velocity);
}

// The ranks' shares: round-robin, shot 0 on rank 0, every shot exactly once for 1 to 5 ranks
// (more ranks than shots leaves some idle).
TEST(ScanShare, RoundRobinCoversEveryShotOnce) {
    EXPECT_EQ(shared_shots(7, {1, 3, -1}), (std::vector<std::size_t>{1, 4}));
    EXPECT_EQ(shared_shots(7, {0, 3, -1}), (std::vector<std::size_t>{0, 3, 6}));
    EXPECT_TRUE(shared_shots(2, {3, 4, -1}).empty());
    for (int ranks = 1; ranks <= 5; ++ranks) {
        std::multiset<std::size_t> seen;
        for (int r = 0; r < ranks; ++r)
            for (std::size_t k : shared_shots(4, {r, ranks, -1})) seen.insert(k);
        EXPECT_EQ(seen, (std::multiset<std::size_t>{0, 1, 2, 3})) << ranks << " ranks";
    }
}

// A probe on a wedge is scanned with its block: in shot k's model the wedge material sits
// centred under the probe's shot position (the mean x of its voxel centres, from the voxels
// alone), the same size every shot, and the face sits on the block's top.
TEST(ScanWedge, TheBlockMovesWithTheProbe) {
    const double ds = 0.5e-3;
    Scene s = steel_slab_in_void(40, 16, 30, ds, 20 * ds);
    s.materials.push_back(rexolite());
    ProbeSpec p = top_array_probe("W", 4, 1e-3, 0.8e-3, 4e-3, {20 * ds, 8 * ds, 20 * ds}, ricker(1e6, 1.2e-6));
    p.wedge = WedgeSpec{"rexolite", 36.6, 3e-3, 0, 0};
    p.delay_law = {"steer", 55, 0, {}, {}};
    s.probes = {p};
    s.scan = ScanSpec{"W", "linear", {1.5e-3, 0, 0}, 3, {0, 0, 0}, 1, false, 0, 0};
    s.run.steps = 30;
    validate_scene(s, "wedge-scan");
    const std::vector<ScanShot> shots = scan_shots(s, "wedge-scan");
    ASSERT_EQ(shots.size(), 3u);
    std::size_t count0 = 0;
    for (const ScanShot& shot : shots) {
        SCOPED_TRACE(shot.label);
        const Scene t = shot_scene(s, shot);
        const VoxelGrid g = rasterise(t);
        std::size_t count = 0;
        double sum_x = 0;
        int k_min = 1 << 30, k_max = -1;
        for (int k = 0; k < g.n[2]; ++k)
            for (int j = 0; j < g.n[1]; ++j)
                for (int i = 0; i < g.n[0]; ++i)
                    if (g.at(i, j, k) == 2) {
                        ++count;
                        sum_x += (i + 0.5) * ds;
                        k_min = std::min(k_min, k);
                        k_max = std::max(k_max, k);
                    }
        ASSERT_GT(count, 0u);
        if (shot.index == 0) count0 = count;
        EXPECT_EQ(count, count0);
        EXPECT_NEAR(sum_x / double(count), shot.position[0], 0.5 * ds);
        EXPECT_EQ(k_min, 20);  // on the specimen's top
        EXPECT_EQ(k_max, 25);  // 3 mm high
        const ProbeFootprint f = probe_footprint(t.probes[0], g, "w", "probes[0]");
        EXPECT_DOUBLE_EQ(f.center[0], shot.position[0]);
        EXPECT_DOUBLE_EQ(f.center[2], 26 * ds);
        EXPECT_EQ(f.material, 2);
    }
    // The scan runs each shot on its own model: its rows are the independent runs'.
    const Result scan = run_probe_scan(s, rasterise(s), "wedge-scan", {});
    const std::size_t row = 4 * std::size_t(s.run.steps);
    ASSERT_EQ(scan.scan->shot_signals.size(), 3 * row);
    for (const ScanShot& shot : {shots[0], shots[2]}) {
        const Result alone = run_wave(build_wave_problem(shot_scene(s, shot), "shot"), {});
        const std::vector<double> got(scan.scan->shot_signals.begin() + std::ptrdiff_t(shot.index * row),
                                      scan.scan->shot_signals.begin() + std::ptrdiff_t((shot.index + 1) * row));
        EXPECT_TRUE(got == alone.probes.at(0).element_signals) << shot.label;
    }
    // A shot whose block would leave the grid is refused before anything runs, naming it.
    Scene far = s;
    far.scan->positions = 5;
    try {
        (void)run_probe_scan(far, rasterise(far), "far.json", {});
        ADD_FAILURE() << "no error for a block leaving the grid";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "scan");
        EXPECT_NE(std::string(e.what()).find("shot 5 of 5 at (0.016, 0.004, 0.01) m: probes[0].wedge.length"),
                  std::string::npos)
            << e.what();
    }
}
