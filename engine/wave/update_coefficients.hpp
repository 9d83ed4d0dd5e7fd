// Per-node factors of the central-difference update (time_stepper_cpu.hpp states the scheme),
// rounded once to the engine's precision. Shared by the CPU and CUDA steppers so both round the
// same numbers the same way.
#pragma once

#include <cstddef>
#include <vector>

#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
struct UpdateCoefficients {
    std::vector<Real> dt2_inv_mass;    // dt^2 / m, 0 where the node is fixed or massless
    std::vector<Real> inv_one_plus_h;  // 1 / (1 + h), h = (alpha + sponge) dt / 2
    std::vector<Real> one_minus_h;     // 1 - h
};

template <class Real>
UpdateCoefficients<Real> update_coefficients(const WaveProblem& p) {
    const std::size_t nn = p.grid.node_count();
    const double dt = p.dt;
    UpdateCoefficients<Real> c{std::vector<Real>(nn), std::vector<Real>(nn), std::vector<Real>(nn)};
    for (std::size_t n = 0; n < nn; ++n) {
        const double m = p.node_mass[n];
        c.dt2_inv_mass[n] = m > 0 ? static_cast<Real>(dt * dt / m) : Real(0);
        const double h = 0.5 * dt * (p.rayleigh.alpha + (p.sponge.empty() ? 0.0 : p.sponge[n]));
        c.inv_one_plus_h[n] = static_cast<Real>(1.0 / (1.0 + h));
        c.one_minus_h[n] = static_cast<Real>(1.0 - h);
    }
    for (std::size_t n : p.fixed_nodes) c.dt2_inv_mass[n] = Real(0);
    return c;
}

}  // namespace voxwave
