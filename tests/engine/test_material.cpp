#include <cmath>
#include <limits>
#include <set>

#include "model/material.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;

Material steel() { return {"steel", 7850, 5900, 3200, "#4a6fa5", ""}; }

void expect_rejected(const Material& m, const std::string& field, const std::string& reason) {
    InputError e = catch_input_error([&] { validate_material(m, "scene.json", "materials[2]"); });
    expect_error(e, "scene.json", "materials[2]." + field, reason);
}

TEST(Material, ValidMaterialPasses) {
    EXPECT_NO_THROW(validate_material(steel(), "scene.json", "materials[0]"));
    Material water{"water", 998, 1481, 0, "#3f7fbf", ""};
    EXPECT_NO_THROW(validate_material(water, "f", ""));  // vs = 0 (fluid) is allowed
}

TEST(Material, EachRuleNamesItsField) {
    Material m = steel();
    m.name = "";
    expect_rejected(m, "name", "must not be empty");
    m.name = "void";
    expect_rejected(m, "name", "reserved");

    m = steel();
    m.density = -1;
    expect_rejected(m, "density", "must be > 0 (got -1)");
    m.density = 0;
    expect_rejected(m, "density", "must be > 0");
    m.density = std::numeric_limits<double>::quiet_NaN();
    expect_rejected(m, "density", "finite");

    m = steel();
    m.vp = 0;
    expect_rejected(m, "vp", "must be > 0");
    m.vp = std::numeric_limits<double>::infinity();
    expect_rejected(m, "vp", "finite");

    m = steel();
    m.vs = -1;
    expect_rejected(m, "vs", "must be >= 0");
    // vp^2 = 4/3 vs^2 exactly at vs = sqrt(3)/2 vp: bulk modulus zero.
    m.vs = 5200;  // > 0.866 * 5900 = 5109.6
    expect_rejected(m, "vs", "bulk modulus");
    m.vs = 5100;  // just below the limit: valid
    EXPECT_NO_THROW(validate_material(m, "f", ""));

    m = steel();
    m.color = "red";
    expect_rejected(m, "color", "#rrggbb");
    m.color = "#12345g";
    expect_rejected(m, "color", "#rrggbb");
    m.color = "#ABCdef";
    EXPECT_NO_THROW(validate_material(m, "f", ""));
}

TEST(Material, FieldWithoutPrefix) {
    Material m = steel();
    m.density = -2;
    InputError e = catch_input_error([&] { validate_material(m, "lib.json", ""); });
    expect_error(e, "lib.json", "density", "got -2");
}

TEST(Material, ModuliAndPoissonRatio) {
    Material al{"aluminium", 2700, 6320, 3130, "#c0c6cc", ""};
    // Closed forms: G = rho vs^2, lambda = rho (vp^2 - 2 vs^2), nu = lambda / (2 (lambda + G)).
    double G = 2700.0 * 3130 * 3130, lambda = 2700.0 * (6320.0 * 6320 - 2.0 * 3130 * 3130);
    EXPECT_DOUBLE_EQ(al.shear_modulus(), G);
    EXPECT_DOUBLE_EQ(al.lame_lambda(), lambda);
    EXPECT_DOUBLE_EQ(al.bulk_modulus(), lambda + 2.0 / 3.0 * G);
    EXPECT_NEAR(al.poisson_ratio(), lambda / (2 * (lambda + G)), 1e-14);
    EXPECT_NEAR(al.poisson_ratio(), 0.3375, 1e-4);  // the handbook value for aluminium
    Material water{"water", 998, 1481, 0, "#3f7fbf", ""};
    EXPECT_DOUBLE_EQ(water.poisson_ratio(), 0.5);
}

