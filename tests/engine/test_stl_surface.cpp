// STL import: surfaces written by the test (ASCII and binary) voxelise to their analytic volumes,
// a surface with a hole is refused with a clear message, and the scene's "stl" shape reads,
// resolves its file against the scene's folder, paints and writes back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <numbers>

#include "model/stl_surface.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;
using Triangle = std::array<Vec3, 3>;

// The 12 outward triangles of the box [lo, hi], rotated by `angle` about the z axis through `pivot`.
std::vector<Triangle> box_triangles(const Vec3& lo, const Vec3& hi, double angle = 0, const Vec3& pivot = {0, 0, 0}) {
    auto corner = [&](int i) {
        Vec3 p{i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]};
        const double x = p[0] - pivot[0], y = p[1] - pivot[1];
        return Vec3{pivot[0] + std::cos(angle) * x - std::sin(angle) * y,
                    pivot[1] + std::sin(angle) * x + std::cos(angle) * y, p[2]};
    };
    // Faces as corner quads, counter-clockwise seen from outside.
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    std::vector<Triangle> out;
    for (const auto& q : quads) {
        out.push_back({corner(q[0]), corner(q[1]), corner(q[2])});
        out.push_back({corner(q[0]), corner(q[2]), corner(q[3])});
    }
    return out;
}

// A UV sphere: `rings` latitude bands of `segments` quads, poles as fans.
std::vector<Triangle> sphere_triangles(const Vec3& c, double r, int segments, int rings) {
    auto point = [&](int ring, int seg) {
        const double theta = std::numbers::pi * ring / rings, phi = 2 * std::numbers::pi * (seg % segments) / segments;
        if (ring == 0) return Vec3{c[0], c[1], c[2] + r};
        if (ring == rings) return Vec3{c[0], c[1], c[2] - r};
        return Vec3{c[0] + r * std::sin(theta) * std::cos(phi), c[1] + r * std::sin(theta) * std::sin(phi),
                    c[2] + r * std::cos(theta)};
    };
    std::vector<Triangle> out;
    for (int ring = 0; ring < rings; ++ring)
        for (int seg = 0; seg < segments; ++seg) {
            const Vec3 a = point(ring, seg), b = point(ring + 1, seg), cc = point(ring + 1, seg + 1),
                       d = point(ring, seg + 1);
            if (ring > 0) out.push_back({a, b, d});
            if (ring + 1 < rings) out.push_back({b, cc, d});
        }
    return out;
}

// The volume a triangulated closed surface encloses (divergence theorem): the analytic volume of
// the polyhedron itself.
double enclosed_volume(const std::vector<Triangle>& tris) {
    double v = 0;
    for (const auto& t : tris)
        v += (t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[2][1]) - t[0][1] * (t[1][0] * t[2][2] - t[1][2] * t[2][0]) +
              t[0][2] * (t[1][0] * t[2][1] - t[1][1] * t[2][0])) /
             6.0;
    return v;
}

void write_ascii_stl(const std::string& path, const std::vector<Triangle>& tris) {
    std::ofstream out(path);
    out.precision(17);
    out << "solid part\n";
    for (const auto& t : tris) {
        out << "  facet normal 0 0 0\n    outer loop\n";
        for (const Vec3& p : t) out << "      vertex " << p[0] << " " << p[1] << " " << p[2] << "\n";
        out << "    endloop\n  endfacet\n";
    }
    out << "endsolid part\n";
}

void write_binary_stl(const std::string& path, const std::vector<Triangle>& tris) {
    std::ofstream out(path, std::ios::binary);
    char header[80] = "solid-looking header of a binary file";
    out.write(header, 80);
    const std::uint32_t n = static_cast<std::uint32_t>(tris.size());
    out.write(reinterpret_cast<const char*>(&n), 4);
    for (const auto& t : tris) {
        float v[12] = {0, 0, 0};
        for (int k = 0; k < 3; ++k)
            for (int a = 0; a < 3; ++a) v[3 + 3 * k + a] = static_cast<float>(t[k][a]);
        out.write(reinterpret_cast<const char*>(v), sizeof v);
        const std::uint16_t attribute = 0;
        out.write(reinterpret_cast<const char*>(&attribute), 2);
    }
}

