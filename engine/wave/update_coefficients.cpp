#include "wave/update_coefficients.hpp"

namespace voxwave {

template <class Real>
UpdateCoefficients<Real> update_coefficients(const WaveProblem& p) {
    const std::size_t nn = p.node_count();
    const double dt = p.dt;
    UpdateCoefficients<Real> c;
    // Uninitialised storage, first touched by the thread that fills it.
    c.dt2_inv_mass = std::vector<Real>(nn);
    c.inv_one_plus_h = std::vector<Real>(nn);
    c.one_minus_h = std::vector<Real>(nn);
    const std::ptrdiff_t n_nodes = static_cast<std::ptrdiff_t>(nn);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n_nodes; ++i) {
        const std::size_t n = static_cast<std::size_t>(i);
        const double m = p.node_mass[n];
        c.dt2_inv_mass[n] = m > 0 ? static_cast<Real>(dt * dt / m) : Real(0);
        const double h = 0.5 * dt * (p.rayleigh.alpha + p.boundary.damping_at(n));
        c.inv_one_plus_h[n] = static_cast<Real>(1.0 / (1.0 + h));
        c.one_minus_h[n] = static_cast<Real>(1.0 - h);
    }
    for (std::size_t n : p.boundary.fixed_nodes) c.dt2_inv_mass[n] = Real(0);
    return c;
}

template UpdateCoefficients<double> update_coefficients<double>(const WaveProblem&);
template UpdateCoefficients<float> update_coefficients<float>(const WaveProblem&);

}  // namespace voxwave
