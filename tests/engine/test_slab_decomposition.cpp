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

// Global node coordinates of local node l of a subdomain problem.
std::array<int, 3> global_node(const SubdomainProblem& sp, std::size_t l) {
    const VoxelGrid& g = sp.problem.grid;
    const std::size_t nx = std::size_t(g.n[0] + 1), ny = std::size_t(g.n[1] + 1);
    return {sp.node_origin[0] + int(l % nx), sp.node_origin[1] + int((l / nx) % ny),
            sp.node_origin[2] + int(l / (nx * ny))};
}

TEST(SubdomainProblem, MassesConstraintsSourcesAndReceiversOfTheWholeModel) {
    Scene s = paper_scene(0.008, 1);
    s.boundary.absorbing.faces = {"z-", "y+"};
    s.boundary.absorbing.thickness = 0.04;
    s.boundary.absorbing.type = "sponge";
    const WaveProblem whole = build_wave_problem(s, "test");
    const std::vector<Subdomain> subs = partition_boxes(whole.grid, ProcessGrid{{1, 2, 3}});
    ASSERT_EQ(subs.size(), 6u);
    std::vector<int> receiver_owner(whole.receivers.size(), 0);
    std::vector<int> owned_elements(whole.grid.element_count(), 0);
    for (const Subdomain& d : subs) {
        const SubdomainProblem sp = make_subdomain_problem(whole, d);
        const WaveProblem& q = sp.problem;
        const std::array<int, 3> g0 = d.g0(), g1 = d.g1();
        for (std::size_t a = 0; a < 3; ++a) {
            // One ghost element layer exactly where a neighbour is.
            EXPECT_EQ(d.e0[a] - g0[a], d.has_neighbour(int(a), 0) ? 1 : 0);
            EXPECT_EQ(g1[a] - d.e1[a], d.has_neighbour(int(a), 1) ? 1 : 0);
            EXPECT_EQ(q.grid.n[a], g1[a] - g0[a]);
            EXPECT_DOUBLE_EQ(q.grid.origin[a], whole.grid.origin[a] + g0[a] * whole.grid.spacing);
        }
        for (int k = d.e0[2]; k < d.e1[2]; ++k)
            for (int j = d.e0[1]; j < d.e1[1]; ++j)
                for (int i = d.e0[0]; i < d.e1[0]; ++i) {
                    ++owned_elements[whole.grid.element_index(i, j, k)];
                    EXPECT_EQ(q.grid.at(i - g0[0], j - g0[1], k - g0[2]), whole.grid.at(i, j, k));
                }
        ASSERT_EQ(q.node_mass.size(), q.grid.node_count());
        ASSERT_EQ(q.boundary.node_damping.size(), q.grid.node_count());
        const std::vector<bool> fixed = q.boundary.fixed_mask(q.grid.node_count());
        const std::vector<bool> whole_fixed = whole.boundary.fixed_mask(whole.grid.node_count());
        for (std::size_t l = 0; l < q.grid.node_count(); ++l) {
            const std::array<int, 3> c = global_node(sp, l);
            const std::size_t n = whole.grid.node_index(c[0], c[1], c[2]);
            // The WHOLE model's mass and damping on every node, not the box's own.
            ASSERT_EQ(q.node_mass[l], whole.node_mass[n]);
            ASSERT_EQ(q.boundary.node_damping[l], whole.boundary.node_damping[n]);
            bool ghost = false;
            for (std::size_t a = 0; a < 3; ++a)
                ghost = ghost || (d.has_neighbour(int(a), 0) && c[a] == g0[a]) ||
                        (d.has_neighbour(int(a), 1) && c[a] == g1[a]);
            ASSERT_EQ(fixed[l], whole_fixed[n] || ghost) << l;
        }
        for (std::size_t i = 0; i < sp.receiver_of.size(); ++i) {
            ++receiver_owner[sp.receiver_of[i]];
            const std::array<int, 3> c = global_node(sp, q.receivers[i].node);
            EXPECT_EQ(whole.grid.node_index(c[0], c[1], c[2]), whole.receivers[sp.receiver_of[i]].node);
        }
        for (const SourceTerm& src : q.sources) {
            const std::array<int, 3> c = global_node(sp, src.node);
            EXPECT_EQ(whole.grid.node_index(c[0], c[1], c[2]), whole.sources.front().node);
        }
    }
    for (int n : owned_elements) ASSERT_EQ(n, 1);  // every element owned exactly once
    for (int n : receiver_owner) EXPECT_EQ(n, 1);  // every receiver owned exactly once
}

