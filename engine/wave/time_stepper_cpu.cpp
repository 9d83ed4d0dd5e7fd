#include "wave/time_stepper_cpu.hpp"

#include <omp.h>

#include <stdexcept>
#include <type_traits>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/central_difference.hpp"
#include "wave/update_coefficients.hpp"

namespace voxwave {

template <class Real>
typename CpuTimeStepper<Real>::Stiffness CpuTimeStepper<Real>::make_stiffness(const WaveProblem& problem) {
    assert_run_rules(problem);
    if (problem.method != Method::Tcovfem)
        return Stiffness(std::in_place_index<0>, problem.grid, problem.materials, problem.element_method());
    if constexpr (!std::is_same_v<Real, double>)
        throw std::logic_error("tcovfem has no FP32 engine: CpuTimeStepper<float> cannot run it");
    return Stiffness(std::in_place_index<1>, problem.grid, problem.materials, problem.stages);
}

template <class Real>
void CpuTimeStepper<Real>::apply_stiffness(const std::array<const Real*, 3>& u,
                                           const std::array<const Real*, 3>& u_prev, Real b,
                                           const std::array<Real*, 3>& f) const {
    if (const auto* voxel = std::get_if<0>(&stiffness_)) {
        voxel->apply(u, u_prev, b, f);
    } else if constexpr (std::is_same_v<Real, double>) {
        std::get<1>(stiffness_).apply(u, u_prev, b, f);
    }
}

template <class Real>
CpuTimeStepper<Real>::CpuTimeStepper(const WaveProblem& problem)
    : problem_(problem),
      nn_(problem.grid.node_count()),
      stiffness_(make_stiffness(problem)),
      u_(3 * nn_, Real(0)),
      up_(3 * nn_, Real(0)),
      beta_over_dt_(static_cast<Real>(problem.rayleigh.beta / problem.dt)),
      uniform_h_(!problem.boundary.has_node_damping()) {
    if (problem.boundary.has_pml()) pml_ = std::make_unique<PmlCorrectionCpu<Real>>(problem);
    UpdateCoefficients<Real> c = update_coefficients<Real>(problem);
    dt2_inv_mass_ = std::move(c.dt2_inv_mass);
    inv_one_plus_h_ = std::move(c.inv_one_plus_h);
    one_minus_h_ = std::move(c.one_minus_h);
    if (uniform_h_) {  // no sponge: one h for every node, keep only entry 0
        inv_one_plus_h_.resize(1);
        one_minus_h_.resize(1);
        inv_one_plus_h_.shrink_to_fit();
        one_minus_h_.shrink_to_fit();
    }
}

template <class Real>
std::array<const Real*, 3> CpuTimeStepper<Real>::cptrs(const std::vector<Real>& v) const {
    return {v.data(), v.data() + nn_, v.data() + 2 * nn_};
}
template <class Real>
std::array<Real*, 3> CpuTimeStepper<Real>::ptrs(std::vector<Real>& v) const {
    return {v.data(), v.data() + nn_, v.data() + 2 * nn_};
}

template <class Real>
void CpuTimeStepper<Real>::set_state(const std::vector<double>& u_prev, const std::vector<double>& u) {
    const auto held = [this](std::size_t n) { return dt2_inv_mass_[n] == Real(0); };
    std::vector<Real> next = stepper_state<Real>(u, 3, nn_, held), prev = stepper_state<Real>(u_prev, 3, nn_, held);
    u_ = std::move(next);
    up_ = std::move(prev);
    if (pml_) pml_->reset(cptrs(up_), cptrs(u_));
}

template <class Real>
std::vector<double> CpuTimeStepper<Real>::displacement() const {
    return std::vector<double>(u_.begin(), u_.end());
}
template <class Real>
std::vector<double> CpuTimeStepper<Real>::previous_displacement() const {
    return std::vector<double>(up_.begin(), up_.end());
}

template <class Real>
std::vector<double> CpuTimeStepper<Real>::stiffness_times(const std::vector<double>& v) const {
    std::vector<Real> in(v.begin(), v.end()), out(3 * nn_);
    apply_stiffness(cptrs(in), {nullptr, nullptr, nullptr}, Real(0), ptrs(out));
    return std::vector<double>(out.begin(), out.end());
}

template <class Real>
const VoxelStiffnessCpu<Real>* CpuTimeStepper<Real>::fused() const {
    return two_pass_ || pml_ ? nullptr : std::get_if<0>(&stiffness_);
}

template <class Real>
double CpuTimeStepper<Real>::bytes_per_step() const {
    const double s = sizeof(Real), nn = double(nn_), ne = double(problem_.grid.element_count());
    const double h = uniform_h_ ? 0 : 2 * s;  // per-node h factors with a sponge
    if (const auto* voxel = fused()) return voxel->fused_step_bytes(!uniform_h_);
    // Two passes: the product reads u (+ u- when damped) and writes f; the update reads u, u-,
    // f, dt^2/m (+ h) and writes u+.
    const bool damped = beta_over_dt_ != Real(0);
    return (3 * s + (damped ? 3 * s : 0) + 3 * s) * nn + ne + (3 * s * 3 + s + h + 3 * s) * nn;
}

template <class Real>
std::size_t CpuTimeStepper<Real>::memory_bytes() const {
    std::size_t b =
        (u_.size() + up_.size() + f_.size() + dt2_inv_mass_.size() + inv_one_plus_h_.size() + one_minus_h_.size()) *
        sizeof(Real);
    if (const auto* voxel = std::get_if<0>(&stiffness_)) b += voxel->buffer_bytes();
    if (pml_) b += pml_->memory_bytes();
    return b;
}

template <class Real>
void CpuTimeStepper<Real>::step(std::int64_t n) {
    if (const auto* voxel = fused()) {
        voxel->step_fused(cptrs(u_), ptrs(up_), beta_over_dt_,
                          {dt2_inv_mass_.data(), inv_one_plus_h_.data(), one_minus_h_.data(), uniform_h_});
        add_sources(n);
        u_.swap(up_);
        if (exchange_) exchange_->exchange_host(ptrs(u_));
        return;
    }
    if (f_.empty()) f_.assign(3 * nn_, Real(0));  // the force vector of the two-pass path
    apply_stiffness(cptrs(u_), cptrs(up_), beta_over_dt_, ptrs(f_));
    if (pml_) pml_->add_element_forces(cptrs(u_), cptrs(up_), beta_over_dt_, ptrs(f_));
    const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(nn_);
    const Real* __restrict a = dt2_inv_mass_.data();
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        for (int c = 0; c < 3; ++c) {
            const Real* __restrict u = u_.data() + c * nn_;
            Real* __restrict up = up_.data() + c * nn_;  // becomes u+ in place
            const Real* __restrict f = f_.data() + c * nn_;
            if (uniform_h_) {
                // No sponge: h is one number, so the update streams only u, u-, f and dt^2/m.
                const Real mh = one_minus_h_[0], ih = inv_one_plus_h_[0];
#pragma omp for simd schedule(static) nowait
                for (std::ptrdiff_t i = 0; i < nn; ++i)
                    up[i] = central_difference_node(u[i], up[i], a[i] * f[i], mh, ih);
            } else {
                const Real* __restrict ihv = inv_one_plus_h_.data();
                const Real* __restrict mhv = one_minus_h_.data();
#pragma omp for simd schedule(static) nowait
                for (std::ptrdiff_t i = 0; i < nn; ++i)
                    up[i] = central_difference_node(u[i], up[i], a[i] * f[i], mhv[i], ihv[i]);
            }
        }
    }
    if (pml_) pml_->update_nodes(cptrs(u_), cptrs(f_), ptrs(up_));
    add_sources(n);
    u_.swap(up_);
    if (exchange_) exchange_->exchange_host(ptrs(u_));
}

// u+ += dt^2/m F(t_n) / (1 + h) at the source nodes.
template <class Real>
void CpuTimeStepper<Real>::add_sources(std::int64_t n) {
    add_point_sources(problem_.sources, double(n) * problem_.dt, 3, nn_, dt2_inv_mass_.data(), inv_one_plus_h_.data(),
                      uniform_h_, up_.data());
}

template class CpuTimeStepper<double>;
template class CpuTimeStepper<float>;

}  // namespace voxwave