VoxelGrid grid(int n, double ds) {
    VoxelGrid g;
    g.n = {n, n, n};
    g.spacing = ds;
    g.ids.assign(g.element_count(), 0);
    return g;
}

TEST(StlSurface, BinarySphereVoxelVolumeWithinTwoPercent) {
    test::TempDir dir;
    const double r = 0.015, ds = 0.001;
    write_binary_stl(dir.file("sphere.stl"), sphere_triangles({0.0203, 0.0197, 0.0201}, r, 96, 48));
    const auto mesh = load_stl_surface(dir.file("sphere.stl"), 1.0, {0, 0, 0});
    EXPECT_EQ(mesh->triangles.size(), std::size_t(2 * 96 * 47));
    const double volume = double(elements_inside_surface(grid(40, ds), *mesh).size()) * ds * ds * ds;
    const double analytic = 4.0 / 3.0 * std::numbers::pi * r * r * r;
    EXPECT_NEAR(volume / analytic, 1.0, 0.02) << volume << " vs " << analytic;
}

TEST(StlSurface, AsciiCubeOnGridLinesIsExact) {
    // Faces on element faces: every row of centres crosses the x faces exactly on their diagonal
    // seams when j = k, so the tie rule must count one triangle of each pair, never both or none.
    test::TempDir dir;
    write_ascii_stl(dir.file("cube.stl"), box_triangles({0.002, 0.002, 0.002}, {0.022, 0.022, 0.022}));
    const auto mesh = load_stl_surface(dir.file("cube.stl"), 1.0, {0, 0, 0});
    EXPECT_EQ(elements_inside_surface(grid(30, 0.001), *mesh).size(), 20u * 20u * 20u);
}

TEST(StlSurface, RotatedScaledCubeWithinTwoPercent) {
    test::TempDir dir;
    // 20 mm cube written in millimetres, turned 0.3 rad about z, then scaled to metres and moved.
    const auto tris = box_triangles({0, 0, 0}, {20, 20, 20}, 0.3, {10, 10, 10});
    write_ascii_stl(dir.file("cube_mm.stl"), tris);
    const auto mesh = load_stl_surface(dir.file("cube_mm.stl"), 1e-3, {0.005, 0.0051, 0.0049});
    const double volume = double(elements_inside_surface(grid(40, 0.001), *mesh).size()) * 1e-9;
    EXPECT_NEAR(enclosed_volume(tris), 8000.0, 1e-9);  // the test's surface itself is right
    EXPECT_NEAR(volume / 8e-6, 1.0, 0.02) << volume;
}

TEST(StlSurface, SurfaceWithAHoleIsRefused) {
    test::TempDir dir;
    auto tris = box_triangles({0, 0, 0}, {1, 1, 1});
    tris.pop_back();
    write_ascii_stl(dir.file("open.stl"), tris);
    expect_error(catch_input_error([&] {
                     load_stl_surface(dir.file("open.stl"), 1.0, {0, 0, 0});
                 }),
                 dir.file("open.stl"), "", "not a closed surface: 3 edges are not shared by exactly two triangles");
    // A face added twice: its edges belong to three or four triangles.
    tris = box_triangles({0, 0, 0}, {1, 1, 1});
    tris.push_back(tris[0]);
    write_binary_stl(dir.file("doubled.stl"), tris);
    expect_error(catch_input_error([&] {
                     load_stl_surface(dir.file("doubled.stl"), 1.0, {0, 0, 0});
                 }),
                 dir.file("doubled.stl"), "", "not a closed surface");
}

