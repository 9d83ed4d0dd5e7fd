#include "iga/gauss_legendre.hpp"

#include <cmath>
#include <numbers>

#include "core/errors.hpp"

namespace voxwave::iga {

GaussRule gauss_legendre_unit(int n) {
    if (n < 1 || n > 64) throw InputError("", "quadrature", "between 1 and 64 points are supported");
    GaussRule r;
    r.points.resize(static_cast<std::size_t>(n));
    r.weights.resize(static_cast<std::size_t>(n));
    // Newton on P_n from the Chebyshev-like first guess; converges to machine precision quickly.
    for (int i = 0; i < n; ++i) {
        double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
        double dp = 1.0;
        for (int it = 0; it < 100; ++it) {
            double p0 = 1.0, p1 = x;
            for (int k = 2; k <= n; ++k) {
                const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = n * (x * p1 - p0) / (x * x - 1.0);
            const double dx = p1 / dp;
            x -= dx;
            if (std::abs(dx) < 1e-16) break;
        }
        // Map [-1,1] -> [0,1]; ascending order.
        const std::size_t k = static_cast<std::size_t>(n - 1 - i);
        r.points[k] = 0.5 * (x + 1.0);
        r.weights[k] = 1.0 / ((1.0 - x * x) * dp * dp);
    }
    return r;
}

}  // namespace voxwave::iga
