#include "wave/sem_pml_correction_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "core/float_env.hpp"
#include "wave/pml_nodes_cpu.hpp"
#include "wave/sem_element_kernel.hpp"
#include "wave/sem_pml_element_kernel.hpp"

namespace voxwave {

template <class Real>
SemPmlCorrectionCpu<Real>::SemPmlCorrectionCpu(const WaveProblem& problem, const SemMesh& mesh,
                                               const SemNodeOrderCpu& order)
    : problem_(problem),
      mesh_(mesh),
      order_(order),
      ns_(order.size),
      tables_(pml_tables(problem.boundary.pml, problem.grid, problem.node_mass, problem.dt, problem.order)) {
    if (problem.method != Method::Sem || problem.node_count() != mesh.node_count() || mesh.order != problem.order ||
        order.node_count() != mesh.node_count())
        throw std::logic_error("SemPmlCorrectionCpu: the problem is not a sem problem on this mesh");
    sem_pml_check_poles(tables_);
    const std::size_t n1 = std::size_t(problem.order + 1);
    values_ = 9 * n1 * n1 * n1;
    lambda_.assign(256, 0.0);
    mu_.assign(256, 0.0);
    for (std::size_t i = 0; i < problem.materials.size() && i < 255; ++i) {
        lambda_[i + 1] = problem.materials[i].lame_lambda();
        mu_[i + 1] = problem.materials[i].shear_modulus();
    }
    psi_.assign(tables_.element_poles.size() * values_, 0.0);
    gradient_prev_.assign(tables_.element.size() * values_, 0.0);
    forces_.assign(tables_.element.size() * values_ / 3, 0.0);
    const std::size_t per_plane = std::size_t(problem.grid.n[0]) * std::size_t(problem.grid.n[1]);
    plane_first_.assign(std::size_t(problem.grid.n[2]) + 1, 0);
    for (int k = 0; k <= problem.grid.n[2]; ++k)
        plane_first_[std::size_t(k)] =
            std::size_t(std::lower_bound(tables_.element.begin(), tables_.element.end(), std::size_t(k) * per_plane) -
                        tables_.element.begin());
    node_psi_.assign(tables_.node_poles.size() * 3, 0.0);
    y_.assign(tables_.node.size() * 3, 0.0);
    y_prev_.assign(tables_.node.size() * 3, 0.0);
    node_dt2_inv_mass_ = pml_node_dt2_inv_mass(tables_, problem);  // reads the x-fastest numbering
    for (std::size_t& n : tables_.node) n = order_.index(n);
}

template <class Real>
void SemPmlCorrectionCpu<Real>::reset(const Real* u_prev, const Real* u) {
    std::fill(psi_.begin(), psi_.end(), 0.0);
    std::fill(gradient_prev_.begin(), gradient_prev_.end(), 0.0);
    std::fill(node_psi_.begin(), node_psi_.end(), 0.0);
    pml_reset_nodes<Real>(tables_, {u_prev, u_prev + ns_, u_prev + 2 * ns_}, {u, u + ns_, u + 2 * ns_}, y_, y_prev_);
}

template <class Real>
std::size_t SemPmlCorrectionCpu<Real>::memory_bytes() const {
    const std::size_t doubles = psi_.size() + gradient_prev_.size() + forces_.size() + node_psi_.size() + y_.size() +
                                y_prev_.size() + node_dt2_inv_mass_.size();
    return doubles * sizeof(double) + plane_first_.size() * sizeof(std::size_t) + tables_.bytes();
}

template <class Real>
template <int P>
void SemPmlCorrectionCpu<Real>::element_forces(const Real* u, const Real* u_prev, Real b) {
    constexpr int N = P + 1, N3 = N * N * N, V = 9 * N3;
    const PmlTables& t = tables_;
    const VoxelGrid& g = problem_.grid;
    const double* D = mesh_.gll.d;
    const double* W = mesh_.gll.w;
    const double half_ds = 0.5 * g.spacing;
    const bool damped = u_prev != nullptr && b != Real(0);
    const double bb = double(b), keep = 1.0 + bb;
    const std::size_t nx = std::size_t(g.n[0]), ny = std::size_t(g.n[1]);
    const SemNodeOrderCpu& order = order_;
    const std::size_t ns = ns_;
    const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(t.element.size());
#pragma omp parallel
    {
        // Memory variables of a layer the wave has not reached, or has left, decay through the
        // subnormals, where each operation would cost a hundred.
        const FlushDenormalsScope no_subnormals;
        std::vector<double> scratch(std::size_t(3 * N3 + V));
        double* w = scratch.data();  // the operand at the element's nodes, 3 N3
        double* T = w + 3 * N3;      // the weighted stress change, [(3 i + j) N3 + point]
#pragma omp for schedule(static)
        for (std::ptrdiff_t qq = 0; qq < count; ++qq) {
            const std::size_t q = std::size_t(qq), e = t.element[q];
            const std::size_t i = e % nx, j = (e / nx) % ny, ez = e / (nx * ny);
            for (int c = 0; c < N; ++c)
                for (int y = 0; y < N; ++y)
                    for (int x = 0; x < N; ++x) {
                        const std::size_t node = order.index(int(P * i) + x, int(P * j) + y, int(P * ez) + c);
                        const int l = x + N * (y + N * c);
                        for (int comp = 0; comp < 3; ++comp) {
                            const double v = double(u[std::size_t(comp) * ns + node]);
                            w[comp * N3 + l] =
                                damped ? keep * v - bb * double(u_prev[std::size_t(comp) * ns + node]) : v;
                        }
                    }
            // Point by point: the gradient, its chain advanced and the weighted stress change
            // (sem_pml_element_kernel.hpp, the CUDA pass's arithmetic).
            double* prev = gradient_prev_.data() + q * std::size_t(V);
            const std::size_t p0 = t.element_first_pole[q];
            const int poles = int(t.element_first_pole[q + 1] - p0);
            const double* c0 = t.filter_const.data() + q * kPmlFilters;
            const double* a = t.filter_newton.data() + p0 * kPmlFilters;
            double* phi = psi_.data() + p0 * std::size_t(V);
            const MaterialId id = g.ids[e];
            const double lambda = lambda_[id], mu = mu_[id];
            for (int c = 0; c < N; ++c)
                for (int y = 0; y < N; ++y)
                    for (int x = 0; x < N; ++x) {
                        const int l = x + N * (y + N * c);
                        double grad[kSemPmlPointValues], grad_old[kSemPmlPointValues];
                        sem_pml_gradient<P>(D, w, x, y, c, grad);
                        // The chain's input a step back is the previous step's gradient, which
                        // this one replaces.
                        for (int v = 0; v < kSemPmlPointValues; ++v) {
                            grad_old[v] = prev[l + v * N3];
                            prev[l + v * N3] = grad[v];
                        }
                        sem_pml_point_stress(grad, grad_old, phi + l, N3, V, poles, t.element_poles.decay.data() + p0,
                                             t.element_poles.w_old.data() + p0, t.element_poles.w_new.data() + p0, c0,
                                             a, lambda, mu, half_ds * W[x] * W[y] * W[c], T + l, N3);
                    }
            double* fe = forces_.data() + q * std::size_t(3 * N3);
            for (int comp = 0; comp < 3; ++comp)
                for (int c = 0; c < N; ++c)
                    for (int y = 0; y < N; ++y)
                        for (int x = 0; x < N; ++x)
                            fe[comp * N3 + x + N * (y + N * c)] =
                                sem_node_force<P, double, double>(D, T, comp, x, y, c);
        }
    }
}

template <class Real>
void SemPmlCorrectionCpu<Real>::add_element_forces(const Real* u, const Real* u_prev, Real b, Real* f) {
    switch (problem_.order) {
        case 2:
            element_forces<2>(u, u_prev, b);
            break;
        case 3:
            element_forces<3>(u, u_prev, b);
            break;
        case 4:
            element_forces<4>(u, u_prev, b);
            break;
        default:
            throw std::logic_error("SemPmlCorrectionCpu: order outside the run rules");
    }
    const PmlTables& t = tables_;
    const VoxelGrid& g = problem_.grid;
    const int P = problem_.order, N = P + 1, N3 = N * N * N;
    const std::size_t nx = std::size_t(g.n[0]), ny = std::size_t(g.n[1]);
    const std::size_t ns = ns_;
    // Scattered by element planes of one parity at a time: planes k and k + 2 share no node.
#pragma omp parallel
    for (int parity = 0; parity < 2; ++parity) {
#pragma omp for schedule(static)
        for (int k = parity; k < g.n[2]; k += 2)
            for (std::size_t q = plane_first_[std::size_t(k)]; q < plane_first_[std::size_t(k) + 1]; ++q) {
                const std::size_t e = t.element[q], i = e % nx, j = (e / nx) % ny;
                const double* fe = forces_.data() + q * std::size_t(3 * N3);
                for (int c = 0; c < N; ++c)
                    for (int y = 0; y < N; ++y)
                        for (int x = 0; x < N; ++x) {
                            const std::size_t node = order_.index(P * int(i) + x, P * int(j) + y, P * k + c);
                            const int l = x + N * (y + N * c);
                            for (int comp = 0; comp < 3; ++comp)
                                f[std::size_t(comp) * ns + node] += static_cast<Real>(fe[comp * N3 + l]);
                        }
            }
    }
}

template <class Real>
void SemPmlCorrectionCpu<Real>::update_nodes(const Real* u, const Real* f, Real* u_next) {
    pml_update_nodes<Real>(tables_, 0.5 * problem_.dt * problem_.rayleigh.alpha, node_dt2_inv_mass_,
                           {u, u + ns_, u + 2 * ns_}, {f, f + ns_, f + 2 * ns_},
                           {u_next, u_next + ns_, u_next + 2 * ns_}, y_, y_prev_, node_psi_);
}

template class SemPmlCorrectionCpu<double>;
template class SemPmlCorrectionCpu<float>;

}  // namespace voxwave