TEST(StlSurface, MalformedFilesAreOneLineErrors) {
    test::TempDir dir;
    test::write_file(dir.file("empty.stl"), "");
    expect_error(catch_input_error([&] { read_stl(dir.file("empty.stl")); }), dir.file("empty.stl"), "", "empty");
    test::write_file(dir.file("bad.stl"), "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n");
    expect_error(catch_input_error([&] { read_stl(dir.file("bad.stl")); }), dir.file("bad.stl"), "",
                 "not a number ('zero')");
    test::write_file(dir.file("cut.stl"), "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n");
    expect_error(catch_input_error([&] { read_stl(dir.file("cut.stl")); }), dir.file("cut.stl"), "", "truncated");
    write_binary_stl(dir.file("short.stl"), box_triangles({0, 0, 0}, {1, 1, 1}));
    std::filesystem::resize_file(dir.file("short.stl"), 84 + 50 * 12 - 7);
    expect_error(catch_input_error([&] { read_stl(dir.file("short.stl")); }), dir.file("short.stl"), "",
                 "declares 12 triangles");
    expect_error(catch_input_error([&] { read_stl(dir.file("missing.stl")); }), dir.file("missing.stl"), "",
                 "cannot open");
}

std::string stl_scene(const std::string& shape) {
    return R"({"format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.03, 0.03, 0.03], "spacing": 0.001},
      "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200},
                    {"name": "epoxy", "density": 1200, "vp": 2500, "vs": 1100}],
      "background": "epoxy", "shapes": [)" +
           shape + "]}";
}

TEST(StlSurface, SceneShapeResolvesAgainstTheSceneFolderAndPaints) {
    test::TempDir dir;
    std::filesystem::create_directories(dir.file("parts"));
    write_binary_stl(dir.file("parts/cube.stl"), box_triangles({0, 0, 0}, {10, 10, 10}));
    test::write_file(dir.file("scene.json"),
                     stl_scene(R"({"type": "stl", "file": "parts/cube.stl", "material": "steel", "scale": 0.001,
                                   "translate": [0.004, 0.005, 0.006]})"));
    const Scene s = read_scene_json(dir.file("scene.json"));
    ASSERT_EQ(s.shapes.size(), 1u);
    const auto& stl = std::get<StlShape>(s.shapes[0].geometry);
    EXPECT_EQ(stl.file, "parts/cube.stl");
    ASSERT_TRUE(stl.mesh);
    const VoxelGrid g = rasterise(s);
    std::size_t steel = 0;
    for (int k = 0; k < 30; ++k)
        for (int j = 0; j < 30; ++j)
            for (int i = 0; i < 30; ++i) {
                const bool inside = i >= 4 && i < 14 && j >= 5 && j < 15 && k >= 6 && k < 16;
                steel += g.at(i, j, k) == 1;
                ASSERT_EQ(g.at(i, j, k), inside ? 1 : 2) << i << " " << j << " " << k;
            }
    EXPECT_EQ(steel, 1000u);
    // Written back as it was given, and read again to the same scene.
    const Scene back = parse_scene_json(scene_to_json_text(s), "back.json", dir.str());
    EXPECT_EQ(back, s);
    EXPECT_EQ(rasterise(back), g);
}

TEST(StlSurface, SceneErrorsNameTheShapeField) {
    test::TempDir dir;
    auto tris = box_triangles({0, 0, 0}, {0.01, 0.01, 0.01});
    tris.erase(tris.begin());
    write_ascii_stl(dir.file("open.stl"), tris);
    test::write_file(dir.file("open.json"), stl_scene(R"({"type": "stl", "file": "open.stl", "material": "steel"})"));
    const InputError open = catch_input_error([&] { read_scene_json(dir.file("open.json")); });
    expect_error(open, dir.file("open.json"), "shapes[0].file", "not a closed surface");
    EXPECT_TRUE(test::contains_text(open.reason(), dir.file("open.stl"))) << open.what();
    test::write_file(dir.file("none.json"), stl_scene(R"({"type": "stl", "file": "none.stl", "material": "steel"})"));
    expect_error(catch_input_error([&] { read_scene_json(dir.file("none.json")); }), dir.file("none.json"),
                 "shapes[0].file", "cannot open");
    test::write_file(dir.file("scale.json"),
                     stl_scene(R"({"type": "stl", "file": "open.stl", "material": "steel", "scale": -1})"));
    expect_error(catch_input_error([&] { read_scene_json(dir.file("scale.json")); }), dir.file("scale.json"),
                 "shapes[0].scale", "> 0");
}

}  // namespace
}  // namespace voxwave
