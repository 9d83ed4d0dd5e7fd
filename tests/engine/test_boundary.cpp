// The boundary module (engine/boundary): per-face conditions from the scene's boundary, the
// sponge's node damping against its closed form, the fixed-node sets, and the shares a slab and
// a turned model get.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "boundary/boundary_conditions.hpp"
#include "boundary/boundary_nodes.hpp"
#include "boundary/sponge_layer.hpp"
#include "core/errors.hpp"
#include "scene_builders.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {
namespace {

VoxelGrid solid_grid(int nx, int ny, int nz, double ds) {
    VoxelGrid g;
    g.n = {nx, ny, nz};
    g.spacing = ds;
    g.ids.assign(g.element_count(), 1);
    return g;
}

TEST(BoundaryConditions, FacesFromTheSceneLists) {
    BoundarySpec spec;
    spec.fixed_faces = {"z+", "x-"};
    spec.absorbing = {{"y+", "x-"}, 0.01, "sponge"};
    spec.fixed_points = {{0.1, 0.2, 0.3}};
    const BoundaryConditions bc = boundary_conditions(spec);
    // x-: fixed with a sponge behind it; x+, y-, z-: free; y+: sponge; z+: fixed.
    EXPECT_TRUE(bc.faces[0].fixed);
    EXPECT_EQ(bc.faces[0].absorbing, AbsorbingType::Sponge);
    EXPECT_EQ(bc.faces[0].thickness, 0.01);
    for (int f : {1, 2, 4}) {
        EXPECT_TRUE(bc.faces[std::size_t(f)].free()) << kBoundaryFaceNames[std::size_t(f)];
        EXPECT_EQ(bc.faces[std::size_t(f)].thickness, 0.0);
    }
    EXPECT_FALSE(bc.faces[3].fixed);
    EXPECT_EQ(bc.faces[3].absorbing, AbsorbingType::Sponge);
    EXPECT_TRUE(bc.faces[5].fixed);
    EXPECT_EQ(bc.faces[5].absorbing, AbsorbingType::None);
    EXPECT_TRUE(bc.absorbs(AbsorbingType::Sponge));
    ASSERT_EQ(bc.fixed_points.size(), 1u);
    EXPECT_EQ(bc.fixed_points[0][2], 0.3);

    const BoundaryConditions none = boundary_conditions(BoundarySpec{});
    for (const FaceCondition& f : none.faces) EXPECT_TRUE(f.free());
    EXPECT_FALSE(none.absorbs(AbsorbingType::Sponge));
}

TEST(BoundaryConditions, FaceIndicesAndNames) {
    for (int f = 0; f < 6; ++f) {
        EXPECT_EQ(parse_boundary_face(kBoundaryFaceNames[std::size_t(f)], "face"), f);
        EXPECT_EQ(face_axis(f), f / 2);
        EXPECT_EQ(face_is_upper(f), kBoundaryFaceNames[std::size_t(f)][1] == '+');
    }
    EXPECT_THROW(parse_boundary_face("x", "face"), InputError);
    EXPECT_THROW(parse_boundary_face("X-", "face"), InputError);
    EXPECT_STREQ(to_string(AbsorbingType::Sponge), "sponge");
}

TEST(BoundaryConditions, UnknownFaceIsAnInputErrorNamingTheField) {
    BoundarySpec spec;
    spec.absorbing = {{"x-", "w+"}, 0.01};
    try {
        boundary_conditions(spec);
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("boundary.absorbing.faces[1]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("w+"), std::string::npos) << e.what();
    }
    spec = {};
    spec.fixed_faces = {"top"};
    EXPECT_THROW(boundary_conditions(spec), InputError);
}

// alpha_max (1 - d/L)^2, alpha_max = 3 vp ln(1000) / (2 L), the largest over the layers.
double sponge_closed_form(const VoxelGrid& g, const BoundaryConditions& bc, double vp, int i, int j, int k) {
    const int idx[3] = {i, j, k};
    double best = 0;
    for (int f = 0; f < 6; ++f) {
        const FaceCondition& fc = bc.faces[std::size_t(f)];
        if (fc.absorbing != AbsorbingType::Sponge) continue;
        const int a = f / 2;
        const double d = (f % 2 ? g.n[a] - idx[a] : idx[a]) * g.spacing;
        const double x = 1.0 - d / fc.thickness;
        if (d < fc.thickness) best = std::max(best, 1.5 * vp * std::log(1000.0) / fc.thickness * x * x);
    }
    return best;
}

TEST(SpongeLayer, NodeDampingIsTheQuadraticProfile) {
    const double ds = 0.002, vp = 4000, L = 0.006;  // three cells
    const VoxelGrid g = solid_grid(10, 8, 6, ds);
    BoundarySpec spec;
    spec.absorbing = {{"x-", "z+"}, L, "sponge"};
    const BoundaryConditions bc = boundary_conditions(spec);
    const std::vector<double> s = sponge_node_damping(bc, g, vp);
    ASSERT_EQ(s.size(), g.node_count());

    const double peak = 3.0 * vp * std::log(1000.0) / (2.0 * L);  // 1e6 ln(1000) 1/s
    EXPECT_NEAR(sponge_peak_damping(vp, L), 6907755.278982137, 1e-6);
    // On the x- face the full peak; one and two cells in, (2/3)^2 and (1/3)^2 of it; from three on, 0.
    EXPECT_NEAR(s[g.node_index(0, 4, 2)], peak, 1e-9 * peak);
    EXPECT_NEAR(s[g.node_index(1, 4, 2)], peak * 4.0 / 9.0, 1e-9 * peak);
    EXPECT_NEAR(s[g.node_index(2, 4, 2)], peak / 9.0, 1e-9 * peak);
    EXPECT_EQ(s[g.node_index(3, 4, 2)], 0.0);
    EXPECT_EQ(s[g.node_index(10, 4, 2)], 0.0);  // x+ is free
    // z+ (k = 6) and the x-/z+ edge: the larger of the two layers.
    EXPECT_NEAR(s[g.node_index(5, 4, 5)], peak * 4.0 / 9.0, 1e-9 * peak);
    EXPECT_NEAR(s[g.node_index(1, 4, 4)], peak * 4.0 / 9.0, 1e-9 * peak);
    EXPECT_NEAR(s[g.node_index(0, 0, 6)], peak, 1e-9 * peak);
    std::size_t damped = 0;
    for (int k = 0; k <= g.n[2]; ++k)
        for (int j = 0; j <= g.n[1]; ++j)
            for (int i = 0; i <= g.n[0]; ++i) {
                const double want = sponge_closed_form(g, bc, vp, i, j, k);
                EXPECT_NEAR(s[g.node_index(i, j, k)], want, 1e-12 * peak) << i << " " << j << " " << k;
                damped += want > 0;
            }
    // Layers of 3 node planes (d = 0, ds, 2 ds) on x- and z+, overlapping in a 3 x 3 column.
    EXPECT_EQ(damped, std::size_t(3 * 9 * 7 + 3 * 9 * 11 - 3 * 3 * 9));
}

TEST(SpongeLayer, OneThicknessIsThePeakTimesTheLargestShapeBitForBit) {
    // The form the engine had before the module: alpha_max times the largest (1 - d/L)^2. Traces
    // recorded before the module depend on these bits.
    const double ds = 0.004, vp = 4480, L = 0.02;
    const VoxelGrid g = solid_grid(9, 7, 12, ds);
    BoundarySpec spec;
    spec.absorbing = {{"z-", "x+", "y-", "y+"}, L, "sponge"};
    const std::vector<double> s = sponge_node_damping(boundary_conditions(spec), g, vp);
    const double alpha_max = 3.0 * vp * std::log(1e3) / (2.0 * L);
    const int faces[4] = {4, 1, 2, 3};
    for (int k = 0; k <= g.n[2]; ++k)
        for (int j = 0; j <= g.n[1]; ++j)
            for (int i = 0; i <= g.n[0]; ++i) {
                const int idx[3] = {i, j, k};
                double strength = 0;
                for (int f : faces) {
                    const int a = f / 2;
                    const double d = (f % 2 == 0) ? idx[a] * g.spacing : (g.n[a] - idx[a]) * g.spacing;
                    if (d < L) strength = std::max(strength, (1.0 - d / L) * (1.0 - d / L));
                }
                ASSERT_EQ(s[g.node_index(i, j, k)], alpha_max * strength) << i << " " << j << " " << k;
            }
}

TEST(SpongeLayer, EachFaceItsOwnThickness) {
    const double ds = 0.001, vp = 3000;
    const VoxelGrid g = solid_grid(12, 12, 12, ds);
    BoundaryConditions bc;
    bc.faces[1] = {false, AbsorbingType::Sponge, 2 * ds};  // x+: 2 cells
    bc.faces[2] = {false, AbsorbingType::Sponge, 4 * ds};  // y-: 4 cells
    const std::vector<double> s = sponge_node_damping(bc, g, vp);
    const double p2 = sponge_peak_damping(vp, 2 * ds), p4 = sponge_peak_damping(vp, 4 * ds);
    EXPECT_NEAR(p2, 2 * p4, 1e-9 * p2);
    EXPECT_NEAR(s[g.node_index(12, 6, 6)], p2, 1e-9 * p2);
    EXPECT_NEAR(s[g.node_index(11, 6, 6)], p2 / 4, 1e-9 * p2);
    EXPECT_EQ(s[g.node_index(10, 6, 6)], 0.0);
    EXPECT_NEAR(s[g.node_index(6, 0, 6)], p4, 1e-9 * p4);
    EXPECT_NEAR(s[g.node_index(6, 3, 6)], p4 / 16, 1e-9 * p4);
    EXPECT_EQ(s[g.node_index(6, 4, 6)], 0.0);
    // The edge node (11, 1): x+ gives p2 / 4, y- gives p4 (3/4)^2 = p2 9/32: the larger wins.
    EXPECT_NEAR(s[g.node_index(11, 1, 6)], p2 * 9.0 / 32.0, 1e-9 * p2);
    // No sponge face: no per-node damping at all (the steppers keep a uniform h).
    EXPECT_TRUE(sponge_node_damping(BoundaryConditions{}, g, vp).empty());
}

TEST(BoundaryNodes, FixedFacesAndPointsOnceEachAndSorted) {
    const double ds = 0.01;
    const VoxelGrid g = solid_grid(4, 3, 5, ds);
    BoundarySpec spec;
    spec.fixed_faces = {"y-", "x+"};
    // One point inside, one that snaps onto the y- face (already fixed), one outside the box
    // that clamps to the corner (0, 3, 5).
    spec.fixed_points = {{0.0104, 0.0196, 0.031}, {0.02, 0.004, 0.02}, {-1.0, 1.0, 1.0}};
    const BoundaryNodes b = boundary_nodes(boundary_conditions(spec), g, 4000);
    EXPECT_FALSE(b.has_node_damping());
    EXPECT_EQ(b.damping_at(7), 0.0);
    // y- face: 5 x 6 nodes; x+ face: 3 x 6 more (its y = 0 column is shared); + 2 points.
    EXPECT_EQ(b.fixed_nodes.size(), std::size_t(5 * 6 + 3 * 6 + 2));
    EXPECT_TRUE(std::is_sorted(b.fixed_nodes.begin(), b.fixed_nodes.end()));
    EXPECT_EQ(std::adjacent_find(b.fixed_nodes.begin(), b.fixed_nodes.end()), b.fixed_nodes.end());
    const std::vector<bool> mask = b.fixed_mask(g.node_count());
    std::size_t count = 0;
    for (int k = 0; k <= 5; ++k)
        for (int j = 0; j <= 3; ++j)
            for (int i = 0; i <= 4; ++i) {
                const bool want = j == 0 || i == 4 || (i == 1 && j == 2 && k == 3) || (i == 0 && j == 3 && k == 5);
                EXPECT_EQ(mask[g.node_index(i, j, k)], want) << i << " " << j << " " << k;
                count += mask[g.node_index(i, j, k)];
            }
    EXPECT_EQ(count, b.fixed_nodes.size());
}

TEST(BoundaryNodes, SlabShareAndTurnKeepEveryValue) {
    const double ds = 0.002;
    const VoxelGrid g = solid_grid(5, 4, 6, ds);
    BoundarySpec spec;
    spec.fixed_faces = {"z-"};
    spec.absorbing = {{"z+", "x-"}, 2 * ds, "sponge"};
    const BoundaryNodes b = boundary_nodes(boundary_conditions(spec), g, 4000);
    ASSERT_TRUE(b.has_node_damping());
    const std::size_t plane = 6 * 5, first = 2 * plane, last = 5 * plane;  // node planes 2..4
    const BoundaryNodes share = b.node_range(first, last);
    ASSERT_EQ(share.node_damping.size(), last - first);
    for (std::size_t n = first; n < last; ++n) EXPECT_EQ(share.damping_at(n - first), b.damping_at(n));
    EXPECT_TRUE(share.fixed_nodes.empty());  // the fixed face is node plane 0
    const BoundaryNodes bottom = b.node_range(0, 2 * plane);
    EXPECT_EQ(bottom.fixed_nodes.size(), plane);

    // Any renumbering moves each value with its node: reverse the node order.
    const std::size_t nn = g.node_count();
    const BoundaryNodes r = b.turned([nn](std::size_t n) { return nn - 1 - n; });
    for (std::size_t n = 0; n < nn; ++n) EXPECT_EQ(r.damping_at(nn - 1 - n), b.damping_at(n));
    ASSERT_EQ(r.fixed_nodes.size(), b.fixed_nodes.size());
    EXPECT_TRUE(std::is_sorted(r.fixed_nodes.begin(), r.fixed_nodes.end()));
    EXPECT_EQ(r.fixed_nodes.front(), nn - plane);
    EXPECT_EQ(r.turned([nn](std::size_t n) { return nn - 1 - n; }), b);
}

TEST(BoundaryNodes, WaveProblemCarriesTheModulesResult) {
    Scene s = testing::block_scene(6, 5, 8, 0.002);
    s.boundary.fixed_faces = {"z-"};
    s.boundary.fixed_points = {{0.006, 0.004, 0.01}};
    s.boundary.absorbing = {{"x+", "z+"}, 0.004, "sponge"};
    const WaveProblem p = build_wave_problem(s, "test");
    const BoundaryNodes want = boundary_nodes(boundary_conditions(s.boundary), p.grid, 4000);
    EXPECT_EQ(p.boundary, want);
    EXPECT_EQ(p.boundary.fixed_nodes.size(), std::size_t(7 * 6 + 1));
    EXPECT_NEAR(p.boundary.damping_at(p.grid.node_index(6, 2, 3)), sponge_peak_damping(4000, 0.004), 1e-6);
}

}  // namespace
}  // namespace voxwave
