// The PML's node pass on the CPU, one node at a time, for the spectral elements' layer
// (sem_pml_correction_cpu.hpp): the central difference of the stretched displacement y = S u of
// every layer node with the whole force, and u+ from y+ (pml_layer.hpp, PmlTables;
// sem_pml_node_step, which the CUDA pass runs too). The voxel layer's pass (pml_correction_cpu.cpp) runs the same
// arithmetic on 8 nodes a vector with its state in lanes. FP64 whatever the stepper's precision.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "boundary/pml_layer.hpp"
#include "core/float_env.hpp"
#include "wave/sem_pml_element_kernel.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// dt^2 / m of each layer node of t (problem's nodes), 0 where the node is fixed.
inline std::vector<double> pml_node_dt2_inv_mass(const PmlTables& t, const WaveProblem& problem) {
    const std::vector<std::size_t>& fixed = problem.boundary.fixed_nodes;
    std::vector<double> out;
    out.reserve(t.node.size());
    for (std::size_t n : t.node)
        out.push_back(
            std::binary_search(fixed.begin(), fixed.end(), n) ? 0.0 : problem.dt * problem.dt / problem.node_mass[n]);
    return out;
}

// A state (u-, u) with no history at the layer's nodes: y = c0 u, y- = c0 u- (3 per node).
template <class Real>
void pml_reset_nodes(const PmlTables& t, const std::array<const Real*, 3>& u_prev, const std::array<const Real*, 3>& u,
                     std::vector<double>& y, std::vector<double>& y_prev) {
    for (std::size_t q = 0; q < t.node.size(); ++q)
        for (std::size_t c = 0; c < 3; ++c) {
            y[3 * q + c] = t.node_scale[q] * double(u[c][t.node[q]]);
            y_prev[3 * q + c] = t.node_scale[q] * double(u_prev[c][t.node[q]]);
        }
}

// u_next[c][n] = u+ at every layer node that is not fixed (dt2_inv_mass 0), from u and the whole
// force f; y, y_prev (3 per node) and psi (3 per node pole) advance a step. h: Rayleigh's mass
// term, dt alpha / 2, applied to y.
template <class Real>
void pml_update_nodes(const PmlTables& t, double h, const std::vector<double>& dt2_inv_mass,
                      const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& f,
                      const std::array<Real*, 3>& u_next, std::vector<double>& y, std::vector<double>& y_prev,
                      std::vector<double>& psi) {
    const double one_minus_h = 1.0 - h, inv_one_plus_h = 1.0 / (1.0 + h);
    const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(t.node.size());
#pragma omp parallel
    {
        // Memory variables of a layer the wave has not reached, or has left, decay through the
        // subnormals, where each operation would cost a hundred.
        const FlushDenormalsScope no_subnormals;
#pragma omp for schedule(static)
        for (std::ptrdiff_t qq = 0; qq < count; ++qq) {
            const std::size_t q = std::size_t(qq), n = t.node[q];
            const double a = dt2_inv_mass[q];
            if (a == 0) continue;  // fixed: the update already held it
            const std::size_t p0 = t.node_first_pole[q];
            const int poles = int(t.node_first_pole[q + 1] - p0);
            for (std::size_t c = 0; c < 3; ++c) {
                const std::size_t v = 3 * q + c;
                u_next[c][n] = static_cast<Real>(sem_pml_node_step(
                    a * double(f[c][n]), double(u[c][n]), one_minus_h, inv_one_plus_h, y[v], y_prev[v], t.node_scale[q],
                    t.node_newton.data() + p0, t.node_poles.decay.data() + p0, t.node_poles.w_old.data() + p0,
                    t.node_poles.w_new.data() + p0, poles, psi.data() + 3 * p0 + c, 3));
            }
        }
    }
}

}  // namespace voxwave
