#include "scene/process_grid.hpp"

#include <cstdio>

#include "core/errors.hpp"

namespace voxwave {

ProcessGrid parse_process_grid(const std::string& s, const std::string& field) {
    if (s.empty() || s == "auto") return {};
    ProcessGrid g;
    char x1 = 0, x2 = 0;
    int used = 0;
    if (std::sscanf(s.c_str(), "%d%c%d%c%d%n", &g.ranks[0], &x1, &g.ranks[1], &x2, &g.ranks[2], &used) != 5 ||
        x1 != 'x' || x2 != 'x' || used != int(s.size()) || g.ranks[0] < 1 || g.ranks[1] < 1 || g.ranks[2] < 1)
        throw InputError("", field,
                         "'" + s + "' is not auto or ranks along x, y and z as PXxPYxPZ (e.g. 1x2x2), each 1 or more");
    return g;
}

std::string to_string(const ProcessGrid& g) {
    if (g.automatic()) return "auto";
    return std::to_string(g.ranks[0]) + "x" + std::to_string(g.ranks[1]) + "x" + std::to_string(g.ranks[2]);
}

}  // namespace voxwave
