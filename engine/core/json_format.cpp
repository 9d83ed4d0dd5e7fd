#include "core/json_format.hpp"

namespace voxwave::json {
namespace {

using OJson = nlohmann::ordered_json;

constexpr std::size_t kInlineWidth = 100;

bool has_object(const OJson& v) {
    if (v.is_object()) return true;
    if (v.is_array())
        for (const auto& e : v)
            if (has_object(e)) return true;
    return false;
}

std::string inline_text(const OJson& v) {
    if (!v.is_array()) return v.dump();
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + inline_text(v[i]);
    return s + "]";
}

void append(std::string& out, const OJson& v, int indent) {
    std::string pad(static_cast<std::size_t>(indent + 2), ' ');
    std::string closing_pad(static_cast<std::size_t>(indent), ' ');
    if (v.is_object()) {
        if (v.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        std::size_t i = 0;
        for (const auto& [key, child] : v.items()) {
            out += pad + OJson(key).dump() + ": ";
            append(out, child, indent + 2);
            out += ++i < v.size() ? ",\n" : "\n";
        }
        out += closing_pad + "}";
    } else if (v.is_array()) {
        std::string flat = has_object(v) ? std::string() : inline_text(v);
        if (v.empty() || (!flat.empty() && flat.size() <= kInlineWidth)) {
            out += v.empty() ? "[]" : flat;
            return;
        }
        out += "[\n";
        for (std::size_t i = 0; i < v.size(); ++i) {
            out += pad;
            append(out, v[i], indent + 2);
            out += i + 1 < v.size() ? ",\n" : "\n";
        }
        out += closing_pad + "]";
    } else {
        out += v.dump();
    }
}

}  // namespace

std::string format_json(const nlohmann::ordered_json& value) {
    std::string out;
    append(out, value, 0);
    out += "\n";
    return out;
}

}  // namespace voxwave::json
