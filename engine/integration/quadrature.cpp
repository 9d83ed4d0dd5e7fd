#include "integration/quadrature.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace voxwave::integration {

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

int hex_points_per_direction(int p, HexRule rule) {
    const int eq7 = std::max(2, (3 * p - 1) / 2);  // ceil((3p - 2) / 2), at least 2 (Table 3, p = 1)
    return rule == HexRule::PaperEq7 ? eq7 : std::max(eq7, p + 1);
}

QuadratureRule hex_rule(int p, HexRule rule) {
    QuadratureRule q;
    const int n = hex_points_per_direction(p, rule);
    std::vector<double> x, w;
    gauss_legendre(n, x, w);
    q.points_1d = n;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                q.points.push_back({x[i], x[j], x[k]});
                q.weights.push_back(w[i] * w[j] * w[k]);
            }
    return q;
}

QuadratureRule prism_rule(int p) {
    QuadratureRule q;
    std::vector<double> x, w;
    gauss_legendre(p + 1, x, w);
    for (int k = 0; k <= p; ++k)            // vertical
        for (int j = 0; j <= p; ++j)        // collapsed direction v
            for (int i = 0; i <= p; ++i) {  // u
                // Duffy map from [-1,1]^2 to the triangle; its Jacobian (1 - v)/8 joins the weight.
                const double xi1 = (1 + x[i]) * (1 - x[j]) / 4, xi2 = (1 + x[j]) / 2;
                q.points.push_back({xi1, xi2, x[k]});
                q.weights.push_back(w[i] * w[j] * w[k] * (1 - x[j]) / 8);
            }
    return q;
}

}  // namespace voxwave::integration
