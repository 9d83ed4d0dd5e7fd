#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>

#include "scene/scene_io.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

// A scene using every feature, with doubles that do not print exactly in decimal.
Scene every_feature_scene(const test::TempDir& dir) {
    VoxelGrid painted;
    painted.n = {3, 2, 2};
    painted.spacing = 0.1 / 3;
    painted.ids = {0, 1, 2, 3, 1, 1, 2, 2, 0, 0, 3, 1};
    write_voxels_h5(dir.file("painted.h5"), "/model/material_ids", painted);
    test::write_file(dir.file("pulse.csv"), "# t, value\n0,0\n1e-7,0.5\n2e-7,-1\n3e-7,0.25\n");

    Scene s;
    s.base_dir = dir.str();
    s.grid = {{0.1 + 0.2, 0.128, 1.0 / 3}, 0.002, {0, 1e-300, 0.1 + 0.2 - 0.3}};
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""},
                   {"steel", 7850, 5900, 3200, "#4a6fa5", "seed 000 §2"},
                   {"épоxy ünïcode", 1200.000000000001, 2600, 0, "#ABCDEF", "quote \" and \\ backslash"}};
    s.background = "concrete";
    s.shapes = {
        {"steel", BoxShape{{0, 0, 0}, {0.01, 0.02, 0.03}}},
        {"void", CylinderShape{{0.16, 0.064, 0.1}, {0.3, 1.0 / 7, -2}, 0.015, 0.128}},
        {"épоxy ünïcode", SphereShape{{0.2, 0.06, 0.2}, 0.005}},
        {"steel", AggregateShape{{0.01, 0.01, 0.01}, {0.1, 0.1, 0.1}, 0.35, 0.002, 0.004, 18446744073709551615ull}}};
    s.voxels = VoxelsRef{"painted.h5", "/model/material_ids"};

    Source ricker{"S-ricker", {0.156, 0.072, 1.0 / 3}, {0, 0, -1}, -2.5, {}};
    ricker.wavelet.type = WaveletType::Ricker;
    ricker.wavelet.frequency = 1e5 / 3;
    ricker.wavelet.delay = 3.6e-5;
    Source burst{"S-burst", {0.0, 0.0, 0.0}, {1, 1, 0}, 1, {}};
    burst.wavelet.type = WaveletType::ToneBurst;
    burst.wavelet.frequency = 50e3;
    burst.wavelet.cycles = 3.5;
    burst.wavelet.delay = 0;
    Source band{"S", {0.3, 0.128, 1.0 / 3}, {0, 0, 1}, 1, {}};
    band.wavelet.type = WaveletType::Bandpass;
    band.wavelet.f_low = 100e3;
    band.wavelet.f_high = 125e3;
    band.wavelet.delay = 4.096e-4;
    Source sampled{"S-samples", {0.1, 0.1, 0.1}, {0, 1, 0}, 1e-3, {}};
    sampled.wavelet.type = WaveletType::Samples;
    sampled.wavelet.file = "pulse.csv";
    sampled.wavelet.sample_dt = 1e-7;
    sampled.wavelet.samples = {0, 0.5, -1, 0.25};
    s.sources = {ricker, burst, band, sampled};

    s.receivers = {{"R1", {0.026, 0.06, 1.0 / 3}}, {"R2", {0.06, 0.06, 0.3}}};
    s.boundary.fixed_points = {{0, 0, 0}, {0.3, 0, 0}, {0, 0.128, 0}, {0.1 + 0.2, 0.128, 0}};
    s.boundary.fixed_faces = {"z-", "x+"};
    s.boundary.absorbing = {{"x-", "y+", "z+"}, 0.0125, "pml", 1e-4, 1.5, 2e5, 1.25e5};
    s.damping = {"rayleigh", 0.01, 100e3, 125e3};
    s.run = {Method::Vfem, Precision::Fp32, 4, 5e-8, 8.192e-4, 16384, Backend::Cuda};
    return s;
}

