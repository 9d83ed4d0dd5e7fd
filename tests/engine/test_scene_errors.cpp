// Every kind of bad scene input gives one InputError naming the file, the field and the reason.
#include <filesystem>

#include "scene/scene_io.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

const std::string kBase = R"({
  "format": "voxwave-scene", "version": 1,
  "grid": {"size": [0.1, 0.05, 0.2], "spacing": 0.002},
  "materials": [{"name": "concrete", "density": 2400, "vp": 4000, "vs": 2450, "color": "#9a9a9a"},
                {"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
  "background": "concrete",
  "shapes": [{"type": "box", "material": "void", "min": [0, 0, 0], "max": [0.01, 0.01, 0.01]},
             {"type": "sphere", "material": "steel", "center": [0.05, 0.025, 0.1], "radius": 0.01}],
  "sources": [{"name": "S", "position": [0.05, 0.025, 0.2], "direction": [0, 0, 1],
               "wavelet": {"type": "bandpass", "f_low": 100e3, "f_high": 125e3}}],
  "receivers": [{"name": "R1", "position": [0.02, 0.025, 0.2]}],
  "boundary": {"fixed_points": [[0, 0, 0]], "fixed_faces": ["z-"], "absorbing": {"faces": ["x-"], "thickness": 0.01}},
  "damping": {"type": "rayleigh", "ratio": 0.01, "f_low": 100e3, "f_high": 125e3},
  "run": {"method": "ovfem", "stages": 8}
})";

const std::string kSphere = R"({"type": "sphere", "material": "steel", "center": [0.05, 0.025, 0.1], "radius": 0.01})";

struct BadCase {
    std::string from, to;  // kBase with `from` replaced by `to`
    std::string field, reason;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << "'" << c.to << "' -> " << c.field; }

class SceneErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(SceneErrors, NameFileFieldAndReason) {
    const BadCase& c = GetParam();
    std::string text = kBase;
    auto at = text.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    text.replace(at, c.from.size(), c.to);
    test::TempDir dir;
    const std::string path = dir.file("scene.json");
    test::write_file(path, text);
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, c.field, c.reason);
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, SceneErrors,
    ::testing::Values(
        BadCase{"\"version\": 1,", "\"version\": 1,,", "",
                "malformed JSON at line 2, column 43: syntax error while parsing object key"},
        BadCase{"\"background\"", "\"backgroud\"", "backgroud", "unknown key (allowed: format, version, grid"},
        BadCase{"\"radius\": 0.01}]", "\"radious\": 0.01}]", "shapes[1].radious", "unknown key"},
        BadCase{"\"vp\": 5900,", "\"vp\": 5900, \"vp\": 5800,", "materials[1].vp", "duplicate key"},
        BadCase{"\"spacing\": 0.002", "\"spacing\": \"2 mm\"", "grid.spacing", "expected a number (got a string)"},
        BadCase{"\"spacing\": 0.002", "\"spacing\": 1e999", "", "malformed JSON: number overflow parsing '1e999'"},
        BadCase{"\"spacing\": 0.002", "\"spacing\": 0", "grid.spacing", "must be > 0"},
        BadCase{"\"spacing\": 0.002", "\"spacing\": 2e-5", "grid.spacing", "more than 2^31 elements"},
        BadCase{"\"spacing\": 0.002", "\"spacing\": 1e-6", "grid.spacing", "must be between 1e-05 and 1 m"},
        BadCase{"\"size\": [0.1, 0.05, 0.2]", "\"size\": [0.1]", "grid.size", "expected an array of 3 numbers"},
        BadCase{"\"size\": [0.1, 0.05, 0.2]", "\"size\": [0.1, -0.05, 0.2]", "grid.size[1]", "must be > 0"},
        BadCase{"  \"grid\": {\"size\": [0.1, 0.05, 0.2], \"spacing\": 0.002},\n", "", "grid", "missing required key"},
        BadCase{"\"voxwave-scene\"", "\"voxwave-result\"", "format", "expected \"voxwave-scene\""},
        BadCase{"\"version\": 1", "\"version\": 2", "version", "unsupported version 2"},
        BadCase{"\"version\": 1", "\"version\": \"1\"", "version", "expected an integer (got a string)"},
        BadCase{"\"ovfem\"", "\"fast\"", "run.method", "unknown method 'fast' (expected vfem, ovfem, tcovfem or sem)"},
        BadCase{"\"method\": \"ovfem\"", "\"precision\": \"fp16\"", "run.precision",
                "unknown precision 'fp16' (expected fp64 or fp32)"},
        BadCase{"\"method\": \"ovfem\"", "\"backend\": \"gpu\"", "run.backend",
                "unknown backend 'gpu' (expected auto, cpu or cuda)"},
        BadCase{"\"stages\": 8", "\"stages\": 9", "run.stages", "between 1 and 8"},
        BadCase{"\"stages\": 8", "\"stages\": 0", "run.stages", "between 1 and 8 (got 0)"},
        BadCase{"\"method\": \"ovfem\"", "\"method\": \"tcovfem\", \"precision\": \"fp32\"", "run.precision",
                "tcovfem computes in INT8 digits and FP64"},
        BadCase{"\"stages\": 8", "\"stages\": 8, \"steps\": 1.5", "run.steps", "expected an integer"},
        BadCase{"\"stages\": 8", "\"stages\": 8, \"steps\": -3", "run.steps", "must be >= 0"},
        BadCase{"\"stages\": 8", "\"stages\": 8, \"dt\": -1e-8", "run.dt", "must be >= 0"},
        BadCase{"\"density\": 2400", "\"density\": -2400", "materials[0].density", "must be > 0 (got -2400)"},
        BadCase{"\"vs\": 3200", "\"vs\": 5200", "materials[1].vs", "bulk modulus"},
        BadCase{"\"color\": \"#9a9a9a\"", "\"color\": \"grey\"", "materials[0].color", "#rrggbb"},
        BadCase{"\"name\": \"steel\"", "\"name\": \"void\"", "materials[1].name", "reserved"},
        BadCase{"\"name\": \"steel\"", "\"name\": \"concrete\"", "materials[1].name", "duplicate material 'concrete'"},
        BadCase{"\"background\": \"concrete\"", "\"background\": \"wood\"", "background",
                "unknown material 'wood' (the scene defines: void, concrete, steel)"},
        BadCase{"\"material\": \"steel\"", "\"material\": \"gold\"", "shapes[1].material", "unknown material 'gold'"},
        BadCase{"\"type\": \"box\"", "\"type\": \"cube\"", "shapes[0].type", "unknown shape type 'cube'"},
        BadCase{"\"max\": [0.01, 0.01, 0.01]", "\"max\": [0.01, -0.01, 0.01]", "shapes[0].max", "greater than min"},
        BadCase{
            kSphere,
            R"({"type": "cylinder", "material": "steel", "center": [0, 0, 0], "axis": [0, 0, 0], "radius": 0.01, "length": 0.02})",
            "shapes[1].axis", "must not be zero"},
        BadCase{kSphere,
                R"({"type": "cylinder", "material": "steel", "center": [0, 0, 0], "axis": [0, 1, 0], "radius": 0.01})",
                "shapes[1].length", "missing required key"},
        BadCase{"\"radius\": 0.01}]", "\"radius\": -0.01}]", "shapes[1].radius", "must be > 0"},
        BadCase{
            kSphere,
            R"({"type": "aggregate", "material": "steel", "min": [0, 0, 0], "max": [0.1, 0.05, 0.2], "fraction": 0.9, "radius_min": 0.002, "radius_max": 0.004})",
            "shapes[1].fraction", "(0, 0.74]"},
        BadCase{
            kSphere,
            R"({"type": "aggregate", "material": "steel", "min": [0, 0, 0], "max": [0.1, 0.05, 0.2], "fraction": 0.3, "radius_min": 0.002, "radius_max": 0.004, "seed": -1})",
            "shapes[1].seed", "non-negative integer"},
        BadCase{"\"position\": [0.05, 0.025, 0.2]", "\"position\": [0.05, 0.025, 0.21]", "sources[0].position",
                "outside the model box [0, 0.1] x [0, 0.05] x [0, 0.2]"},
        BadCase{"\"position\": [0.05, 0.025, 0.2]", "\"position\": [0.05, 0.025]", "sources[0].position",
                "has 2 entries but grid.size has 3 (a scene is 2D or 3D throughout)"},
        BadCase{"\"direction\": [0, 0, 1]", "\"direction\": [0, 0, 0]", "sources[0].direction", "must not be zero"},
        BadCase{"\"direction\": [0, 0, 1]", "\"direction\": [0, 0, 1], \"amplitude\": true", "sources[0].amplitude",
                "expected a number (got a boolean)"},
        BadCase{"\"f_low\": 100e3, \"f_high\": 125e3}}", "\"f_low\": 100e3, \"f_high\": 90e3}}",
                "sources[0].wavelet.f_high", "must be > f_low"},
        BadCase{"\"type\": \"bandpass\"", "\"type\": \"gaussian\"", "sources[0].wavelet.type",
                "unknown wavelet type 'gaussian' (expected ricker, tone_burst, bandpass or samples)"},
        BadCase{"\"type\": \"bandpass\"", "\"type\": \"ricker\"", "sources[0].wavelet.f_high",
                "unknown key (allowed: type, frequency, delay)"},
        BadCase{"{\"type\": \"bandpass\", \"f_low\": 100e3, \"f_high\": 125e3}", "{\"type\": \"ricker\"}",
                "sources[0].wavelet.frequency", "missing required key"},
        BadCase{"{\"type\": \"bandpass\", \"f_low\": 100e3, \"f_high\": 125e3}",
                "{\"type\": \"tone_burst\", \"frequency\": 1e5, \"cycles\": 0}", "sources[0].wavelet.cycles",
                "must be > 0"},
        BadCase{"{\"type\": \"bandpass\", \"f_low\": 100e3, \"f_high\": 125e3}",
                "{\"type\": \"samples\", \"file\": \"w.csv\", \"dt\": 0}", "sources[0].wavelet.file", "cannot open"},
        BadCase{"\"position\": [0.02, 0.025, 0.2]", "\"position\": [-0.001, 0.025, 0.2]", "receivers[0].position",
                "outside the model box"},
        BadCase{"{\"name\": \"R1\", \"position\": [0.02, 0.025, 0.2]}",
                "{\"name\": \"R1\", \"position\": [0.02, 0.025, 0.2]}, {\"name\": \"R1\", \"position\": [0, 0, 0]}",
                "receivers[1].name", "duplicate receiver name 'R1'"},
        BadCase{"\"fixed_points\": [[0, 0, 0]]", "\"fixed_points\": [[0, 0, 1]]", "boundary.fixed_points[0]",
                "outside the model box"},
        BadCase{"\"fixed_faces\": [\"z-\"]", "\"fixed_faces\": [\"z\"]", "boundary.fixed_faces[0]", "unknown face 'z'"},
        BadCase{"\"fixed_faces\": [\"z-\"]", "\"fixed_faces\": \"z-\"", "boundary.fixed_faces",
                "expected an array (got a string)"},
        BadCase{"\"faces\": [\"x-\"], \"thickness\": 0.01", "\"faces\": [\"x-\"]", "boundary.absorbing.thickness",
                "missing required key"},
        BadCase{"\"faces\": [\"x-\"], \"thickness\": 0.01", "\"faces\": [\"x-\", \"x-\"], \"thickness\": 0.01",
                "boundary.absorbing.faces[1]", "duplicate face"},
        BadCase{"\"ratio\": 0.01", "\"ratio\": 1", "damping.ratio", "[0, 1)"},
        BadCase{"\"ratio\": 0.01, \"f_low\": 100e3, \"f_high\": 125e3}", "\"ratio\": 0.01, \"f_low\": 100e3}",
                "damping.f_high", "missing required key"},
        BadCase{"\"ratio\": 0.01, \"f_low\": 100e3, \"f_high\": 125e3}",
                "\"ratio\": 0.01, \"f_low\": 100e3, \"f_high\": 90e3}", "damping.f_high", "must be >= f_low"},
        BadCase{"\"type\": \"rayleigh\"", "\"type\": \"viscous\"", "damping.type", "unknown damping type 'viscous'"}));

