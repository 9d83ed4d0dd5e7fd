#include "iga/iga_cost.hpp"

#include <cmath>
#include <limits>

namespace voxwave::iga {

double fitted_exponent(const std::vector<double>& x, const std::vector<double>& y) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (!(x[i] > 0 && y[i] > 0)) continue;
        const double lx = std::log(x[i]), ly = std::log(y[i]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
        ++n;
    }
    const double den = n * sxx - sx * sx;
    if (n < 2 || den <= 0) return std::numeric_limits<double>::quiet_NaN();
    return (n * sxy - sx * sy) / den;
}

}  // namespace voxwave::iga