TEST(SceneJson, RoundTripOfEveryFeatureIsExact) {
    test::TempDir dir;
    Scene s = every_feature_scene(dir);
    EXPECT_NO_THROW(validate_scene(s, "built in code"));
    const std::string path = dir.file("scene.json");
    write_scene_json(path, s);
    Scene back = read_scene_json(path);
    EXPECT_EQ(back, s);
    EXPECT_EQ(back.base_dir, dir.str());
    // Bit-exact, not just ==, for the values that print inexactly in decimal.
    // (The doubles only: the int dimensions after them is followed by padding; == compared it.)
    EXPECT_EQ(std::memcmp(&back.grid, &s.grid, offsetof(GridSpec, dimensions)), 0);
    EXPECT_EQ(back.sources[0].wavelet.frequency, 1e5 / 3);
    // Writing what was read gives the same text.
    EXPECT_EQ(scene_to_json_text(back), test::read_file(path));
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"painted.h5", "pulse.csv", "scene.json"}));
}

TEST(SceneJson, TextIsReadableJson) {
    test::TempDir dir;
    std::string text = scene_to_json_text(every_feature_scene(dir));
    // Short numeric arrays stay on one line, as a person would write them.
    EXPECT_TRUE(test::contains_text(text, "\"direction\": [0.0, 0.0, -1.0]")) << text;
    EXPECT_TRUE(test::contains_text(text, "\"format\": \"voxwave-scene\",\n  \"version\": 1,")) << text;
    EXPECT_TRUE(test::contains_text(text, "\"seed\": 18446744073709551615")) << text;
}

TEST(SceneJson, DefaultsAreFilledIn) {
    const std::string text = R"({
      "format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.1, 0.1, 0.1], "spacing": 0.001},
      "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
      "shapes": [{"type": "aggregate", "material": "steel", "min": [0, 0, 0], "max": [0.1, 0.1, 0.1],
                  "fraction": 0.2, "radius_min": 0.004, "radius_max": 0.005}]
    })";
    Scene s = parse_scene_json(text, "mem.json", "");
    EXPECT_EQ(s.grid.origin, (Vec3{0, 0, 0}));
    EXPECT_EQ(s.materials[0].color, "#808080");
    EXPECT_EQ(s.background, "void");
    EXPECT_EQ(std::get<AggregateShape>(s.shapes[0].geometry).seed, 1u);
    EXPECT_FALSE(s.voxels.has_value());
    EXPECT_TRUE(s.sources.empty());
    EXPECT_EQ(s.damping, DampingSpec{});
    EXPECT_EQ(s.run, RunSpec{});
    EXPECT_EQ(s.run.method, Method::Ovfem);
    EXPECT_EQ(s.run.stages, 8);

    const std::string with_sources = R"({
      "format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.1, 0.1, 0.1], "spacing": 0.001, "origin": [1, 2, 3]},
      "sources": [{"position": [1, 2, 3], "wavelet": {"type": "ricker", "frequency": 1e5}},
                  {"position": [1.1, 2.1, 3.1], "wavelet": {"type": "tone_burst", "frequency": 2e5}},
                  {"position": [1.05, 2.05, 3.05], "wavelet": {"type": "bandpass", "f_low": 1e5, "f_high": 1.25e5}}],
      "receivers": [{"position": [1, 2, 3]}, {"position": [1.1, 2.1, 3.1]}],
      "boundary": {"absorbing": {}},
      "damping": {"type": "rayleigh", "ratio": 0.02, "f_low": 1e5, "f_high": 1e5},
      "run": {"steps": 1.6384e4}
    })";
    s = parse_scene_json(with_sources, "mem.json", "");
    EXPECT_EQ(s.sources[0].name, "S1");
    EXPECT_EQ(s.sources[2].name, "S3");
    EXPECT_EQ(s.sources[0].direction, (Vec3{0, 0, 1}));
    EXPECT_EQ(s.sources[0].amplitude, 1.0);
    EXPECT_DOUBLE_EQ(s.sources[0].wavelet.delay, 1.2e-5);  // 1.2 / frequency
    EXPECT_EQ(s.sources[1].wavelet.cycles, 5);
    EXPECT_EQ(s.sources[1].wavelet.delay, 0);
    EXPECT_DOUBLE_EQ(s.sources[2].wavelet.delay, 2e-5);  // 2 / f_low
    EXPECT_EQ(s.receivers[1].name, "R2");
    EXPECT_EQ(s.boundary.absorbing, AbsorbingSpec{});
    EXPECT_EQ(s.run.steps, 16384);  // an integral float is accepted as an integer
}