// Files a scene refers to.
class SceneFiles : public ::testing::Test {
protected:
    std::string scene_with(const std::string& extra) {
        std::string text = kBase;
        text.insert(text.rfind('}'), ",\n" + extra);
        test::write_file(path, text);
        return path;
    }
    std::string with_samples(const std::string& wavelet) {
        std::string text = kBase;
        const std::string from = "{\"type\": \"bandpass\", \"f_low\": 100e3, \"f_high\": 125e3}";
        text.replace(text.find(from), from.size(), wavelet);
        test::write_file(path, text);
        return path;
    }
    void write_painted(const std::vector<MaterialId>& ids) {
        VoxelGrid g;
        g.n = {int(ids.size()), 1, 1};
        g.spacing = 0.002;
        g.ids = ids;
        write_voxels_h5(dir.file("painted.h5"), "/model/material_ids", g);
    }

    test::TempDir dir;
    std::string path = dir.file("scene.json");
};

TEST_F(SceneFiles, TopLevelMustBeAnObject) {
    test::write_file(path, "[1, 2]");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "",
                       "expected a JSON object at the top level (got an array)");
}

TEST_F(SceneFiles, MissingSceneFile) {
    const std::string missing = dir.file("nope.json");
    test::expect_error(test::catch_input_error([&] { read_scene_json(missing); }), missing, "",
                       "cannot open: No such file or directory");
}

