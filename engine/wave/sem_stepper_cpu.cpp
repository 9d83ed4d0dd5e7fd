#include "wave/sem_stepper_cpu.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_plane_sweep_cpu.hpp"
#include "wave/update_coefficients.hpp"

namespace voxwave {

template <class Real>
SemTimeStepperCpu<Real>::SemTimeStepperCpu(const WaveProblem& problem)
    : problem_(problem),
      mesh_(sem_mesh(problem.grid, problem.order)),
      nn_(mesh_.node_count()),
      beta_over_dt_(static_cast<Real>(problem.rayleigh.beta / problem.dt)) {
    assert_run_rules(problem);
    if (problem.method != Method::Sem || problem.node_count() != nn_)
        throw std::logic_error("SemTimeStepperCpu: the problem is not a sem problem of its own order");
    lambda_.assign(problem.materials.size() + 1, Real(0));
    mu_.assign(problem.materials.size() + 1, Real(0));
    for (std::size_t m = 0; m < problem.materials.size(); ++m) {
        lambda_[m + 1] = static_cast<Real>(problem.materials[m].lame_lambda());
        mu_[m + 1] = static_cast<Real>(problem.materials[m].shear_modulus());
    }
    const int n1 = problem.order + 1;
    for (int i = 0; i < n1 * n1; ++i) d_[i] = static_cast<Real>(mesh_.gll.d[i]);
    for (int i = 0; i < n1; ++i) w_[i] = static_cast<Real>(mesh_.gll.w[i]);
    u_.assign(3 * nn_, Real(0));
    up_.assign(3 * nn_, Real(0));
    UpdateCoefficients<Real> c = update_coefficients<Real>(problem);
    dt2_inv_mass_ = std::move(c.dt2_inv_mass);
    inv_one_plus_h_ = std::move(c.inv_one_plus_h);
    one_minus_h_ = std::move(c.one_minus_h);
    if (problem.boundary.has_pml()) pml_ = std::make_unique<SemPmlCorrectionCpu<Real>>(problem, mesh_);
}

template <class Real>
SemSweepInput<Real> SemTimeStepperCpu<Real>::sweep_input() const {
    SemSweepInput<Real> in;
    in.grid = &problem_.grid;
    in.nodes = mesh_.n;
    in.lambda = lambda_.data();
    in.mu = mu_.data();
    in.d = d_;
    in.w = w_;
    return in;
}

template <class Real>
template <int P>
void SemTimeStepperCpu<Real>::apply_order(const Real* u, const Real* u_prev, Real b, Real* f) const {
    const std::size_t plane = std::size_t(mesh_.n[0]) * std::size_t(mesh_.n[1]), nn = nn_;
    sem_plane_sweep<P, Real>(sweep_input(), u, u_prev, b, [&](std::size_t z, const Real* fz) {
        for (int c = 0; c < 3; ++c) std::copy(fz + c * plane, fz + (c + 1) * plane, f + c * nn + z * plane);
    });
}

template <class Real>
template <int P>
void SemTimeStepperCpu<Real>::step_order() {
    const std::size_t plane = std::size_t(mesh_.n[0]) * std::size_t(mesh_.n[1]), nn = nn_;
    const Real* a = dt2_inv_mass_.data();
    const Real* ih = inv_one_plus_h_.data();
    const Real* mh = one_minus_h_.data();
    const Real* u = u_.data();
    Real* up = up_.data();  // becomes u+ in place, each node plane once its force is complete
    sem_plane_sweep<P, Real>(
        sweep_input(), u, beta_over_dt_ != Real(0) ? up : nullptr, beta_over_dt_, [&](std::size_t z, const Real* fz) {
            const std::size_t o = z * plane;
            for (int c = 0; c < 3; ++c) {
                const Real* __restrict uc = u + c * nn + o;
                Real* __restrict pc = up + c * nn + o;
                const Real* __restrict fc = fz + c * plane;
#pragma omp simd
                for (std::size_t i = 0; i < plane; ++i)
                    pc[i] = central_difference_node(uc[i], pc[i], a[o + i] * fc[i], mh[o + i], ih[o + i]);
            }
        });
}

template <class Real>
void SemTimeStepperCpu<Real>::apply(const Real* u, const Real* u_prev, Real b, Real* f) const {
    switch (problem_.order) {
        case 2:
            return apply_order<2>(u, u_prev, b, f);
        case 3:
            return apply_order<3>(u, u_prev, b, f);
        case 4:
            return apply_order<4>(u, u_prev, b, f);
        default:
            throw std::logic_error("SemTimeStepperCpu: order outside the run rules");
    }
}

template <class Real>
void SemTimeStepperCpu<Real>::set_state(const std::vector<double>& u_prev, const std::vector<double>& u) {
    const auto held = [this](std::size_t n) { return dt2_inv_mass_[n] == Real(0); };
    std::vector<Real> next = stepper_state<Real>(u, 3, nn_, held), prev = stepper_state<Real>(u_prev, 3, nn_, held);
    u_ = std::move(next);
    up_ = std::move(prev);
    if (pml_) pml_->reset(up_.data(), u_.data());
}

template <class Real>
std::vector<double> SemTimeStepperCpu<Real>::displacement() const {
    return std::vector<double>(u_.begin(), u_.end());
}
template <class Real>
std::vector<double> SemTimeStepperCpu<Real>::previous_displacement() const {
    return std::vector<double>(up_.begin(), up_.end());
}

template <class Real>
std::vector<double> SemTimeStepperCpu<Real>::stiffness_times(const std::vector<double>& v) const {
    if (v.size() != 3 * nn_) throw RuntimeError("stiffness_times: wrong vector size");
    std::vector<Real> in(v.begin(), v.end()), out(3 * nn_);
    apply(in.data(), nullptr, Real(0), out.data());
    return std::vector<double>(out.begin(), out.end());
}

template <class Real>
std::size_t SemTimeStepperCpu<Real>::memory_bytes() const {
    return (u_.size() + up_.size() + f_.size() + dt2_inv_mass_.size() + inv_one_plus_h_.size() + one_minus_h_.size()) *
               sizeof(Real) +
           (pml_ ? pml_->memory_bytes() : 0);
}

template <class Real>
void SemTimeStepperCpu<Real>::step_with_pml() {
    if (f_.empty()) f_.assign(3 * nn_, Real(0));
    apply(u_.data(), beta_over_dt_ != Real(0) ? up_.data() : nullptr, beta_over_dt_, f_.data());
    pml_->add_element_forces(u_.data(), up_.data(), beta_over_dt_, f_.data());
    const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(nn_);
    const Real* __restrict a = dt2_inv_mass_.data();
    const Real* __restrict ih = inv_one_plus_h_.data();
    const Real* __restrict mh = one_minus_h_.data();
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        for (std::size_t c = 0; c < 3; ++c) {
            const Real* __restrict u = u_.data() + c * nn_;
            const Real* __restrict f = f_.data() + c * nn_;
            Real* __restrict up = up_.data() + c * nn_;  // becomes u+ in place
#pragma omp for simd schedule(static) nowait
            for (std::ptrdiff_t i = 0; i < nn; ++i)
                up[i] = central_difference_node(u[i], up[i], a[i] * f[i], mh[i], ih[i]);
        }
    }
    pml_->update_nodes(u_.data(), f_.data(), up_.data());
}

template <class Real>
void SemTimeStepperCpu<Real>::step(std::int64_t n) {
    if (pml_) {
        step_with_pml();
    } else {
        switch (problem_.order) {
            case 2:
                step_order<2>();
                break;
            case 3:
                step_order<3>();
                break;
            case 4:
                step_order<4>();
                break;
            default:
                throw std::logic_error("SemTimeStepperCpu: order outside the run rules");
        }
    }
    add_point_sources(problem_.sources, double(n) * problem_.dt, 3, nn_, dt2_inv_mass_.data(), inv_one_plus_h_.data(),
                      false, up_.data());
    u_.swap(up_);
    if (exchange_) exchange_->exchange_host({u_.data(), u_.data() + nn_, u_.data() + 2 * nn_});
}

template class SemTimeStepperCpu<double>;
template class SemTimeStepperCpu<float>;

}  // namespace voxwave
