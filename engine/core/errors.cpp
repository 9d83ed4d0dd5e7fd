#include "core/errors.hpp"

namespace voxwave {
namespace {
std::string join_message(const std::string& file, const std::string& field, const std::string& reason) {
    std::string msg;
    if (!file.empty()) msg += file + ": ";
    if (!field.empty()) msg += field + ": ";
    msg += reason;
    return msg;
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
