// Gauss-Legendre quadrature on [0,1]: n points integrate polynomials of degree 2n - 1 exactly,
// so p + 1 points per direction integrate the degree-2p products of the stiffness matrix.
#pragma once

#include <vector>

namespace voxwave::iga {

struct GaussRule {
    std::vector<double> points;   // in (0,1), ascending
    std::vector<double> weights;  // sum to 1
};

// Throws InputError("", "quadrature", ...) for n < 1 or n > 64.
GaussRule gauss_legendre_unit(int n);

}  // namespace voxwave::iga
