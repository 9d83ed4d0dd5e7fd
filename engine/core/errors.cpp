#include "core/errors.hpp"

namespace voxwave {
namespace {
// Parts of a message echo the user's text (a JSON key, a CSV cell, an HDF5 name), which may hold
// a newline or other control character: written as escapes, the message stays one line.
std::string escape_control_characters(const std::string& text) {
    static const char* const hex = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7f) {
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 0xf];
        } else {
            out += c;
        }
    }
    return out;
}

std::string join_message(const std::string& file, const std::string& field, const std::string& reason) {
    std::string msg;
    if (!file.empty()) msg += file + ": ";
    if (!field.empty()) msg += field + ": ";
    msg += reason;
    return escape_control_characters(msg);
}
}  // namespace

InputError::InputError(std::string file, std::string field, std::string reason)
    : std::runtime_error(join_message(file, field, reason)),
      file_(std::move(file)),
      field_(std::move(field)),
      reason_(std::move(reason)) {}

InputError InputError::with_file(const std::string& file) const { return {file, field_, reason_}; }

InputError InputError::within(const std::string& parent) const {
    std::string f = field_.empty() ? parent : (field_.front() == '[' ? parent + field_ : parent + "." + field_);
    return {file_, f, reason_};
}

}  // namespace voxwave
