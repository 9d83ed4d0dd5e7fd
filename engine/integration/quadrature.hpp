// Gauss quadrature for the integration lab.
//
// Hexahedra: n x n x n Gauss-Legendre points. Seed 001's eq. 7 gives n = ceil((3p - 2)/2) (its
// Table 3: n_G = 8, 8, 64, 125, 343 for p = 1..5, so p = 1 takes 2 points). For p = 2 that rule
// (2 points, exact to degree 3) under-integrates the degree-4 products of the shape functions:
// the 60 x 60 stiffness then has rank 48 (8 points x 6 strains) instead of 54. The default rule
// therefore takes n = max(eq. 7, p + 1) (exact for an undistorted element); it equals eq. 7 for
// every p except p = 2 (27 points instead of 8). The paper's rule stays selectable.
//
// Prisms (seed 003: Gaussian quadrature exact for products of two shape functions, degree 2p):
// a collapsed (Stroud conical) Gauss rule with (p + 1)^2 points on the triangle, exact to degree
// 2p + 1, times p + 1 Gauss points in the vertical. Seed 003 used a 42-point triangle rule for
// p = 7 (its 27,869,184 = 288^2 x 336 innermost operations); ours has 64 points: same accuracy,
// more points.
#pragma once

#include <array>
#include <vector>

#include "core/gauss_legendre.hpp"
#include "integration/element_modes.hpp"

namespace voxwave::integration {

enum class HexRule { Full, PaperEq7 };

struct QuadratureRule {
    std::vector<std::array<double, 3>> points;  // reference coordinates
    std::vector<double> weights;
    int points_1d = 0;  // hexahedra: points per direction (tensor rule)
};

using voxwave::gauss_legendre;  // core/gauss_legendre.hpp: the rule on [-1, 1]
int hex_points_per_direction(int p, HexRule rule);
// Tensor rule, r fastest: point index = (k * n + j) * n + i.
QuadratureRule hex_rule(int p, HexRule rule);
// Triangle (xi1, xi2 >= 0, xi1 + xi2 <= 1) times zeta in [-1, 1].
QuadratureRule prism_rule(int p);

}  // namespace voxwave::integration
