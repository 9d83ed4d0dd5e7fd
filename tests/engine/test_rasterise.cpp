#include <cmath>
#include <numbers>

#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;

Scene block(Vec3 size, double ds, const std::string& background = "concrete") {
    Scene s;
    s.grid.size = size;
    s.grid.spacing = ds;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}, {"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = background;
    return s;
}

std::size_t count(const VoxelGrid& g, MaterialId id) { return std::size_t(std::count(g.ids.begin(), g.ids.end(), id)); }

TEST(Rasterise, ElementCountsAndSpacingOverride) {
    Scene s = block({0.324, 0.128, 0.384}, 0.002);  // the paper's block
    VoxelGrid g = rasterise(s);
    EXPECT_EQ(g.n, (std::array<int, 3>{162, 64, 192}));
    EXPECT_EQ(g.spacing, 0.002);
    EXPECT_EQ(count(g, 1), g.element_count());  // all background
    VoxelGrid coarse = rasterise(s, 0.004);
    EXPECT_EQ(coarse.n, (std::array<int, 3>{81, 32, 96}));
    EXPECT_EQ(element_counts({{0.0101, 0.0003, 1}, 0, {}}, 0.002), (std::array<int, 3>{5, 1, 500}));
    expect_error(catch_input_error([&] { element_counts(s.grid, 0); }), "", "grid.spacing", "> 0");
    expect_error(catch_input_error([&] { element_counts(s.grid, 1e-4); }), "", "grid.spacing", "2^31");
}

TEST(Rasterise, ElementCentresDecide) {
    // Element i spans [i ds, (i+1) ds] and has its centre at (i + 0.5) ds.
    Scene s = block({0.01, 0.002, 0.002}, 0.002);
    s.grid.origin = {1, 2, 3};
    s.shapes.push_back({"steel", BoxShape{{1.0, 2.0, 3.0}, {1.003, 2.002, 3.002}}});  // centres 1.001, 1.003 inside
    VoxelGrid g = rasterise(s);
    ASSERT_EQ(g.n, (std::array<int, 3>{5, 1, 1}));
    EXPECT_EQ(g.ids, (std::vector<MaterialId>{2, 2, 1, 1, 1}));
}

TEST(Rasterise, SphereVolumeMatchesClosedForm) {
    // A voxelised sphere gains and loses elements only in the shell of elements its surface
    // cuts: about 4 pi r^2 / ds^2 = 1900 elements for r = 12.3 ds. Each is in or out, and
    // treating them as independent coin flips the count's standard deviation is about
    // sqrt(1900) / 2 = 22, or 0.28 % of the 7800 elements inside; 1.5 % is over 5 sigma.
    const double ds = 0.002, r = 12.3 * ds;
    Scene s = block({0.1, 0.1, 0.1}, ds, "void");
    s.shapes.push_back({"steel", SphereShape{{0.0503, 0.0497, 0.0501}, r}});
    VoxelGrid g = rasterise(s);
    double volume = double(count(g, 2)) * ds * ds * ds;
    double exact = 4.0 / 3.0 * std::numbers::pi * r * r * r;
    EXPECT_NEAR(volume / exact, 1.0, 0.015);
    EXPECT_EQ(count(g, 0) + count(g, 2), g.element_count());
}

