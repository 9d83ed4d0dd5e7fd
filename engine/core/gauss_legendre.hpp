// Gauss-Legendre quadrature on [-1, 1], shared by the element-integration lab and the IGA
// solver: n points integrate polynomials of degree 2n - 1 exactly.
#pragma once

#include <vector>

namespace voxwave {

// Nodes (ascending) and weights of the n-point rule (Newton on L_n, to machine precision).
void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w);

}  // namespace voxwave
