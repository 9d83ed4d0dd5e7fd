// Batched shots (wave/batched_shots.hpp): many shots of one model stepped together give the
// signals of the same shots run one at a time through run_wave (the single CPU engine is the
// oracle), and a scan stepped in groups writes the same scan record as one shot after another.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/batched_shots.hpp"
#include "wave/probe_scan.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

// A 14 x 10 x 12 block with a void inclusion: source s at its own node pushing in its own
// direction, every shot with receivers of its own (so a mixed-up member would show).
Scene shots_scene(int steps) {
    const double ds = 1e-3;
    Scene s = block_scene(14, 10, 12, ds, steel());
    s.shapes.push_back({"void", SphereShape{{9e-3, 5e-3, 5e-3}, 2e-3}});
    s.sources.push_back({"S", {3e-3, 4e-3, 12e-3}, {0, 0, -1}, 1.0, ricker(4e5, 3e-6)});
    s.receivers.push_back({"R", {11e-3, 6e-3, 12e-3}});
    s.run.steps = steps;
    return s;
}

// Shot k: the scene's source moved k ds along x and turned, a second receiver per shot.
std::vector<ShotSources> make_shots(const WaveProblem& base, int count) {
    std::vector<ShotSources> shots;
    for (int k = 0; k < count; ++k) {
        ShotSources shot = shot_sources(base);
        SourceTerm& src = shot.sources.front();
        src.node = base.grid.node_index(2 + k, 3 + (k % 3), 12);
        src.force = {0.3 * k, -0.2, -1.0 + 0.1 * k};
        src.time_shift = 1e-7 * k;
        ReceiverPoint extra;
        extra.name = "E" + std::to_string(k);
        extra.node = base.grid.node_index(12 - k, 2 + k % 5, 0);
        shot.receivers.push_back(extra);
        shots.push_back(shot);
    }
    return shots;
}

// The largest difference of displacement and velocity, relative to each trace set's peak.
double largest_relative_difference(const Result& a, const Result& b) {
    EXPECT_EQ(a.displacement.size(), b.displacement.size());
    EXPECT_EQ(a.velocity.size(), b.velocity.size());
    double worst = 0;
    for (auto field : {&Result::displacement, &Result::velocity}) {
        const auto& x = a.*field;
        const auto& y = b.*field;
        double peak = 0, diff = 0;
        for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
            peak = std::max(peak, std::abs(x[i]));
            diff = std::max(diff, std::abs(x[i] - y[i]));
        }
        EXPECT_GT(peak, 0.0);
        worst = std::max(worst, peak > 0 ? diff / peak : 1.0);
    }
    return worst;
}

// Every shot of the batched run against the same shot alone (run_wave, the CPU engine).
void expect_batched_equals_single(const WaveProblem& model, const std::vector<ShotSources>& shots, std::size_t batch,
                                  double tolerance) {
    BatchedShotOptions options;
    options.batch = batch;
    std::string note;
    const std::vector<Result> batched = run_batched_shots(model, shots, options, {}, &note);
    EXPECT_NE(note.find("groups of " + std::to_string(std::min(batch, shots.size()))), std::string::npos) << note;
    ASSERT_EQ(batched.size(), shots.size());
    double worst = 0;
    for (std::size_t k = 0; k < shots.size(); ++k) {
        WaveProblem p = model;
        p.sources = shots[k].sources;
        p.receivers = shots[k].receivers;
        const Result single = run_wave(p, {});
        ASSERT_EQ(batched[k].receiver_names, single.receiver_names);
        worst = std::max(worst, largest_relative_difference(batched[k], single));
    }
    std::printf("%zu shots in groups of %zu: largest difference %.3g of the peak\n", shots.size(), batch, worst);
    EXPECT_LE(worst, tolerance);
}

}  // namespace

TEST(BatchedShots, OvfemFp64EqualsSingleShots) {
    const WaveProblem model = build_wave_problem(shots_scene(60), "batched");
    // 5 shots in groups of 3: a full group and a partial one (padding lanes stay silent).
    expect_batched_equals_single(model, make_shots(model, 5), 3, 1e-12);
}