// Each transfer's ghost box is its neighbour's send box: the same global nodes, the same order
// (box_node), and the neighbour sends nodes it computes itself (not its own ghosts); on the voxel
// corners (P = 1) and on a GLL grid of P = 3 node planes per element (sem).
TEST(HaloPlan, EveryGhostBoxIsTheNeighboursSendBoxOfOwnedNodes) {
    const WaveProblem whole = build_wave_problem(paper_scene(0.016, 1), "test");
    for (const int P : {1, 3})
        for (const ProcessGrid pg : {ProcessGrid{{1, 1, 4}}, ProcessGrid{{1, 2, 2}}, ProcessGrid{{2, 2, 3}}}) {
            SCOPED_TRACE(to_string(pg) + " P " + std::to_string(P));
            const std::vector<Subdomain> subs = partition_boxes(whole.grid, pg);
            std::vector<HaloPlan> plans;
            for (const Subdomain& d : subs) plans.push_back(halo_plan(d, P));
            std::size_t transfers = 0;
            for (const Subdomain& d : subs) {
                const HaloPlan& mine = plans[std::size_t(d.index)];
                int cut_axes = 0;
                for (int r : pg.ranks) cut_axes += r > 1;
                EXPECT_EQ(int(mine.phases.size()), cut_axes);
                for (const HaloPhase& ph : mine.phases)
                    for (const HaloTransfer& t : ph.transfers) {
                        ++transfers;
                        const Subdomain& other = subs[std::size_t(t.neighbour)];
                        const HaloPlan& theirs = plans[std::size_t(t.neighbour)];
                        const HaloTransfer* back = nullptr;
                        for (const HaloPhase& q : theirs.phases)
                            for (const HaloTransfer& u : q.transfers)
                                if (q.axis == ph.axis && u.neighbour == d.index) back = &u;
                        ASSERT_NE(back, nullptr);
                        ASSERT_EQ(back->send.count(), t.recv.count());
                        // Node coordinates: P node planes per element plane.
                        std::array<int, 3> g0 = d.g0(), h0 = other.g0();
                        for (std::size_t a = 0; a < 3; ++a) {
                            ASSERT_EQ(mine.nodes[a], P * (d.g1()[a] - d.g0()[a]) + 1);
                            g0[a] *= P;
                            h0[a] *= P;
                        }
                        // Only the outermost ghost node plane comes in.
                        const std::size_t axis = std::size_t(ph.axis);
                        EXPECT_EQ(t.recv.lo[axis], t.side == 0 ? 0 : mine.nodes[axis] - 1);
                        for (std::size_t i = 0; i < t.recv.count(); ++i) {
                            const std::size_t a = box_node(t.recv.lo.data(), t.recv.hi.data(),
                                                           std::size_t(mine.nodes[0]), std::size_t(mine.nodes[1]), i);
                            const std::size_t b =
                                box_node(back->send.lo.data(), back->send.hi.data(), std::size_t(theirs.nodes[0]),
                                         std::size_t(theirs.nodes[1]), i);
                            const std::array<int, 3> ca{
                                g0[0] + int(a % std::size_t(mine.nodes[0])),
                                g0[1] + int((a / std::size_t(mine.nodes[0])) % std::size_t(mine.nodes[1])),
                                g0[2] + int(a / (std::size_t(mine.nodes[0]) * std::size_t(mine.nodes[1])))};
                            const std::array<int, 3> cb{
                                h0[0] + int(b % std::size_t(theirs.nodes[0])),
                                h0[1] + int((b / std::size_t(theirs.nodes[0])) % std::size_t(theirs.nodes[1])),
                                h0[2] + int(b / (std::size_t(theirs.nodes[0]) * std::size_t(theirs.nodes[1])))};
                            ASSERT_EQ(ca, cb) << "node " << i;
                            // Across the phase's axis the sent node is one the sender computes: inside
                            // its owned nodes e0 .. e1.
                            const std::size_t ax = std::size_t(ph.axis);
                            ASSERT_GE(cb[ax], P * other.e0[ax]);
                            ASSERT_LE(cb[ax], P * other.e1[ax]);
                        }
                    }
            }
            // Two transfers per cut between neighbouring boxes.
            std::size_t cuts = 0;
            for (std::size_t a = 0; a < 3; ++a)
                cuts += std::size_t(pg.ranks[a] - 1) * std::size_t(pg.count() / pg.ranks[a]);
            EXPECT_EQ(transfers, 2 * cuts);
        }
}