TEST(MaterialLibrary, LoadsAndEveryEntryValidatesWithASource) {
    const std::string path = std::string(VOXWAVE_ASSETS_DIR) + "/materials/library.json";
    std::vector<Material> lib = load_material_library(path);
    std::set<std::string> names;
    for (const Material& m : lib) {
        EXPECT_NO_THROW(validate_material(m, path, m.name));
        EXPECT_GT(m.source.size(), 20u) << m.name << " needs a real source";
        EXPECT_NE(m.name, "void");
        names.insert(m.name);
    }
    EXPECT_EQ(names.size(), lib.size());
    for (const char* required : {"concrete", "steel", "aluminium", "copper", "brass", "cast_iron", "glass", "pmma",
                                 "epoxy", "granite", "water", "air"})
        EXPECT_TRUE(names.count(required)) << required;

    auto find = [&](const std::string& n) {
        for (const Material& m : lib)
            if (m.name == n) return m;
        return Material{};
    };
    // The paper-model values (docs/architecture.md#the-papers-model: concrete and steel) and the library's others.
    Material c = find("concrete"), s = find("steel"), a = find("aluminium");
    EXPECT_EQ(std::vector<double>({c.density, c.vp, c.vs}), std::vector<double>({2400, 4000, 2450}));
    EXPECT_EQ(std::vector<double>({s.density, s.vp, s.vs}), std::vector<double>({7850, 5900, 3200}));
    EXPECT_EQ(std::vector<double>({a.density, a.vp, a.vs}), std::vector<double>({2700, 6320, 3130}));
    EXPECT_EQ(find("water").vs, 0);
    EXPECT_EQ(find("air").vs, 0);
    EXPECT_EQ(find("air").vp, 343);
}

TEST(MaterialLibrary, BadLibrariesNameFileAndField) {
    test::TempDir dir;
    const std::string path = dir.file("lib.json");
    auto load = [&](const std::string& text) {
        test::write_file(path, text);
        return catch_input_error([&] { load_material_library(path); });
    };
    const std::string entry =
        R"({"name": "x", "density": 1000, "vp": 2000, "vs": 1000, "color": "#000000", "source": "me"})";
    expect_error(load(R"({"format": "voxwave-scene", "version": 1, "materials": []})"), path, "format",
                 "voxwave-materials");
    expect_error(load(R"({"format": "voxwave-materials", "version": 2, "materials": []})"), path, "version",
                 "unsupported");
    expect_error(load(R"({"format": "voxwave-materials", "version": 1, "materials": [)" + entry + ", " + entry + "]}"),
                 path, "materials[1].name", "duplicate");
    expect_error(load(R"({"format": "voxwave-materials", "version": 1, "materials": [{"name": "x", "density": 1000,
                 "vp": 2000, "vs": 1000, "color": "#000000"}]})"),
                 path, "materials[0].source", "missing required key");
    expect_error(load(R"({"format": "voxwave-materials", "version": 1, "materials": [{"name": "x", "density": -5,
                 "vp": 2000, "vs": 1000, "color": "#000000", "source": "s"}]})"),
                 path, "materials[0].density", "must be > 0");
    expect_error(catch_input_error([&] { load_material_library(dir.file("missing.json")); }), dir.file("missing.json"),
                 "", "cannot open: No such file or directory");
}

TEST(MaterialLibrary, WrittenLibraryReadsBackEqualAndBadEntriesWriteNothing) {
    test::TempDir dir;
    const std::string path = dir.file("mine.json");
    // Values that need all of a double's digits: the file must keep them exactly.
    const std::vector<Material> mine = {
        {"resin_a", 1183.25, 2731.0 + 1.0 / 3.0, 1431.125, "#12ab9f", "measured, batch 7"},
        {"water_20C", 998.2, 1482.3, 0, "#3366cc", "handbook"}};
    write_material_library(path, mine);
    EXPECT_EQ(load_material_library(path), mine);
    const auto before = test::read_file(path);

    // An entry the reader would refuse is refused before anything is written: the file stays.
    auto bad = mine;
    bad[1].vs = 0.9 * bad[1].vp;  // above sqrt(3)/2 vp = 0.866 vp: negative bulk modulus
    expect_error(catch_input_error([&] { write_material_library(path, bad); }), path, "materials[1].vs",
                 "bulk modulus");
    bad = mine;
    bad[1].name = bad[0].name;
    expect_error(catch_input_error([&] { write_material_library(path, bad); }), path, "materials[1].name", "duplicate");
    bad = mine;
    bad[0].source.clear();
    expect_error(catch_input_error([&] { write_material_library(path, bad); }), path, "materials[0].source",
                 "where the values come from");
    EXPECT_EQ(test::read_file(path), before);
    EXPECT_EQ(dir.entries().size(), 1u);  // no temporary left behind
}

}  // namespace
}  // namespace voxwave