TEST(SceneJson, AbsorbingTypeOldFilesAreSpongesNewScenesPml) {
    const std::string old_file = R"({
      "format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.1, 0.1, 0.1], "spacing": 0.01},
      "boundary": {"absorbing": {"faces": ["x-"], "thickness": 0.02}}
    })";
    Scene s = parse_scene_json(old_file, "old.json", "");
    EXPECT_EQ(s.boundary.absorbing.type, "sponge");
    EXPECT_FALSE(s.boundary.absorbing.reflection.has_value());
    EXPECT_EQ(Scene{}.boundary.absorbing.type, "pml");  // what a new scene (GUI, CLI) gets

    // The type is written, and the PML keys only where the scene has them.
    test::TempDir dir;
    s.boundary.absorbing.type = "pml";
    s.boundary.absorbing.frequency = 2e5;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}};
    s.background = "concrete";
    write_scene_json(dir.file("pml.json"), s);
    const std::string text = test::read_file(dir.file("pml.json"));
    EXPECT_NE(text.find("\"type\": \"pml\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"frequency\": 200000"), std::string::npos) << text;
    EXPECT_EQ(text.find("reflection"), std::string::npos) << text;
    EXPECT_EQ(read_scene_json(dir.file("pml.json")).boundary.absorbing, s.boundary.absorbing);
}

TEST(SceneJson, ThePaperModelFromTheDesignParses) {
    // The full scene example (docs/architecture.md#files-and-cli lists the keys), less the
    // painted-voxels reference (tested elsewhere).
    const std::string text = R"({
      "format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.324, 0.128, 0.384], "spacing": 0.002, "origin": [0, 0, 0]},
      "materials": [
        {"name": "concrete", "density": 2400, "vp": 4000, "vs": 2450, "color": "#9a9a9a"},
        {"name": "steel", "density": 7850, "vp": 5900, "vs": 3200, "color": "#4a6fa5"}
      ],
      "background": "concrete",
      "shapes": [
        {"type": "cylinder", "material": "steel", "center": [0.160, 0.064, 0.100],
         "axis": [0, 1, 0], "radius": 0.015, "length": 0.128},
        {"type": "box", "material": "void", "min": [0.0, 0.0, 0.0], "max": [0.01, 0.01, 0.01]},
        {"type": "sphere", "material": "void", "center": [0.2, 0.06, 0.2], "radius": 0.005}
      ],
      "sources": [{"name": "S", "position": [0.156, 0.072, 0.384], "direction": [0, 0, 1],
                   "amplitude": 1.0,
                   "wavelet": {"type": "bandpass", "f_low": 100e3, "f_high": 125e3, "delay": 4.096e-4}}],
      "receivers": [{"name": "R1", "position": [0.026, 0.060, 0.384]}],
      "boundary": {"fixed_points": [[0, 0, 0], [0.324, 0, 0], [0, 0.128, 0], [0.324, 0.128, 0]]},
      "damping": {"type": "rayleigh", "ratio": 0.01, "f_low": 100e3, "f_high": 125e3},
      "run": {"method": "tcovfem", "precision": "fp64", "stages": 8, "dt": 5e-8,
              "duration": 8.192e-4, "backend": "auto"}
    })";
    Scene s = parse_scene_json(text, "paper.json", "");
    EXPECT_EQ(s.shapes.size(), 3u);
    EXPECT_EQ(std::get<CylinderShape>(s.shapes[0].geometry).radius, 0.015);
    EXPECT_EQ(s.sources[0].wavelet.type, WaveletType::Bandpass);
    EXPECT_EQ(s.run.method, Method::Tcovfem);
    EXPECT_EQ(s.boundary.fixed_points.size(), 4u);
    EXPECT_EQ(s.material_id("steel"), 2);
    EXPECT_EQ(s.material_id("void"), 0);
}