// The overlapped step's windows (overlap_windows): they cover every node plane once, the edges
// come first and hold every plane the z phase sends or receives, the interior none of them, and
// each window's element planes are exactly those its node planes touch (clipped to the box).
TEST(OverlapWindows, EdgesFirstHoldTheZPhasesPlanesAndAllCoverEveryPlaneOnce) {
    const WaveProblem whole = build_wave_problem(paper_scene(0.016, 1), "test");
    int overlapped = 0, plain = 0;
    for (const ProcessGrid pg : {ProcessGrid{{1, 1, 2}}, ProcessGrid{{1, 1, 3}}, ProcessGrid{{1, 2, 2}},
                                 ProcessGrid{{1, 2, 1}}, ProcessGrid{{1, 1, 8}}}) {
        SCOPED_TRACE(to_string(pg));
        for (const Subdomain& d : partition_boxes(whole.grid, pg)) {
            const HaloPlan plan = halo_plan(d);
            const int nz = plan.nodes[2] - 1;
            const std::vector<OverlapWindow> w = overlap_windows(plan, nz);
            if (pg.ranks[2] == 1) {
                EXPECT_TRUE(w.empty());  // no z phase first: the plain order
                ++plain;
                continue;
            }
            const int seams = int(d.has_neighbour(2, 0)) + int(d.has_neighbour(2, 1));
            if (nz + 1 < 3 * seams + 1) {  // no interior plane: the plain order
                EXPECT_TRUE(w.empty()) << nz;
                ++plain;
                continue;
            }
            ++overlapped;
            ASSERT_EQ(int(w.size()), seams + 1);
            std::vector<int> writes(std::size_t(nz) + 1, 0);
            for (const OverlapWindow& x : w) {
                ASSERT_LE(x.lo, x.hi);
                EXPECT_EQ(x.e_lo, std::max(0, x.lo - 1));
                EXPECT_EQ(x.e_hi, std::min(nz, x.hi + 1));
                for (int k = x.lo; k <= x.hi; ++k) ++writes[std::size_t(k)];
            }
            EXPECT_EQ(writes, std::vector<int>(std::size_t(nz) + 1, 1));
            for (const HaloTransfer& t : plan.phases[0].transfers)
                for (int k : {t.send.lo[2], t.recv.lo[2]}) {
                    bool in_edge = false;
                    for (std::size_t i = 0; i + 1 < w.size(); ++i) in_edge |= w[i].lo <= k && k <= w[i].hi;
                    EXPECT_TRUE(in_edge) << "plane " << k;
                    EXPECT_FALSE(w.back().lo <= k && k <= w.back().hi) << "plane " << k;
                }
        }
    }
    EXPECT_GT(overlapped, 0);
    EXPECT_GT(plain, 0);
}

TEST(ProcessGrid, SlabsUntilTheyGetThinThenTwoAxes) {
    VoxelGrid g;
    g.n = {162, 64, 250};  // the paper model at 2 mm
    EXPECT_EQ(choose_process_grid(g, 1), (ProcessGrid{{1, 1, 1}}));
    EXPECT_EQ(choose_process_grid(g, 2), (ProcessGrid{{1, 1, 2}}));
    EXPECT_EQ(choose_process_grid(g, 4), (ProcessGrid{{1, 1, 4}}));
    // 64 ranks: slabs of 3.9 planes would send 2 x 65 node rows each; 2 x 32 boxes send less.
    const ProcessGrid many = choose_process_grid(g, 64);
    EXPECT_GT(many.ranks[1], 1);
    EXPECT_EQ(many.ranks[0], 1);
    EXPECT_EQ(many.count(), 64);
    // A flat model: two axes already at 4 ranks.
    g.n = {100, 100, 120};
    EXPECT_EQ(choose_process_grid(g, 4), (ProcessGrid{{1, 2, 2}}));
}

TEST(ProcessGrid, ParsesAndChecksTheOverride) {
    EXPECT_TRUE(parse_process_grid("auto", "--process-grid").automatic());
    EXPECT_EQ(parse_process_grid("1x2x3", "--process-grid"), (ProcessGrid{{1, 2, 3}}));
    for (const char* bad : {"2x2", "0x1x2", "1x2x3x", "ax2x2", "1 x2x2"}) {
        try {
            parse_process_grid(bad, "--process-grid");
            ADD_FAILURE() << bad;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("--process-grid"), std::string::npos) << e.what();
        }
    }
    VoxelGrid g;
    g.n = {10, 3, 40};
    EXPECT_NO_THROW(check_process_grid(g, ProcessGrid{{1, 3, 2}}, 6, "run.process_grid"));
    EXPECT_THROW(check_process_grid(g, ProcessGrid{{1, 2, 2}}, 6, "run.process_grid"), InputError);  // 4 ranks, not 6
    EXPECT_THROW(check_process_grid(g, ProcessGrid{{1, 4, 1}}, 4, "run.process_grid"), InputError);  // 3 planes along y
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
