// Cost model helpers for the measurements of issue 6: least-squares exponents of measured
// times, to set beside the seed's estimates O(N^1.5 p^3) (sequential) and O(N p^2) (parallel),
// N being the number of unknowns.
#pragma once

#include <vector>

namespace voxwave::iga {

// Slope b of log y = a + b log x (least squares); NaN with fewer than two usable points
// (x, y > 0).
double fitted_exponent(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace voxwave::iga
