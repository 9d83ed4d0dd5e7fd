#include "wave/pml_correction_cpu.hpp"

#include <omp.h>

#include <algorithm>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/pml_element_kernel.hpp"
#include "wave/pml_nodes_cpu.hpp"

namespace voxwave {

template <class Real>
PmlCorrectionCpu<Real>::PmlCorrectionCpu(const WaveProblem& problem)
    : problem_(problem),
      tables_(pml_tables(problem.boundary.pml, problem.grid, problem.node_mass, problem.dt)),
      classes_(pml_element_classes(tables_)) {
    const ModeScales m = mode_scales(problem.element_method(), problem.grid.spacing);
    scales_ = {m.constant, m.linear, m.bilinear};
    lambda_.assign(256, 0.0);
    mu_.assign(256, 0.0);
    for (std::size_t i = 0; i < problem.materials.size() && i < 255; ++i) {
        lambda_[i + 1] = problem.materials[i].lame_lambda();
        mu_[i + 1] = problem.materials[i].shear_modulus();
    }
    psi_.assign(tables_.element_poles.size() * kPmlMomentValues, 0.0);
    if (problem.rayleigh.beta != 0) moments_prev_.assign(tables_.element.size() * kPmlMomentValues, 0.0);
    node_psi_.assign(tables_.node_poles.size() * 3, 0.0);
    y_.assign(tables_.node.size() * 3, 0.0);
    y_prev_.assign(tables_.node.size() * 3, 0.0);
    node_dt2_inv_mass_ = pml_node_dt2_inv_mass(tables_, problem);
    forces_.assign(tables_.element.size() * 24, 0.0);
    const std::size_t per_plane = std::size_t(problem.grid.n[0]) * std::size_t(problem.grid.n[1]);
    plane_first_.assign(std::size_t(problem.grid.n[2]) + 1, 0);
    for (int k = 0; k <= problem.grid.n[2]; ++k)
        plane_first_[std::size_t(k)] =
            std::size_t(std::lower_bound(tables_.element.begin(), tables_.element.end(), std::size_t(k) * per_plane) -
                        tables_.element.begin());
}

template <class Real>
void PmlCorrectionCpu<Real>::reset(const std::array<const Real*, 3>& u_prev, const std::array<const Real*, 3>& u) {
    std::fill(psi_.begin(), psi_.end(), 0.0);
    std::fill(moments_prev_.begin(), moments_prev_.end(), 0.0);
    fresh_ = true;
    std::fill(node_psi_.begin(), node_psi_.end(), 0.0);
    pml_reset_nodes(tables_, u_prev, u, y_, y_prev_);
}

template <class Real>
std::size_t PmlCorrectionCpu<Real>::memory_bytes() const {
    const std::size_t doubles = psi_.size() + moments_prev_.size() + node_psi_.size() + y_.size() + y_prev_.size() +
                                node_dt2_inv_mass_.size() + forces_.size();
    return doubles * sizeof(double) + plane_first_.size() * sizeof(std::size_t) + tables_.bytes();
}

template <class Real>
void PmlCorrectionCpu<Real>::add_element_forces(const std::array<const Real*, 3>& u,
                                                const std::array<const Real*, 3>& u_prev, Real b,
                                                const std::array<Real*, 3>& f) {
    const PmlTables& t = tables_;
    const VoxelGrid& g = problem_.grid;
    const bool damped = u_prev[0] != nullptr && b != Real(0);
    const double bb = double(b), keep = 1.0 + bb;
    // Without a stored copy the previous moments are those of u- (w = u at every step).
    const bool stored = !moments_prev_.empty(), fresh = fresh_;
    if (!stored && !fresh && u_prev[0] == nullptr) throw RuntimeError("PML layer pass: u- is needed");
    const std::size_t nx = std::size_t(g.n[0]), ny = std::size_t(g.n[1]);
    const std::size_t nx1 = nx + 1, plane1 = nx1 * (ny + 1);
    auto corner_nodes = [&](std::size_t e, std::size_t nodes[8]) {
        const std::size_t i = e % nx, j = (e / nx) % ny, k = e / (nx * ny);
        const std::size_t n0 = i + nx1 * j + plane1 * k;
        for (int c = 0; c < 2; ++c)
            for (int bb2 = 0; bb2 < 2; ++bb2)
                for (int a = 0; a < 2; ++a)
                    nodes[voxel_local_node(a, bb2, c)] =
                        n0 + std::size_t(a) + nx1 * std::size_t(bb2) + plane1 * std::size_t(c);
    };
    const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(t.element.size());
#pragma omp parallel
    {
        // The memory variables of a layer the wave has not reached, or has left, decay through
        // the subnormals, where each operation would cost a hundred.
        const FlushDenormalsScope no_subnormals;
#pragma omp for schedule(static)
        for (std::ptrdiff_t q = 0; q < count; ++q) {
            const std::size_t e = t.element[std::size_t(q)];
            std::size_t nodes[8];
            corner_nodes(e, nodes);
            double w[24];
            for (int l = 0; l < 8; ++l)
                for (int c = 0; c < 3; ++c) {
                    const double uc = double(u[c][nodes[l]]);
                    w[3 * l + c] = damped ? keep * uc - bb * double(u_prev[c][nodes[l]]) : uc;
                }
            double S[kPmlMomentValues];
            voxel_corner_moments(w, S);
            const std::size_t cls = classes_.of_element[std::size_t(q)], cp0 = classes_.first_pole[cls];
            double dS[kPmlFilters][kPmlMomentValues];
            for (int fl = 0; fl < kPmlFilters; ++fl) {
                const double c0 = classes_.filter_const[cls * kPmlFilters + std::size_t(fl)];
                if (c0 == 0) {  // kappa = 1: only the poles change the filter
                    for (int v = 0; v < kPmlMomentValues; ++v) dS[fl][v] = 0;
                } else {
                    for (int v = 0; v < kPmlMomentValues; ++v) dS[fl][v] = c0 * S[v];
                }
            }
            // The chain's input phi_0 = S: its old value (the previous step's moments), and S,
            // which each stage then replaces with its own.
            double in_old[kPmlMomentValues] = {};
            if (stored) {
                double* prev = moments_prev_.data() + std::size_t(q) * kPmlMomentValues;
                std::copy(prev, prev + kPmlMomentValues, in_old);
                std::copy(S, S + kPmlMomentValues, prev);
            } else if (!fresh) {
                for (int l = 0; l < 8; ++l)
                    for (int c = 0; c < 3; ++c) w[3 * l + c] = double(u_prev[c][nodes[l]]);
                voxel_corner_moments(w, in_old);
            }
            for (std::size_t p = t.element_first_pole[std::size_t(q)]; p < t.element_first_pole[std::size_t(q) + 1];
                 ++p) {
                double* phi = psi_.data() + p * kPmlMomentValues;
                const std::size_t cp = cp0 + (p - t.element_first_pole[std::size_t(q)]);
                pml_advance(phi, in_old, S, kPmlMomentValues, classes_.poles.decay[cp], classes_.poles.w_old[cp],
                            classes_.poles.w_new[cp]);
                for (int fl = 0; fl < kPmlFilters; ++fl) {
                    const double a = classes_.filter_newton[cp * kPmlFilters + std::size_t(fl)];
                    if (a == 0) continue;
                    for (int v = 0; v < kPmlMomentValues; ++v) dS[fl][v] += a * phi[v];
                }
            }
            const MaterialId id = g.ids[e];
            pml_element_force(dS, lambda_[id], mu_[id], scales_.data(), forces_.data() + std::size_t(q) * 24);
        }
        // Scatter by element planes of one parity at a time: planes k and k + 2 share no node.
        for (int parity = 0; parity < 2; ++parity) {
#pragma omp for schedule(static)
            for (int k = parity; k < g.n[2]; k += 2)
                for (std::size_t q = plane_first_[std::size_t(k)]; q < plane_first_[std::size_t(k) + 1]; ++q) {
                    std::size_t nodes[8];
                    corner_nodes(t.element[q], nodes);
                    const double* fe = forces_.data() + q * 24;
                    for (int l = 0; l < 8; ++l)
                        for (int c = 0; c < 3; ++c) f[c][nodes[l]] += static_cast<Real>(fe[3 * l + c]);
                }
        }
    }
    fresh_ = false;
}

template <class Real>
void PmlCorrectionCpu<Real>::update_nodes(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& f,
                                          const std::array<Real*, 3>& u_next) {
    pml_update_nodes(tables_, 0.5 * problem_.dt * problem_.rayleigh.alpha, node_dt2_inv_mass_, u, f, u_next, y_,
                     y_prev_, node_psi_);
}

template class PmlCorrectionCpu<double>;
template class PmlCorrectionCpu<float>;

}  // namespace voxwave
