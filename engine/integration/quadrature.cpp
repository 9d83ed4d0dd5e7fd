#include "integration/quadrature.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace voxwave::integration {

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
