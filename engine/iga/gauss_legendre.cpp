#include "iga/gauss_legendre.hpp"

#include "core/errors.hpp"
#include "core/gauss_legendre.hpp"

namespace voxwave::iga {

GaussRule gauss_legendre_unit(int n) {
    if (n < 1 || n > 64) throw InputError("", "quadrature", "between 1 and 64 points are supported");
    // The rule on [-1, 1], mapped to [0, 1] (ascending, weights halved).
    std::vector<double> x, w;
    gauss_legendre(n, x, w);
    GaussRule r;
    r.points.resize(static_cast<std::size_t>(n));
    r.weights.resize(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < x.size(); ++k) {
        r.points[k] = 0.5 * (x[k] + 1.0);
        r.weights[k] = 0.5 * w[k];
    }
    return r;
}

}  // namespace voxwave::iga
