#include "iga/iga_problem.hpp"

#include <cmath>
#include <numbers>

#include "core/errors.hpp"

namespace voxwave::iga {

IgaProblemKind parse_iga_problem(const std::string& name, const std::string& field) {
    if (name == "seed") return IgaProblemKind::Seed;
    if (name == "manufactured") return IgaProblemKind::Manufactured;
    throw InputError("", field, "unknown problem '" + name + "' (expected seed or manufactured)");
}

const char* to_string(IgaProblemKind kind) { return kind == IgaProblemKind::Seed ? "seed" : "manufactured"; }

double iga_exact_solution(IgaProblemKind kind, double x1, double x2) {
    if (kind == IgaProblemKind::Seed) return x2;
    return std::cos(std::numbers::pi * x1) * std::sin(std::numbers::pi * x2);
}

double iga_source(IgaProblemKind kind, double x1, double x2) {
    if (kind == IgaProblemKind::Seed) return 0.0;
    return 2.0 * std::numbers::pi * std::numbers::pi * iga_exact_solution(kind, x1, x2);
}

double iga_bottom_value(IgaProblemKind) { return 0.0; }
double iga_top_value(IgaProblemKind kind) { return kind == IgaProblemKind::Seed ? 1.0 : 0.0; }

}  // namespace voxwave::iga
