#include "core/strict_json.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/errors.hpp"

namespace voxwave::json {
namespace {

// nlohmann reports "[json.exception.parse_error.101] parse error at line 3, column 5: REASON";
// keep REASON, we print the position ourselves.
std::string parse_error_reason(const std::string& what) {
    auto col = what.find("column ");
    if (col != std::string::npos) {
        auto colon = what.find(": ", col);
        if (colon != std::string::npos) return what.substr(colon + 2);
    }
    return what;
}

std::string type_name(const Json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    return "an object";
}

InputError expected(const std::string& file, const std::string& field, const std::string& what, const Json& got) {
    return InputError(file, field, "expected " + what + " (got " + type_name(got) + ")");
}

// Tracks where the parser is, so that a duplicate key can be reported with its full path.
class DuplicateKeyFinder {
public:
    explicit DuplicateKeyFinder(std::string file) : file_(std::move(file)) {}

    bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
        switch (event) {
            case Json::parse_event_t::object_start:
            case Json::parse_event_t::array_start:
                begin_element();
                frames_.push_back({event == Json::parse_event_t::array_start, 0, {}, {}});
                break;
            case Json::parse_event_t::object_end:
            case Json::parse_event_t::array_end:
                frames_.pop_back();
                break;
            case Json::parse_event_t::key: {
                Frame& f = frames_.back();
                const std::string& key = parsed.get_ref<const std::string&>();
                if (!f.keys.insert(key).second) throw InputError(file_, join(path_of_current(), key), "duplicate key");
                f.last_key = key;
                break;
            }
            case Json::parse_event_t::value:
                begin_element();
                break;
        }
        return true;
    }

private:
    struct Frame {
        bool is_array;
        std::size_t count;  // elements begun so far (arrays)
        std::string last_key;
        std::set<std::string> keys;
    };

    void begin_element() {
        if (!frames_.empty() && frames_.back().is_array) ++frames_.back().count;
    }

    // Path of the innermost open container.
    std::string path_of_current() const {
        std::string path;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
            const Frame& f = frames_[i];
            path = f.is_array ? item(path, f.count - 1) : join(path, f.last_key);
        }
        return path;
    }

    std::string file_;
    std::vector<Frame> frames_;
};

std::pair<std::size_t, std::size_t> line_and_column(const std::string& text, std::size_t byte) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

}  // namespace

std::string read_text_file(const std::string& path) {
    if (std::filesystem::is_directory(path)) throw InputError(path, "", "cannot open: Is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "", std::string("cannot open: ") + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw InputError(path, "", std::string("cannot read: ") + std::strerror(errno));
    return ss.str();
}

Json parse_strict(const std::string& text, const std::string& file) {
    Json value;
    try {
        value = Json::parse(text, DuplicateKeyFinder(file));
    } catch (const Json::parse_error& e) {
        // e.byte is one past the offending character.
        auto [line, column] = line_and_column(text, e.byte > 0 ? e.byte - 1 : 0);
        throw InputError(file, "",
                         "malformed JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                             ": " + parse_error_reason(e.what()));
    } catch (const Json::exception& e) {
        // Lexically valid but unrepresentable, e.g. 1e999; nlohmann gives no position.
        std::string what = e.what();
        auto close = what.find("] ");
        throw InputError(file, "", "malformed JSON: " + (close == std::string::npos ? what : what.substr(close + 2)));
    }
    if (!value.is_object()) throw expected(file, "", "a JSON object at the top level", value);
    return value;
}

std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string item(const std::string& path, std::size_t index) { return path + "[" + std::to_string(index) + "]"; }

double to_number(const Json& v, const std::string& file, const std::string& field) {
    if (!v.is_number()) throw expected(file, field, "a number", v);
    double d = v.get<double>();
    if (!std::isfinite(d)) throw InputError(file, field, "must be a finite number");
    return d;
}

std::int64_t to_integer(const Json& v, const std::string& file, const std::string& field) {
    if (v.is_number_unsigned()) {
        if (v.get<std::uint64_t>() > std::uint64_t(INT64_MAX)) throw InputError(file, field, "integer too large");
        return static_cast<std::int64_t>(v.get<std::uint64_t>());
    }
    if (v.is_number_integer()) return v.get<std::int64_t>();
    // Accept 1e4 and 16384.0: the value is what matters, not how it was typed.
    if (v.is_number_float()) {
        double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0)
            return static_cast<std::int64_t>(d);
    }
    throw expected(file, field, "an integer", v);
}

std::uint64_t to_unsigned(const Json& v, const std::string& file, const std::string& field) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    std::int64_t i = to_integer(v, file, field);
    if (i < 0) throw InputError(file, field, "must be a non-negative integer (got " + std::to_string(i) + ")");
    return static_cast<std::uint64_t>(i);
}

std::string to_string(const Json& v, const std::string& file, const std::string& field) {
    if (!v.is_string()) throw expected(file, field, "a string", v);
    return v.get<std::string>();
}

std::array<double, 3> to_vec3(const Json& v, const std::string& file, const std::string& field) {
    if (!v.is_array() || v.size() != 3) throw expected(file, field, "an array of 3 numbers", v);
    std::array<double, 3> out{};
    for (std::size_t i = 0; i < 3; ++i) out[i] = to_number(v[i], file, item(field, i));
    return out;
}

const Json& to_array(const Json& v, const std::string& file, const std::string& field) {
    if (!v.is_array()) throw expected(file, field, "an array", v);
    return v;
}

std::vector<std::string> to_strings(const Json& v, const std::string& file, const std::string& field) {
    to_array(v, file, field);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(to_string(v[i], file, item(field, i)));
    return out;
}

ObjectReader::ObjectReader(const Json& value, std::string file, std::string path)
    : value_(value), file_(std::move(file)), path_(std::move(path)) {
    if (!value_.is_object()) throw expected(file_, path_, "an object", value_);
}

void ObjectReader::allow(std::initializer_list<std::string_view> allowed) const {
    for (const auto& [key, v] : value_.items()) {
        bool ok = false;
        for (std::string_view a : allowed) ok = ok || a == key;
        if (ok) continue;
        std::string list;
        for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        throw InputError(file_, join(path_, key), "unknown key (allowed: " + list + ")");
    }
}

const Json& ObjectReader::at(std::string_view key) const {
    auto it = value_.find(key);
    if (it == value_.end()) throw InputError(file_, field(key), "missing required key");
    return *it;
}

double ObjectReader::number_or(std::string_view key, double fallback) const {
    return has(key) ? number(key) : fallback;
}

std::int64_t ObjectReader::integer_or(std::string_view key, std::int64_t fallback) const {
    return has(key) ? integer(key) : fallback;
}

std::uint64_t ObjectReader::unsigned_or(std::string_view key, std::uint64_t fallback) const {
    return has(key) ? to_unsigned(at(key), file_, field(key)) : fallback;
}

std::string ObjectReader::string_or(std::string_view key, const std::string& fallback) const {
    return has(key) ? string(key) : fallback;
}

std::array<double, 3> ObjectReader::vec3_or(std::string_view key, const std::array<double, 3>& fallback) const {
    return has(key) ? vec3(key) : fallback;
}

std::vector<std::string> ObjectReader::strings_or(std::string_view key) const {
    return has(key) ? to_strings(at(key), file_, field(key)) : std::vector<std::string>{};
}

const Json& ObjectReader::array_or_empty(std::string_view key) const {
    static const Json empty = Json::array();
    return has(key) ? to_array(at(key), file_, field(key)) : empty;
}

}  // namespace voxwave::json