TEST(Rasterise, CylinderAtTwoSpacings) {
    // The paper's rebar: radius 15 mm along y through the whole block. Same shell argument as
    // the sphere, in 2-D: the circle's boundary cuts about 2 pi r / ds cells per layer
    // (47 at 2 mm, 94 at 1 mm) out of pi r^2 / ds^2 (177, 707): standard deviation
    // sqrt(47)/2 / 177 = 1.9 % and sqrt(94)/2 / 707 = 0.7 %. The error is the same in every
    // layer (the circle does not change along y), so no averaging helps: 3 sigma bounds.
    const double r = 0.015, len = 0.128;
    for (double ds : {0.002, 0.001}) {
        Scene s = block({0.324, len, 0.384}, ds);
        s.shapes.push_back({"steel", CylinderShape{{0.160, 0.064, 0.100}, {0, 1, 0}, r, len}});
        VoxelGrid g = rasterise(s, ds);
        double volume = double(count(g, 2)) * ds * ds * ds;
        double exact = std::numbers::pi * r * r * len;
        EXPECT_NEAR(volume / exact, 1.0, ds == 0.002 ? 0.057 : 0.021) << "ds = " << ds;
        // Every y layer holds the same disc.
        std::size_t layer0 = 0, layer_last = 0;
        for (int k = 0; k < g.n[2]; ++k)
            for (int i = 0; i < g.n[0]; ++i) {
                layer0 += g.at(i, 0, k) == 2;
                layer_last += g.at(i, g.n[1] - 1, k) == 2;
            }
        EXPECT_EQ(layer0, layer_last);
        EXPECT_EQ(layer0 * std::size_t(g.n[1]), count(g, 2));
    }
}

TEST(Rasterise, DiagonalCylinderVolume) {
    // Tilted: the shell argument of the sphere test applies. The surface 2 pi r (L + r) cuts
    // about 2100 elements out of 5650 inside: standard deviation 0.4 %, 2 % is 5 sigma.
    const double ds = 0.001, r = 0.006, len = 0.05;
    Scene s = block({0.06, 0.06, 0.06}, ds, "void");
    s.shapes.push_back({"steel", CylinderShape{{0.03, 0.03, 0.03}, {1, 2, 2}, r, len}});
    VoxelGrid g = rasterise(s);
    double volume = double(count(g, 2)) * ds * ds * ds;
    EXPECT_NEAR(volume / (std::numbers::pi * r * r * len), 1.0, 0.02);
}

TEST(Rasterise, LaterShapesWin) {
    Scene s = block({0.01, 0.01, 0.01}, 0.001);
    s.shapes.push_back({"steel", BoxShape{{0, 0, 0}, {0.006, 0.01, 0.01}}});
    s.shapes.push_back({"void", BoxShape{{0.004, 0, 0}, {0.01, 0.01, 0.01}}});
    VoxelGrid g = rasterise(s);
    EXPECT_EQ(g.at(0, 5, 5), 2);  // steel only
    EXPECT_EQ(g.at(5, 5, 5), 0);  // both: the later void wins
    EXPECT_EQ(g.at(9, 5, 5), 0);
    std::swap(s.shapes[0], s.shapes[1]);
    g = rasterise(s);
    EXPECT_EQ(g.at(5, 5, 5), 2);  // now steel is later
    EXPECT_EQ(g.at(9, 5, 5), 0);
}

TEST(Rasterise, AggregateFillsItsFraction) {
    Scene s = block({0.05, 0.05, 0.05}, 0.0005);
    AggregateShape a{{0, 0, 0}, {0.05, 0.05, 0.05}, 0.3, 0.003, 0.006, 3};
    s.shapes.push_back({"steel", a});
    VoxelGrid g = rasterise(s);
    double exact = 0;
    for (const auto& sphere : generate_aggregate(a)) exact += 4.0 / 3.0 * std::numbers::pi * std::pow(sphere.radius, 3);
    double painted = double(count(g, 2)) * std::pow(0.0005, 3);
    EXPECT_NEAR(painted / exact, 1.0, 0.01);
    EXPECT_NEAR(painted / 1.25e-4, 0.3, 0.02);
}

TEST(Rasterise, PaintedVoxelsResampledThenShapesOnTop) {
    test::TempDir dir;
    // Painted file: 2 x 2 x 2 cells of 4 mm covering [0, 8 mm]^3, ids 0 (void), 1, 2.
    VoxelGrid painted;
    painted.n = {2, 2, 2};
    painted.spacing = 0.004;
    painted.ids = {0, 1, 2, 2, 1, 1, 2, 0};
    write_voxels_h5(dir.file("painted.h5"), "/model/material_ids", painted);

    Scene s = block({0.016, 0.016, 0.016}, 0.002, "steel");
    s.base_dir = dir.str();
    s.voxels = VoxelsRef{"painted.h5", "/model/material_ids"};
    VoxelGrid g = rasterise(s);
    ASSERT_EQ(g.n, (std::array<int, 3>{8, 8, 8}));
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < 8; ++i) {
                MaterialId expected = (i < 4 && j < 4 && k < 4) ? painted.at(i / 2, j / 2, k / 2) : MaterialId(2);
                ASSERT_EQ(g.at(i, j, k), expected) << i << " " << j << " " << k;
            }
    // A shape painted after the voxels file overrides it.
    s.shapes.push_back({"concrete", BoxShape{{0, 0, 0}, {0.002, 0.002, 0.002}}});
    EXPECT_EQ(rasterise(s).at(0, 0, 0), 1);
}

