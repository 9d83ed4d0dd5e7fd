#include "wave/plane_strain_stepper_cpu.hpp"

#include <omp.h>

#include <stdexcept>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/central_difference.hpp"
#include "wave/lame_tables.hpp"
#include "wave/plane_strain_element_kernel.hpp"
#include "wave/update_coefficients.hpp"

namespace voxwave {

template <class Real>
PlaneStrainStepperCpu<Real>::PlaneStrainStepperCpu(const WaveProblem& problem)
    : problem_(problem),
      nx_(problem.grid.n[0]),
      ny_(problem.grid.n[1]),
      nn_(problem.node_count()),
      beta_over_dt_(static_cast<Real>(problem.rayleigh.beta / problem.dt)) {
    assert_run_rules(problem);
    if (problem.dimensions != 2 || problem.grid.n[2] != 1)
        throw std::logic_error("PlaneStrainStepperCpu: the problem is not a plane-strain (2D) one");
    if (problem.method == Method::Tcovfem)
        throw std::logic_error("PlaneStrainStepperCpu: tcovfem has no 2D engine (the scene skipped validate_scene)");
    const PlaneModeScales s = plane_strain_mode_scales(problem.element_method());
    sc0_ = static_cast<Real>(s.constant);
    sc1_ = static_cast<Real>(s.linear);
    LameTables<Real> lame = lame_tables<Real>(problem.materials);
    lambda_ = std::move(lame.lambda);
    mu_ = std::move(lame.mu);
    UpdateCoefficients<Real> c = update_coefficients<Real>(problem);
    dt2_inv_mass_ = std::move(c.dt2_inv_mass);
    inv_one_plus_h_ = std::move(c.inv_one_plus_h);
    one_minus_h_ = std::move(c.one_minus_h);
    u_.assign(2 * nn_, Real(0));
    up_.assign(2 * nn_, Real(0));
    f_.assign(2 * nn_, Real(0));
}

template <class Real>
void PlaneStrainStepperCpu<Real>::set_state(const std::vector<double>& u_prev, const std::vector<double>& u) {
    const auto held = [this](std::size_t n) { return dt2_inv_mass_[n] == Real(0); };
    std::vector<Real> next = stepper_state<Real>(u, 2, nn_, held), prev = stepper_state<Real>(u_prev, 2, nn_, held);
    u_ = std::move(next);
    up_ = std::move(prev);
}

template <class Real>
void PlaneStrainStepperCpu<Real>::apply_stiffness(const Real* u, const Real* u_prev, Real b, Real* f) const {
    const std::size_t rs = std::size_t(nx_) + 1, nn = nn_, nx = std::size_t(nx_);
    const Real keep = Real(1) + b;
    const bool damped = b != Real(0);
    const MaterialId* ids = problem_.grid.ids.data();
    const Real* lambda = lambda_.data();
    const Real* mu = mu_.data();
    const Real sc0 = sc0_, sc1 = sc1_;
    const std::size_t per_thread = 8 * nx;
    const std::size_t threads = static_cast<std::size_t>(omp_get_max_threads());
    if (scratch_.size() < threads * per_thread) scratch_.assign(threads * per_thread, Real(0));
    const std::ptrdiff_t n2 = static_cast<std::ptrdiff_t>(2 * nn);
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
#pragma omp for simd schedule(static)
        for (std::ptrdiff_t k = 0; k < n2; ++k) f[k] = Real(0);
        // A row's element forces go to 8 row arrays (one per local dof), each then added to its
        // node row in its own loop: every loop is free of conflicts, so all of them vectorise.
        Real* fe = scratch_.data() + std::size_t(omp_get_thread_num()) * per_thread;
        // Element row j adds into node rows j and j + 1: rows of one parity never share a node row.
        for (int parity = 0; parity < 2; ++parity) {
#pragma omp for schedule(static)
            for (int j = parity; j < ny_; j += 2) {
                const std::size_t n0 = std::size_t(j) * rs;
                const MaterialId* row_ids = ids + nx * std::size_t(j);
                const Real* __restrict ux = u + n0;
                const Real* __restrict uy = u + nn + n0;
                const Real* __restrict px = damped ? u_prev + n0 : ux;
                const Real* __restrict py = damped ? u_prev + nn + n0 : uy;
#pragma omp simd
                for (std::size_t i = 0; i < nx; ++i) {
                    // Corners (0,0), (1,0), (1,1), (0,1) of square i: nodes i, i + 1, rs + i + 1, rs + i.
                    const std::size_t at[4] = {i, i + 1, rs + i + 1, rs + i};
                    Real ue[8], out[8];
                    for (int l = 0; l < 4; ++l) {
                        ue[2 * l] = damped ? damped_operand(ux[at[l]], px[at[l]], keep, b) : ux[at[l]];
                        ue[2 * l + 1] = damped ? damped_operand(uy[at[l]], py[at[l]], keep, b) : uy[at[l]];
                    }
                    const MaterialId id = row_ids[i];
                    plane_strain_element_force(ue, lambda[id], mu[id], sc0, sc1, out);
                    for (int d = 0; d < 8; ++d) fe[std::size_t(d) * nx + i] = out[d];
                }
                const std::size_t offset[4] = {0, 1, rs + 1, rs};
                for (int l = 0; l < 4; ++l)
                    for (int c = 0; c < 2; ++c) {
                        Real* __restrict dst = f + std::size_t(c) * nn + n0 + offset[l];
                        const Real* __restrict src = fe + std::size_t(2 * l + c) * nx;
#pragma omp simd
                        for (std::size_t i = 0; i < nx; ++i) dst[i] += src[i];
                    }
            }
        }
    }
}

template <class Real>
std::vector<double> PlaneStrainStepperCpu<Real>::stiffness_times(const std::vector<double>& v) const {
    if (v.size() != 2 * nn_) throw RuntimeError("stiffness_times: wrong vector size");
    std::vector<Real> in(v.begin(), v.end()), out(2 * nn_);
    apply_stiffness(in.data(), nullptr, Real(0), out.data());
    return {out.begin(), out.end()};
}

template <class Real>
void PlaneStrainStepperCpu<Real>::step(std::int64_t n) {
    apply_stiffness(u_.data(), up_.data(), beta_over_dt_, f_.data());
    const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(nn_);
    const Real* __restrict a = dt2_inv_mass_.data();
    const Real* __restrict ihv = inv_one_plus_h_.data();
    const Real* __restrict mhv = one_minus_h_.data();
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        for (int c = 0; c < 2; ++c) {
            const Real* __restrict u = u_.data() + c * nn_;
            Real* __restrict up = up_.data() + c * nn_;  // becomes u+ in place
            const Real* __restrict f = f_.data() + c * nn_;
#pragma omp for simd schedule(static) nowait
            for (std::ptrdiff_t i = 0; i < nn; ++i)
                up[i] = central_difference_node(u[i], up[i], a[i] * f[i], mhv[i], ihv[i]);
        }
    }
    add_point_sources(problem_.sources, double(n) * problem_.dt, 2, nn_, dt2_inv_mass_.data(), inv_one_plus_h_.data(),
                      false, up_.data());
    u_.swap(up_);
}

template class PlaneStrainStepperCpu<double>;
template class PlaneStrainStepperCpu<float>;

}  // namespace voxwave
