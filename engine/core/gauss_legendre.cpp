#include "core/gauss_legendre.hpp"

#include <cmath>
#include <numbers>

namespace voxwave {

void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w) {
    x.assign(n, 0.0);
    w.assign(n, 0.0);
    for (int i = 0; i < n; ++i) {
        double s = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));  // Tricomi's first guess
        double dp = 1;
        for (int it = 0; it < 100; ++it) {
            double p0 = 1, p1 = s;
            for (int k = 2; k <= n; ++k) {
                const double p2 = ((2 * k - 1) * s * p1 - (k - 1) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = n * (s * p1 - p0) / (s * s - 1);
            const double ds = p1 / dp;
            s -= ds;
            if (std::abs(ds) < 1e-16) break;
        }
        x[n - 1 - i] = s;
        w[n - 1 - i] = 2 / ((1 - s * s) * dp * dp);
    }
}

}  // namespace voxwave