TEST_F(SceneFiles, DirectoriesAreNotFiles) {
    test::expect_error(test::catch_input_error([&] { read_scene_json(dir.str()); }), dir.str(), "",
                       "cannot open: Is a directory");
    std::filesystem::create_directory(dir.file("painted.h5"));
    scene_with(R"("voxels": {"file": "painted.h5"})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "voxels.file",
                       dir.file("painted.h5") + ": cannot open: Is a directory");
}

TEST_F(SceneFiles, MissingSampleFileNamesTheFieldAndTheFile) {
    with_samples(R"({"type": "samples", "file": "pulse.csv", "dt": 1e-7})");
    InputError e = test::catch_input_error([&] { read_scene_json(path); });
    test::expect_error(e, path, "sources[0].wavelet.file",
                       dir.file("pulse.csv") + ": cannot open: No such file or directory");
}

TEST_F(SceneFiles, BadSampleLineIsNamed) {
    test::write_file(dir.file("pulse.csv"), "# my pulse\n0.0\nabc\n");
    with_samples(R"({"type": "samples", "file": "pulse.csv", "dt": 1e-7})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "sources[0].wavelet.file",
                       dir.file("pulse.csv") + ": line 3: not a finite number: 'abc'");
    test::write_file(dir.file("pulse.csv"), "0,1\n1,2,3\n");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "sources[0].wavelet.file",
                       "line 2: expected 1 or 2 columns");
    test::write_file(dir.file("pulse.csv"), "0,1\n2\n");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "sources[0].wavelet.file",
                       "line 2: expected 2 column(s) like the first line");
    test::write_file(dir.file("pulse.csv"), "# only comments\n\n");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "sources[0].wavelet.file",
                       "no samples");
}

TEST_F(SceneFiles, SampleDatasetRules) {
    test::write_file(dir.file("pulse.csv"), "1\n2\n");
    with_samples(R"({"type": "samples", "file": "pulse.csv", "dataset": "/w", "dt": 1e-7})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "sources[0].wavelet.dataset",
                       "only used with HDF5");
    with_samples(R"({"type": "samples", "file": "pulse.h5", "dt": 1e-7})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "sources[0].wavelet.dataset",
                       "required for an HDF5 sample file");
    // A valid HDF5 sample file: a voxel file's dataset is numeric but 3-D, so it is refused.
    write_painted({1, 2});
    with_samples(R"({"type": "samples", "file": "painted.h5", "dataset": "/model/material_ids", "dt": 1e-7})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "sources[0].wavelet.dataset",
                       "expected a 1-D dataset (got rank 3)");
}

TEST_F(SceneFiles, TruncatedVoxelFile) {
    write_painted(std::vector<MaterialId>(5000, 1));
    const std::string voxels = dir.file("painted.h5");
    scene_with(R"("voxels": {"file": "painted.h5"})");
    EXPECT_NO_THROW(read_scene_json(path));
    std::filesystem::resize_file(voxels, std::filesystem::file_size(voxels) / 2);
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "voxels.file",
                       voxels + ": not an HDF5 file or truncated");
}

TEST_F(SceneFiles, VoxelFileProblems) {
    scene_with(R"("voxels": {"file": "painted.h5"})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "voxels.file",
                       dir.file("painted.h5") + ": cannot open: No such file or directory");
    write_painted({0, 1, 2, 3});
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "voxels.dataset",
                       "/model/material_ids: material id 3 but the scene has 2 materials");
    scene_with(R"("voxels": {"file": "painted.h5", "dataset": "/ids"})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "voxels.dataset",
                       "/ids: missing dataset");
    scene_with(R"("voxels": {"file": "painted.h5", "datset": "/ids"})");
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "voxels.datset", "unknown key");
}

}  // namespace
}  // namespace voxwave
