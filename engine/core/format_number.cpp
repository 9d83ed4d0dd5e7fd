#include "core/format_number.hpp"

#include <cstdio>

namespace voxwave {

std::string format_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

}  // namespace voxwave
