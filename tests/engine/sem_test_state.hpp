// A random state pair for the SEM steppers' checks: u uniform in +-1 um, u- = u plus a 1 %
// perturbation (so that the damped operand (1 + b) u - b u- differs from u).
#pragma once

#include <random>
#include <vector>

namespace voxwave::testing {

inline void random_sem_state(std::size_t nn, unsigned seed, std::vector<double>& u, std::vector<double>& up) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> U(-1e-6, 1e-6);
    u.resize(3 * nn);
    up.resize(3 * nn);
    for (std::size_t i = 0; i < u.size(); ++i) {
        u[i] = U(rng);
        up[i] = u[i] + 1e-2 * U(rng);
    }
}

}  // namespace voxwave::testing
