// Slabs of a distributed run and the axis turn (issue 8), without MPI: the decomposition's
// bookkeeping, and that a turned model gives the same traces as the original.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"
#include "distributed/axis_permutation.hpp"
#include "distributed/slab_decomposition.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "wave/wave_run.hpp"

namespace voxwave {
namespace {

Scene paper_scene(double spacing, std::int64_t steps) {
    Scene s = read_scene_json(std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json");
    s.grid.spacing = spacing;
    s.run.steps = steps;
    s.run.dt = 0;
    s.run.backend = Backend::Cpu;
    return s;
}

TEST(SlabPartition, CoversEveryPlaneOnceWithBalancedWork) {
    const WaveProblem p = build_wave_problem(paper_scene(0.008, 1), "test");
    for (int count : {1, 2, 3, 5, 48}) {
        const std::vector<Slab> slabs = partition_slabs(p.grid, count);
        ASSERT_EQ(int(slabs.size()), count);
        EXPECT_EQ(slabs.front().k0, 0);
        EXPECT_EQ(slabs.back().k1, p.grid.n[2]);
        for (int s = 0; s < count; ++s) {
            EXPECT_EQ(slabs[s].index, s);
            EXPECT_LT(slabs[s].k0, slabs[s].k1);
            if (s > 0) {
                EXPECT_EQ(slabs[s].k0, slabs[s - 1].k1);
            }
            EXPECT_EQ(slabs[s].shares_lower(), s > 0);
            EXPECT_EQ(slabs[s].shares_upper(), s + 1 < count);
        }
        // A solid model: the slabs differ by at most one plane.
        int lo = 1 << 30, hi = 0;
        for (const Slab& sl : slabs) lo = std::min(lo, sl.k1 - sl.k0), hi = std::max(hi, sl.k1 - sl.k0);
        EXPECT_LE(hi - lo, 1) << count << " slabs";
    }
}

TEST(SlabPartition, VoidPlanesCostLessThanSolidOnes) {
    // Bottom half void: the first of two slabs takes more planes than the second.
    Scene s = paper_scene(0.008, 1);
    s.shapes.push_back({"void", BoxShape{{0, 0, 0}, {0.324, 0.128, 0.192}}});
    const WaveProblem p = build_wave_problem(s, "test");
    const std::vector<Slab> slabs = partition_slabs(p.grid, 2);
    EXPECT_GT(slabs[0].k1 - slabs[0].k0, slabs[1].k1 - slabs[1].k0 + 10);
}

TEST(SlabPartition, MoreRanksThanPlanesIsAnInputErrorNamingRanks) {
    const WaveProblem p = build_wave_problem(paper_scene(0.064, 1), "test");  // 6 planes along z
    EXPECT_NO_THROW(partition_slabs(p.grid, 6));
    try {
        partition_slabs(p.grid, 7);
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("ranks: 7 ranks"), std::string::npos) << e.what();
    }
    EXPECT_THROW(partition_slabs(p.grid, 0), InputError);
}

TEST(SlabProblem, MassesConstraintsSourcesAndReceiversOfTheWholeModel) {
    Scene s = paper_scene(0.008, 1);
    s.boundary.absorbing.faces = {"z-"};
    s.boundary.absorbing.thickness = 0.04;
    s.boundary.absorbing.type = "sponge";
    const WaveProblem whole = build_wave_problem(s, "test");
    const std::vector<Slab> slabs = partition_slabs(whole.grid, 3);
    const std::size_t plane = std::size_t(whole.grid.n[0] + 1) * std::size_t(whole.grid.n[1] + 1);
    std::vector<int> receiver_owner(whole.receivers.size(), 0);
    std::size_t fixed = 0;
    for (const Slab& sl : slabs) {
        const SlabProblem sp = make_slab_problem(whole, sl);
        const WaveProblem& q = sp.problem;
        EXPECT_EQ(q.grid.n[2], sl.k1 - sl.k0);
        EXPECT_DOUBLE_EQ(q.grid.origin[2], whole.grid.origin[2] + sl.k0 * whole.grid.spacing);
        EXPECT_EQ(sp.node_offset, std::size_t(sl.k0) * plane);
        ASSERT_EQ(q.node_mass.size(), q.grid.node_count());
        // The WHOLE model's mass on shared nodes (both sides' elements), not the slab's own.
        for (std::size_t n = 0; n < q.node_mass.size(); ++n)
            ASSERT_EQ(q.node_mass[n], whole.node_mass[n + sp.node_offset]);
        ASSERT_EQ(q.boundary.node_damping.size(), q.grid.node_count());
        EXPECT_EQ(q.boundary.node_damping.front(), whole.boundary.node_damping[sp.node_offset]);
        for (std::size_t n : q.boundary.fixed_nodes)
            EXPECT_TRUE(std::binary_search(whole.boundary.fixed_nodes.begin(), whole.boundary.fixed_nodes.end(),
                                           n + sp.node_offset));
        fixed += q.boundary.fixed_nodes.size();
        for (std::size_t i = 0; i < sp.receiver_of.size(); ++i) {
            ++receiver_owner[sp.receiver_of[i]];
            EXPECT_EQ(q.receivers[i].node + sp.node_offset, whole.receivers[sp.receiver_of[i]].node);
        }
        // The source sits on the top face: only the last slab holds it.
        EXPECT_EQ(q.sources.size(), sl.shares_upper() ? 0u : 1u);
    }
    EXPECT_EQ(fixed, whole.boundary.fixed_nodes.size());  // the fixed corners are at z = 0: one slab
    for (int n : receiver_owner) EXPECT_EQ(n, 1);         // every receiver owned exactly once
}

TEST(SlabProblem, ASourceOnASeamIsDrivenByBothSlabs) {
    Scene s = paper_scene(0.008, 1);
    const WaveProblem probe = build_wave_problem(s, "test");
    const std::vector<Slab> slabs = partition_slabs(probe.grid, 2);
    s.sources.front().position[2] = slabs[0].k1 * s.grid.spacing;
    s.receivers.front().position[2] = slabs[0].k1 * s.grid.spacing;
    const WaveProblem whole = build_wave_problem(s, "test");
    const SlabProblem lower = make_slab_problem(whole, slabs[0]), upper = make_slab_problem(whole, slabs[1]);
    ASSERT_EQ(lower.problem.sources.size(), 1u);
    ASSERT_EQ(upper.problem.sources.size(), 1u);
    EXPECT_EQ(lower.problem.sources[0].node,
              std::size_t(lower.problem.grid.n[2]) * 42 * 17 + (lower.problem.sources[0].node % (42 * 17)));
    EXPECT_EQ(upper.problem.sources[0].node / (42 * 17), 0u);  // local node plane 0 of the upper slab
    // The receiver on the seam belongs to the slab above.
    EXPECT_EQ(std::count(upper.receiver_of.begin(), upper.receiver_of.end(), 0u), 1);
    EXPECT_EQ(std::count(lower.receiver_of.begin(), lower.receiver_of.end(), 0u), 0);
}

TEST(AxisTurn, PicksTheLongestAxisAndKeepsZWhenItIsLongest) {
    VoxelGrid g;
    g.n = {10, 20, 30};
    EXPECT_TRUE(longest_axis_last(g).identity());
    g.n = {40, 20, 30};
    EXPECT_EQ(longest_axis_last(g).from, (std::array<int, 3>{1, 2, 0}));
    EXPECT_EQ(slab_axis_planes(g), 40);
    g.n = {10, 50, 30};
    EXPECT_EQ(longest_axis_last(g).from, (std::array<int, 3>{2, 0, 1}));
    g.n = {30, 30, 30};
    EXPECT_TRUE(longest_axis_last(g).identity());
}

// The voxel elements are isotropic cubes: a turned model is the same physics. One process, both
// ways, components turned back: equal to rounding (1e-13 of the peak).
TEST(AxisTurn, ATurnedModelGivesTheSameTraces) {
    Scene s = paper_scene(0.008, 100);  // at the stable step the wave crosses the model in 100 steps
    s.shapes.push_back({"void", SphereShape{{200e-3, 64e-3, 330e-3}, 20e-3}});
    s.sources.front().direction = {1, 2, 3};  // every component matters
    s.boundary.absorbing.faces = {"x-", "y+"};
    s.boundary.absorbing.thickness = 0.04;
    s.boundary.absorbing.type = "sponge";
    for (Method m : {Method::Ovfem, Method::Vfem}) {
        s.run.method = m;
        const WaveProblem p = build_wave_problem(s, "test");
        for (const AxisTurn t : {AxisTurn{{1, 2, 0}}, AxisTurn{{2, 0, 1}}}) {
            const WaveProblem q = turn_axes(p, t);
            EXPECT_EQ(q.grid.element_count(), p.grid.element_count());
            EXPECT_EQ(q.grid.n[0], p.grid.n[std::size_t(t.from[0])]);
            const double mass = std::accumulate(p.node_mass.begin(), p.node_mass.end(), 0.0);
            EXPECT_NEAR(std::accumulate(q.node_mass.begin(), q.node_mass.end(), 0.0), mass, 1e-12 * mass);
            const Result ref = run_wave(p, nullptr);
            Result turned = run_wave(q, nullptr);
            turn_result_back(turned, t, p);
            EXPECT_EQ(turned.receiver_positions, ref.receiver_positions);
            double diff = 0, peak = 0;
            for (std::size_t i = 0; i < ref.displacement.size(); ++i) {
                diff = std::max(diff, std::fabs(turned.displacement[i] - ref.displacement[i]));
                peak = std::max(peak, std::fabs(ref.displacement[i]));
            }
            ASSERT_GT(peak, 0.0);
            EXPECT_LT(diff / peak, 1e-13) << to_string(m);
        }
    }
}

}  // namespace
}  // namespace voxwave