TEST(BatchedShots, VfemWithRayleighDampingAndSpongeEqualsSingleShots) {
    Scene s = shots_scene(60);
    s.run.method = Method::Vfem;
    s.damping = {"rayleigh", 0.05, 2e5, 6e5};
    s.boundary.absorbing.type = "sponge";
    s.boundary.absorbing.faces = {"x-", "x+", "z-"};
    s.boundary.absorbing.thickness = 3e-3;
    s.boundary.fixed_points = {{0, 0, 0}};
    validate_scene(s, "batched");
    const WaveProblem model = build_wave_problem(s, "batched");
    ASSERT_NE(model.rayleigh.beta, 0.0);
    ASSERT_TRUE(model.boundary.has_node_damping());
    expect_batched_equals_single(model, make_shots(model, 9), 9, 1e-12);
}

TEST(BatchedShots, OvfemFp32EqualsSingleShotsToSinglePrecision) {
    Scene s = shots_scene(60);
    s.run.precision = Precision::Fp32;
    const WaveProblem model = build_wave_problem(s, "batched");
    expect_batched_equals_single(model, make_shots(model, 4), 4, 1e-5);
}

// TCOVFEM on the CPU: each member's element product through the INT8 digits (M = 8 and M = 3),
// against the single TCOVFEM CPU engine, its own oracle.
TEST(BatchedShots, TcovfemEqualsSingleShots) {
    for (int stages : {8, 3}) {
        Scene s = shots_scene(40);
        s.run.method = Method::Tcovfem;
        s.run.stages = stages;
        s.damping = {"rayleigh", 0.05, 2e5, 6e5};
        validate_scene(s, "batched");
        const WaveProblem model = build_wave_problem(s, "batched");
        expect_batched_equals_single(model, make_shots(model, 3), 3, 1e-12);
    }
}

// A PML is not batched: the shots run one at a time, say so, and are the single runs.
TEST(BatchedShots, UnbatchedMethodsRunOneAtATimeAndSaySo) {
    Scene s = shots_scene(20);
    s.boundary.absorbing.type = "pml";
    s.boundary.absorbing.faces = {"x+"};
    s.boundary.absorbing.thickness = 4e-3;
    validate_scene(s, "batched");
    const WaveProblem model = build_wave_problem(s, "batched");
    EXPECT_NE(batched_shots_unsupported(model, Backend::Cpu).find("PML"), std::string::npos);
    const std::vector<ShotSources> shots = make_shots(model, 2);
    std::string note;
    const std::vector<Result> r = run_batched_shots(model, shots, {}, {}, &note);
    EXPECT_NE(note.find("one at a time"), std::string::npos) << note;
    WaveProblem p = model;
    p.sources = shots[1].sources;
    p.receivers = shots[1].receivers;
    EXPECT_EQ(r.at(1).displacement, run_wave(p, {}).displacement);
}