TEST(Rasterise, PaintedIdBeyondTheSceneMaterials) {
    test::TempDir dir;
    VoxelGrid painted;
    painted.n = {1, 1, 2};
    painted.spacing = 0.01;
    painted.ids = {1, 7};
    write_voxels_h5(dir.file("p.h5"), "/ids", painted);
    Scene s = block({0.01, 0.01, 0.02}, 0.01);
    s.materials.push_back({"brass", 8400, 4400, 2200, "#b5a642", ""});
    s.base_dir = dir.str();
    s.voxels = VoxelsRef{"p.h5", "/ids"};
    InputError e = catch_input_error([&] { rasterise(s); });
    expect_error(e, dir.file("p.h5"), "/ids", "material id 7 but the scene has 3 materials");
}

TEST(Rasterise, UnknownMaterialNamesTheShape) {
    Scene s = block({0.01, 0.01, 0.01}, 0.001);
    s.shapes.push_back({"steel", SphereShape{{0, 0, 0}, 0.001}});
    s.shapes.push_back({"gold", SphereShape{{0, 0, 0}, 0.001}});
    expect_error(catch_input_error([&] { rasterise(s); }), "", "shapes[1].material", "unknown material 'gold'");
}

}  // namespace
}  // namespace voxwave

TEST(ShapeElements, AreTheElementsWhoseCentresLieInsideTheShape) {
    // 10 x 8 x 6 grid of 1 mm; a sphere of radius 2.6 mm centred on a node, a cylinder along x.
    voxwave::VoxelGrid g;
    g.n = {10, 8, 6};
    g.spacing = 0.001;
    g.ids.assign(g.element_count(), 1);
    const voxwave::Shape sphere{"steel", voxwave::SphereShape{{0.005, 0.004, 0.003}, 0.0026}};
    const voxwave::Shape cyl{"steel", voxwave::CylinderShape{{0.005, 0.004, 0.003}, {1, 0, 0}, 0.0015, 0.006}};
    std::vector<std::size_t> want_sphere, want_cyl;
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < 10; ++i) {
                const double x = (i + 0.5) * 1e-3, y = (j + 0.5) * 1e-3, z = (k + 0.5) * 1e-3;
                const double r2 = (x - 0.005) * (x - 0.005) + (y - 0.004) * (y - 0.004) + (z - 0.003) * (z - 0.003);
                if (r2 <= 0.0026 * 0.0026) want_sphere.push_back(g.element_index(i, j, k));
                const double d2 = (y - 0.004) * (y - 0.004) + (z - 0.003) * (z - 0.003);
                if (d2 <= 0.0015 * 0.0015 && std::abs(x - 0.005) <= 0.003) want_cyl.push_back(g.element_index(i, j, k));
            }
    EXPECT_EQ(voxwave::shape_elements(g, sphere), want_sphere);
    // Centre offsets are +-0.5, +-1.5, +-2.5 mm per axis; squared sums <= 6.76 mm^2:
    // (.5,.5,.5) 8 + (.5,.5,1.5) 24 + (.5,1.5,1.5) 24 + (1.5,1.5,1.5) 8 + (.5,.5,2.5) 24 = 88.
    EXPECT_EQ(want_sphere.size(), 88u);
    EXPECT_EQ(voxwave::shape_elements(g, cyl), want_cyl);
    EXPECT_EQ(want_cyl.size(), 6u * 4u);  // 6 elements along x, the 2 x 2 centres within 1.5 mm
}
