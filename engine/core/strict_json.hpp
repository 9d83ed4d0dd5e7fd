// Strict JSON reading for the engine's file formats (docs/architecture.md#files-and-cli: unknown keys are an error).
//
// Errors are InputError(file, field, reason) with FIELD the key path as the user wrote it
// ("shapes[1].radius"), so a message points at the exact spot to fix.
// Internal to the engine: public headers never include nlohmann/json.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace voxwave::json {

using Json = nlohmann::json;

// The whole file as text; InputError(path, "", "cannot open: REASON") when it cannot be read.
std::string read_text_file(const std::string& path);

// Parses `text`. Malformed text: InputError(file, "", "malformed JSON at line L, column C: ...");
// a key repeated in one object (which nlohmann would silently collapse): InputError(file,
// "path.key", "duplicate key"); a top level that is not an object: InputError(file, "", ...).
Json parse_strict(const std::string& text, const std::string& file);

// Key paths: join("", "grid") = "grid", join("grid", "size") = "grid.size", item("shapes", 1) = "shapes[1]".
std::string join(const std::string& path, std::string_view key);
std::string item(const std::string& path, std::size_t index);

// Conversions of one value at FIELD; each throws InputError(file, field, "expected ...").
double to_number(const Json& v, const std::string& file, const std::string& field);  // finite
std::int64_t to_integer(const Json& v, const std::string& file, const std::string& field);
std::uint64_t to_unsigned(const Json& v, const std::string& file, const std::string& field);
std::string to_string(const Json& v, const std::string& file, const std::string& field);
std::array<double, 3> to_vec3(const Json& v, const std::string& file, const std::string& field);
const Json& to_array(const Json& v, const std::string& file, const std::string& field);
std::vector<std::string> to_strings(const Json& v, const std::string& file, const std::string& field);

// One JSON object at PATH, read key by key.
class ObjectReader {
public:
    // Throws unless `value` is an object.
    ObjectReader(const Json& value, std::string file, std::string path);

    // Throws InputError(file, "path.key", "unknown key (allowed: ...)") for the first key not in `allowed`.
    void allow(std::initializer_list<std::string_view> allowed) const;

    bool has(std::string_view key) const { return value_.contains(key); }
    std::string field(std::string_view key) const { return join(path_, key); }
    const std::string& file() const noexcept { return file_; }
    const std::string& path() const noexcept { return path_; }
    // The raw value; InputError(file, "path.key", "missing required key") when absent.
    const Json& at(std::string_view key) const;

    double number(std::string_view key) const { return to_number(at(key), file_, field(key)); }
    double number_or(std::string_view key, double fallback) const;
    std::int64_t integer(std::string_view key) const { return to_integer(at(key), file_, field(key)); }
    std::int64_t integer_or(std::string_view key, std::int64_t fallback) const;
    std::uint64_t unsigned_or(std::string_view key, std::uint64_t fallback) const;
    std::string string(std::string_view key) const { return to_string(at(key), file_, field(key)); }
    std::string string_or(std::string_view key, const std::string& fallback) const;
    std::array<double, 3> vec3(std::string_view key) const { return to_vec3(at(key), file_, field(key)); }
    std::array<double, 3> vec3_or(std::string_view key, const std::array<double, 3>& fallback) const;
    std::vector<std::string> strings_or(std::string_view key) const;
    // An array value (empty when the key is absent).
    const Json& array_or_empty(std::string_view key) const;

private:
    const Json& value_;
    std::string file_;
    std::string path_;
};

}  // namespace voxwave::json
