// Numbers in error messages: short and readable ("0.002", "1e+06"), not round-trip exact.
#pragma once

#include <string>

namespace voxwave {

std::string format_number(double v);

}  // namespace voxwave
