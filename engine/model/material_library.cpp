#include <set>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_format.hpp"
#include "core/strict_json.hpp"
#include "model/material.hpp"

namespace voxwave {

namespace {
// The rules an entry of a library file obeys beyond validate_material's (the reader and the
// writer check the same).
void check_library_entry(const Material& m, const std::string& path, const std::string& field,
                         std::set<std::string>& names) {
    // Library values are only useful if a user can check where they come from.
    if (m.source.empty()) throw InputError(path, field + ".source", "must name where the values come from");
    validate_material(m, path, field);
    if (!names.insert(m.name).second) throw InputError(path, field + ".name", "duplicate material '" + m.name + "'");
}
}  // namespace

std::vector<Material> load_material_library(const std::string& path) {
    json::Json doc = json::parse_strict(json::read_text_file(path), path);
    json::ObjectReader top(doc, path, "");
    top.allow({"format", "version", "materials"});
    if (top.string("format") != "voxwave-materials")
        throw InputError(path, "format", "expected \"voxwave-materials\" (got \"" + top.string("format") + "\")");
    if (top.integer("version") != 1)
        throw InputError(
            path, "version",
            "unsupported version " + std::to_string(top.integer("version")) + " (this build reads version 1)");

    const json::Json& list = json::to_array(top.at("materials"), path, "materials");
    std::vector<Material> out;
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        std::string field = json::item("materials", i);
        json::ObjectReader r(list[i], path, field);
        r.allow({"name", "density", "vp", "vs", "color", "source"});
        Material m;
        m.name = r.string("name");
        m.density = r.number("density");
        m.vp = r.number("vp");
        m.vs = r.number("vs");
        m.color = r.string("color");
        m.source = r.string("source");
        check_library_entry(m, path, field, names);
        out.push_back(std::move(m));
    }
    return out;
}

void write_material_library(const std::string& path, const std::vector<Material>& materials) {
    nlohmann::ordered_json j;
    j["format"] = "voxwave-materials";
    j["version"] = 1;
    j["materials"] = nlohmann::ordered_json::array();
    std::set<std::string> names;
    for (std::size_t i = 0; i < materials.size(); ++i) {
        const Material& m = materials[i];
        check_library_entry(m, path, json::item("materials", i), names);
        j["materials"].push_back({{"name", m.name},
                                  {"density", m.density},
                                  {"vp", m.vp},
                                  {"vs", m.vs},
                                  {"color", m.color},
                                  {"source", m.source}});
    }
    write_text_atomically(path, json::format_json(j));
}

}  // namespace voxwave
