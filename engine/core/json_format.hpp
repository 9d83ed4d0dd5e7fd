// Human-friendly JSON text for files people also edit by hand: one key per line, but short
// arrays of numbers (positions, directions) kept on one line as a person would write them.
// Numbers use nlohmann's shortest round-trip form, so reading the text back gives the same bits.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace voxwave::json {

std::string format_json(const nlohmann::ordered_json& value);

}  // namespace voxwave::json