TEST(SceneJson, SampleWaveletsLoadFromCsvAndHdf5) {
    test::TempDir dir;
    test::write_file(dir.file("two_columns.csv"), "t,value\r\n# comment\r\n0, 1.5\r\n1e-6, -2\r\n\r\n2e-6,+3e-1\r\n");
    const std::string text = R"({"format": "voxwave-scene", "version": 1,
      "grid": {"size": [1, 1, 1], "spacing": 0.1},
      "sources": [{"position": [0, 0, 0], "wavelet": {"type": "samples", "file": "two_columns.csv", "dt": 1e-6}}]})";
    Scene s = parse_scene_json(text, "mem.json", dir.str());
    EXPECT_EQ(s.sources[0].wavelet.samples, (std::vector<double>{1.5, -2, 0.3}));
}

TEST(SceneJson, OverriddenSceneIsRechecked) {
    test::TempDir dir;
    Scene s = every_feature_scene(dir);
    s.run.stages = 0;
    test::expect_error(test::catch_input_error([&] { validate_scene(s, "cli"); }), "cli", "run.stages",
                       "between 1 and 8");
    s = every_feature_scene(dir);
    s.grid.size[2] = 0.2;  // the sources at z = 1/3 now lie outside
    test::expect_error(test::catch_input_error([&] { validate_scene(s, "cli"); }), "cli", "sources[0].position",
                       "outside the model box [0, 0.3] x [1e-300, 0.128] x [5.55112e-17, 0.2]");
}

TEST(SceneJson, WriterRefusesAnInvalidSceneAndLeavesNothing) {
    test::TempDir dir;
    Scene s = every_feature_scene(dir);
    s.materials[0].density = std::nan("");
    const std::string path = dir.file("bad.json");
    test::expect_error(test::catch_input_error([&] { write_scene_json(path, s); }), path, "materials[0].density",
                       "finite");
    EXPECT_FALSE(std::filesystem::exists(path));
    InputError e =
        test::catch_input_error([&] { write_scene_json("/nonexistent-voxwave-dir/s.json", every_feature_scene(dir)); });
    test::expect_error(e, "/nonexistent-voxwave-dir/s.json", "", "cannot write: No such file or directory");
}

}  // namespace
}  // namespace voxwave

namespace voxwave {
namespace {

// Save as into another folder: relative references are rewritten to reach the same files.
TEST(SceneRebase, RelativeReferencesFollowTheSceneAbsoluteOnesStay) {
    Scene s;
    s.base_dir = "/data/projects/a";
    s.voxels = VoxelsRef{"models/deck.h5", "/ids"};
    Source rel, abs, ricker;
    rel.wavelet.type = WaveletType::Samples;
    rel.wavelet.file = "pulse.csv";
    abs.wavelet.type = WaveletType::Samples;
    abs.wavelet.file = "/shared/pulses/p.h5";
    ricker.wavelet.type = WaveletType::Ricker;
    s.sources = {rel, abs, ricker};
    rebase_file_references(s, "/data/projects/b/run1");
    EXPECT_EQ(s.base_dir, "/data/projects/b/run1");
    EXPECT_EQ(s.voxels->file, "../../a/models/deck.h5");
    EXPECT_EQ(s.sources[0].wavelet.file, "../../a/pulse.csv");
    EXPECT_EQ(s.sources[1].wavelet.file, "/shared/pulses/p.h5");
    EXPECT_TRUE(s.sources[2].wavelet.file.empty());
    // Resolving from the new place reaches the original files.
    EXPECT_EQ(std::filesystem::path(resolve_path(s.base_dir, s.voxels->file)).lexically_normal().string(),
              "/data/projects/a/models/deck.h5");
    // Saving into the same folder changes nothing.
    Scene same;
    same.base_dir = "/x/y";
    same.voxels = VoxelsRef{"v.h5", "/ids"};
    rebase_file_references(same, "/x/y");
    EXPECT_EQ(same.voxels->file, "v.h5");
}

}  // namespace
}  // namespace voxwave
