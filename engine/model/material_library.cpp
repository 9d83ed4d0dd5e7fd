#include <set>

#include "core/errors.hpp"
#include "core/strict_json.hpp"
#include "model/material.hpp"

namespace voxwave {

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
        // Library values are only useful if a user can check where they come from.
        m.source = r.string("source");
        if (m.source.empty()) throw InputError(path, r.field("source"), "must name where the values come from");
        validate_material(m, path, field);
        if (!names.insert(m.name).second)
            throw InputError(path, r.field("name"), "duplicate material '" + m.name + "'");
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace voxwave