// A linear scan of an array probe: stepped in groups (batch 2 of 3 shots) it records the same
// element signals and C-scan as one shot after another, and so does the batch chosen from memory.
TEST(BatchedShots, ScanInGroupsEqualsScanShotByShot) {
    const double ds = 1e-3;
    Scene s = block_scene(16, 8, 10, ds, steel());
    ProbeSpec p;
    p.name = "PA";
    p.type = "array";
    p.center = {5e-3, 4e-3, 10e-3};
    p.normal = {0, 0, -1};
    p.elements = 4;
    p.pitch = 1e-3;
    p.element_width = 0.8e-3;
    p.elevation = 2e-3;
    p.wavelet = ricker(4e5, 3e-6);
    s.probes = {p};
    s.scan = ScanSpec{"PA", "linear", {2e-3, 0, 0}, 3, {0, 0, 0}, 1, true, 1e-6, 5e-6};
    s.run.steps = 50;
    validate_scene(s, "scan");
    const Result one = run_probe_scan(s, rasterise(s), "scan", {}, nullptr, {}, nullptr, 1);
    for (std::size_t batch : {std::size_t(2), std::size_t(0)}) {
        std::string note;
        std::int64_t last = 0, total = 0;
        const Result grouped = run_probe_scan(
            s, rasterise(s), "scan",
            [&](std::int64_t n, std::int64_t t) {
                EXPECT_GE(n, last);
                last = n;
                total = t;
                return true;
            },
            &note, {}, nullptr, batch);
        // From memory on the CPU: one at a time (the single engine's sweep is faster there).
        EXPECT_NE(note.find(batch ? "3 shots stepped in groups of 2" : "one at a time: the CPU engine"),
                  std::string::npos)
            << note;
        EXPECT_EQ(last, 3 * 50);
        EXPECT_EQ(total, 3 * 50);
        ASSERT_TRUE(one.scan && grouped.scan);
        const auto& a = one.scan->shot_signals;
        const auto& b = grouped.scan->shot_signals;
        ASSERT_EQ(a.size(), b.size());
        double peak = 0, diff = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            peak = std::max(peak, std::abs(a[i]));
            diff = std::max(diff, std::abs(a[i] - b[i]));
        }
        ASSERT_GT(peak, 0.0);
        EXPECT_LE(diff, 1e-12 * peak) << "batch " << batch;
        ASSERT_EQ(one.scan->cscan.size(), grouped.scan->cscan.size());
        for (std::size_t k = 0; k < one.scan->cscan.size(); ++k)
            EXPECT_NEAR(one.scan->cscan[k], grouped.scan->cscan[k], 1e-12 * peak);
        EXPECT_EQ(one.receiver_names, grouped.receiver_names);
        EXPECT_EQ(one.probes.size(), grouped.probes.size());
    }
}

// The batched CUDA step adds a group's sources after its members' steps, one thread a (member,
// node) and component (GroupSourceNodes, add_node_sources): every source once, each node's in
// the group's order, so that a node's u^{n+1} rounds as adding the sources one after another
// does. Written out here for three members, nodes carrying one, two and no sources.
TEST(BatchedShots, GroupSourceNodesAddEachNodesSourcesInTheGroupsOrder) {
    const std::size_t nn = 10, member_values = 3 * nn;
    auto shot_at = [](std::vector<std::size_t> nodes) {
        ShotSources shot;
        for (std::size_t n : nodes) {
            SourceTerm s;
            s.node = n;
            shot.sources.push_back(s);
        }
        return shot;
    };
    const ShotSources a = shot_at({4, 7, 4, 2}), none = shot_at({}), c = shot_at({7, 7, 1});
    const GroupSourceNodes g = group_source_nodes({&a, &none, &c}, member_values);
    // Entries in the order of their first source; q numbers the sources member after member.
    EXPECT_EQ(g.node, (std::vector<long long>{4, 7, 2, 60 + 7, 60 + 1}));
    EXPECT_EQ(g.first, (std::vector<long long>{0, 2, 3, 4, 6, 7}));
    EXPECT_EQ(g.term, (std::vector<long long>{0, 2, 1, 3, 4, 5, 6}));
    ASSERT_EQ(g.entries(), 5u);

    // The additions through the entries against the sources added one by one in q order.
    const std::size_t nsrc = 7;
    const std::vector<double> scale = test::random_vector(nsrc, 3), force = test::random_vector(3 * nsrc, 4);
    const std::vector<double> u0 = test::random_vector(3 * member_values, 5);
    const std::vector<std::pair<std::size_t, std::size_t>> member_node = {{0, 4}, {0, 7}, {0, 4}, {0, 2},
                                                                          {2, 7}, {2, 7}, {2, 1}};
    std::vector<double> expected = u0;
    for (std::size_t q = 0; q < nsrc; ++q)
        for (std::size_t comp = 0; comp < 3; ++comp) {
            const std::size_t at = member_node[q].first * member_values + comp * nn + member_node[q].second;
            expected[at] += scale[q] * force[3 * q + comp];
        }
    std::vector<double> got = u0;
    for (std::size_t k = 0; k < g.entries(); ++k)
        for (int comp = 0; comp < 3; ++comp) {
            double& at = got[std::size_t(g.node[k]) + std::size_t(comp) * nn];
            at = add_node_sources(g.first.data(), g.term.data(), scale.data(), force.data(), (long long)k, comp, at);
        }
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "value " << i;
    EXPECT_NE(got, u0);
}
