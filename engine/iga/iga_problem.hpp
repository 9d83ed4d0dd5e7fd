// The two model problems on [0,1]^2, both with the seed's boundary layout: Dirichlet on the
// bottom (x2 = 0) and top (x2 = 1) edges, zero Neumann on the sides x1 = 0 and x1 = 1.
//   seed:          -lap u = 0, u = 0 at the bottom, u = 1 at the top; exact u = x2 (seed eqs. 1-6).
//   manufactured:  -lap u = f with u = cos(pi x1) sin(pi x2), f = 2 pi^2 u (smooth, so the L2
//                  error of degree-p B-splines falls like h^(p+1)).
#pragma once

#include <string>

namespace voxwave::iga {

enum class IgaProblemKind { Seed, Manufactured };

// "seed" | "manufactured"; anything else throws InputError("", field, "unknown problem ...").
IgaProblemKind parse_iga_problem(const std::string& name, const std::string& field = "--problem");
const char* to_string(IgaProblemKind kind);

double iga_exact_solution(IgaProblemKind kind, double x1, double x2);
double iga_source(IgaProblemKind kind, double x1, double x2);
// The Dirichlet data, constant along each edge for both problems.
double iga_bottom_value(IgaProblemKind kind);
double iga_top_value(IgaProblemKind kind);

}  // namespace voxwave::iga
