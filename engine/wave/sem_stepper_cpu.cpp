#include "wave/sem_stepper_cpu.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/central_difference.hpp"
#include "wave/lame_tables.hpp"
#include "wave/sem_plane_sweep_cpu.hpp"
#include "wave/update_coefficients.hpp"

namespace voxwave {

template <class Real>
SemTimeStepperCpu<Real>::SemTimeStepperCpu(const WaveProblem& problem)
    : problem_(problem),
      mesh_(sem_mesh(problem.grid, problem.order)),
      nn_(mesh_.node_count()),
      order_(problem.order, mesh_.n, SemLanes<Real>::kLanes),
      ns_(order_.size),
      beta_over_dt_(static_cast<Real>(problem.rayleigh.beta / problem.dt)) {
    assert_run_rules(problem);
    if (problem.method != Method::Sem || problem.node_count() != nn_)
        throw std::logic_error("SemTimeStepperCpu: the problem is not a sem problem of its own order");
    LameTables<Real> lame = lame_tables<Real>(problem.materials);
    lambda_ = std::move(lame.lambda);
    mu_ = std::move(lame.mu);
    u_.assign(3 * ns_, Real(0));
    up_.assign(3 * ns_, Real(0));
    // The entries that hold no node: no mass, so the update keeps them at zero.
    const UpdateCoefficients<Real> c = update_coefficients<Real>(problem);
    dt2_inv_mass_ = order_.from_natural<Real>(c.dt2_inv_mass.data(), 1, Real(0));
    const auto same = [](const std::vector<Real>& v) {
        return std::all_of(v.begin(), v.end(), [&](Real x) { return x == v.front(); });
    };
    uniform_h_ = same(c.inv_one_plus_h) && same(c.one_minus_h);
    if (uniform_h_) {
        inv_one_plus_h_.assign(1, c.inv_one_plus_h.front());
        one_minus_h_.assign(1, c.one_minus_h.front());
    } else {
        inv_one_plus_h_ = order_.from_natural<Real>(c.inv_one_plus_h.data(), 1, Real(1));
        one_minus_h_ = order_.from_natural<Real>(c.one_minus_h.data(), 1, Real(1));
    }
    sources_ = problem.sources;
    for (auto& s : sources_) s.node = order_.index(s.node);
    if (problem.boundary.has_pml()) pml_ = std::make_unique<SemPmlCorrectionCpu<Real>>(problem, mesh_, order_);
}

template <class Real>
SemSweepInput<Real> SemTimeStepperCpu<Real>::sweep_input() const {
    SemSweepInput<Real> in;
    in.grid = &problem_.grid;
    in.order = order_;
    in.lambda = lambda_.data();
    in.mu = mu_.data();
    in.gll = &mesh_.gll;
    return in;
}

template <class Real>
template <int P>
void SemTimeStepperCpu<Real>::apply_order(const Real* u, const Real* u_prev, Real b, Real* f) const {
    const std::size_t plane = order_.plane, row = order_.row, ns = ns_;
    SemSweepWorkspace<Real> ws;  // not the step's: a const method may run beside another
    sem_plane_sweep<P, Real>(
        sweep_input(), u, u_prev, b, ws,
        [&](std::size_t z, std::size_t r0, std::size_t r1, const Real* fz) {
            for (int c = 0; c < 3; ++c)
                std::copy(fz + c * plane + r0 * row, fz + c * plane + r1 * row, f + c * ns + z * plane + r0 * row);
        },
        [](std::size_t, std::size_t, std::size_t) {});
}

template <class Real>
template <int P>
void SemTimeStepperCpu<Real>::step_order() {
    const std::size_t plane = order_.plane, row = order_.row, ns = ns_;
    const Real* a = dt2_inv_mass_.data();
    const Real* u = u_.data();
    Real* up = up_.data();  // becomes u+ in place, row by row once its force is complete
    const Real* ih = inv_one_plus_h_.data();
    const Real* mh = one_minus_h_.data();
    const Real ih0 = ih[0], mh0 = mh[0];
    const bool uniform = uniform_h_;
    sem_plane_sweep<P, Real>(
        sweep_input(), u, beta_over_dt_ != Real(0) ? up : nullptr, beta_over_dt_, workspace_,
        [&](std::size_t z, std::size_t r0, std::size_t r1, const Real* fz) {
            const std::size_t o = z * plane + r0 * row, n = (r1 - r0) * row;
            for (int c = 0; c < 3; ++c) {
                const Real* __restrict uc = u + c * ns + o;
                Real* __restrict pc = up + c * ns + o;
                const Real* __restrict fc = fz + c * plane + r0 * row;
                const Real* __restrict ac = a + o;
                if (uniform) {
#pragma omp simd
                    for (std::size_t i = 0; i < n; ++i)
                        pc[i] = central_difference_node(uc[i], pc[i], ac[i] * fc[i], mh0, ih0);
                    continue;
                }
                const Real* __restrict mc = mh + o;
                const Real* __restrict hc = ih + o;
#pragma omp simd
                for (std::size_t i = 0; i < n; ++i)
                    pc[i] = central_difference_node(uc[i], pc[i], ac[i] * fc[i], mc[i], hc[i]);
            }
        },
        [&](std::size_t z, std::size_t r0, std::size_t r1) {
            // What the update reads besides u (which the sweep has just read) and the forces.
            const std::size_t o = z * plane + r0 * row, n = (std::min(r1, std::size_t(mesh_.n[1])) - r0) * row;
            for (int c = 0; c < 3; ++c) sem_detail::prefetch_row(up + c * ns + o, n);
            sem_detail::prefetch_row(a + o, n);
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
    const auto held = [this](std::size_t n) { return dt2_inv_mass_[order_.index(n)] == Real(0); };
    const std::vector<Real> next = stepper_state<Real>(u, 3, nn_, held),
                            prev = stepper_state<Real>(u_prev, 3, nn_, held);
    u_ = order_.from_natural<Real>(next.data(), 3, Real(0));
    up_ = order_.from_natural<Real>(prev.data(), 3, Real(0));
    if (pml_) pml_->reset(up_.data(), u_.data());
}

template <class Real>
std::vector<double> SemTimeStepperCpu<Real>::displacement() const {
    return order_.to_natural<double>(u_.data(), 3);
}
template <class Real>
std::vector<double> SemTimeStepperCpu<Real>::previous_displacement() const {
    return order_.to_natural<double>(up_.data(), 3);
}

template <class Real>
std::vector<double> SemTimeStepperCpu<Real>::stiffness_times(const std::vector<double>& v) const {
    if (v.size() != 3 * nn_) throw RuntimeError("stiffness_times: wrong vector size");
    const std::vector<Real> in = order_.from_natural<Real>(v.data(), 3, Real(0));
    std::vector<Real> out(3 * ns_);
    apply(in.data(), nullptr, Real(0), out.data());
    return order_.to_natural<double>(out.data(), 3);
}

template <class Real>
std::size_t SemTimeStepperCpu<Real>::memory_bytes() const {
    std::size_t n = u_.size() + up_.size() + f_.size() + dt2_inv_mass_.size() + inv_one_plus_h_.size() +
                    one_minus_h_.size() + workspace_.bottom.size() + workspace_.top.size();
    for (const auto& v : workspace_.planes) n += v.size();
    std::size_t scratch = 0;
    for (const auto& v : workspace_.scratch) scratch += v.size() * sizeof(v[0]);
    return n * sizeof(Real) + scratch + (pml_ ? pml_->memory_bytes() : 0);
}

template <class Real>
void SemTimeStepperCpu<Real>::step_with_pml() {
    // Entries that hold no node get a zero force and a zero dt^2 / m from the product, so the
    // update keeps them at zero as the fused step does.
    if (f_.empty()) f_.assign(3 * ns_, Real(0));
    apply(u_.data(), beta_over_dt_ != Real(0) ? up_.data() : nullptr, beta_over_dt_, f_.data());
    pml_->add_element_forces(u_.data(), up_.data(), beta_over_dt_, f_.data());
    const std::ptrdiff_t ns = static_cast<std::ptrdiff_t>(ns_);
    const Real* __restrict a = dt2_inv_mass_.data();
    const Real* __restrict ih = inv_one_plus_h_.data();
    const Real* __restrict mh = one_minus_h_.data();
    const bool uniform = uniform_h_;
    const Real ih0 = ih[0], mh0 = mh[0];
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        for (std::size_t c = 0; c < 3; ++c) {
            const Real* __restrict u = u_.data() + c * ns_;
            const Real* __restrict f = f_.data() + c * ns_;
            Real* __restrict up = up_.data() + c * ns_;  // becomes u+ in place
            if (uniform) {
#pragma omp for simd schedule(static) nowait
                for (std::ptrdiff_t i = 0; i < ns; ++i)
                    up[i] = central_difference_node(u[i], up[i], a[i] * f[i], mh0, ih0);
            } else {
#pragma omp for simd schedule(static) nowait
                for (std::ptrdiff_t i = 0; i < ns; ++i)
                    up[i] = central_difference_node(u[i], up[i], a[i] * f[i], mh[i], ih[i]);
            }
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
    add_point_sources(sources_, double(n) * problem_.dt, 3, ns_, dt2_inv_mass_.data(), inv_one_plus_h_.data(),
                      uniform_h_, up_.data());
    u_.swap(up_);
    if (exchange_) exchange_ghosts();
}

template <class Real>
void SemTimeStepperCpu<Real>::set_halo_exchange(HaloExchange* exchange) {
    if (exchange && exchange->plan().node_count() != nn_)
        throw std::logic_error("SemTimeStepperCpu: the exchange's plan is not of this node grid");
    exchange_ = exchange;
}

template <class Real>
void SemTimeStepperCpu<Real>::exchange_ghosts() {
    // The state is in the sweep's order: the exchange packs and unpacks its boxes through it.
    exchange_->exchange_host({u_.data(), u_.data() + ns_, u_.data() + 2 * ns_},
                             [this](std::size_t n) { return order_.index(n); });
}

template class SemTimeStepperCpu<double>;
template class SemTimeStepperCpu<float>;

}  // namespace voxwave
