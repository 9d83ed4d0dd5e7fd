#include "wave/sem_stepper_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/central_difference.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wavelet.hpp"

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
    f_.assign(3 * nn_, Real(0));
    UpdateCoefficients<Real> c = update_coefficients<Real>(problem);
    dt2_inv_mass_ = std::move(c.dt2_inv_mass);
    inv_one_plus_h_ = std::move(c.inv_one_plus_h);
    one_minus_h_ = std::move(c.one_minus_h);
}

namespace {

// kLanes elements of an x row at once, one a lane: the element kernel is one pass of vector
// arithmetic (64-byte vectors: AVX-512, or two AVX2 halves), while the gathers and scatters of
// the shared nodes stay scalar and in element order, so the sums equal the one-element loop's.
template <class Real>
struct SemLanes {
    static constexpr int kLanes = 64 / int(sizeof(Real));
    typedef Real Vec __attribute__((vector_size(64)));
};

}  // namespace

template <class Real>
template <int P>
void SemTimeStepperCpu<Real>::apply_order(const Real* u, const Real* u_prev, Real b, Real* f) const {
    constexpr int N = P + 1, N3 = N * N * N, L = SemLanes<Real>::kLanes;
    using Vec = typename SemLanes<Real>::Vec;
    const VoxelGrid& g = problem_.grid;
    const std::size_t nn = nn_;
    const Real half_ds = static_cast<Real>(0.5 * g.spacing), keep = Real(1) + b;
    const std::ptrdiff_t total = std::ptrdiff_t(3 * nn);
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
#pragma omp for simd schedule(static)
        for (std::ptrdiff_t i = 0; i < total; ++i) f[i] = Real(0);
        // Heap, not stack: 15 N3 vectors of 64 B are 120 KB at p = 4.
        std::vector<Vec> buf(std::size_t(15 * N3));
        Vec* ue = buf.data();
        Vec* te = ue + 3 * N3;
        Vec* fe = te + 9 * N3;
        std::size_t idx[N3];
        for (int parity = 0; parity < 2; ++parity) {
            // Planes k and k + 2 touch disjoint node planes: no two threads add into one node.
#pragma omp for schedule(dynamic, 1)
            for (int k = parity; k < g.n[2]; k += 2)
                for (int j = 0; j < g.n[1]; ++j)
                    for (int i0 = 0; i0 < g.n[0]; i0 += L) {
                        const int lanes = std::min(L, g.n[0] - i0);
                        Vec lam{}, mu{};
                        bool any = false;
                        for (int l = 0; l < lanes; ++l) {
                            const MaterialId id = g.at(i0 + l, j, k);
                            lam[l] = lambda_[id];
                            mu[l] = mu_[id];
                            any = any || id != kVoidId;
                        }
                        if (!any) continue;
                        // Node (a, b, c) of lane l is idx[q] + P l.
                        for (int c = 0; c < N; ++c)
                            for (int bb = 0; bb < N; ++bb)
                                for (int a = 0; a < N; ++a)
                                    idx[a + N * (bb + N * c)] = mesh_.node_index(P * i0 + a, P * j + bb, P * k + c);
                        for (int comp = 0; comp < 3; ++comp) {
                            const Real* uc = u + comp * nn;
                            const Real* pc = u_prev ? u_prev + comp * nn : nullptr;
                            if (lanes == L && !pc) {
                                // A full row, undamped: a fixed lane count lets the compiler
                                // emit strided vector loads (gathers) instead of one insert a
                                // lane (a fifth of the product's time on a 2-core AVX-512 VM).
                                for (int q = 0; q < N3; ++q) {
                                    const Real* ub = uc + idx[q];
                                    Vec v;
                                    for (int l = 0; l < L; ++l) v[l] = ub[P * l];
                                    ue[comp * N3 + q] = v;
                                }
                                continue;
                            }
                            for (int q = 0; q < N3; ++q) {
                                Vec v{};
                                for (int l = 0; l < lanes; ++l) {
                                    const std::size_t n = idx[q] + std::size_t(P * l);
                                    v[l] = pc ? damped_operand(uc[n], pc[n], keep, b) : uc[n];
                                }
                                ue[comp * N3 + q] = v;
                            }
                        }
                        sem_element_force<P, Vec, Real>(d_, w_, lam, mu, half_ds, ue, te, fe);
                        for (int l = 0; l < lanes; ++l) {
                            if (g.at(i0 + l, j, k) == kVoidId) continue;
                            for (int comp = 0; comp < 3; ++comp) {
                                Real* fc = f + comp * nn;
                                for (int q = 0; q < N3; ++q) fc[idx[q] + std::size_t(P * l)] += fe[comp * N3 + q][l];
                            }
                        }
                    }
        }
    }
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
    if (u_prev.size() != 3 * nn_ || u.size() != 3 * nn_) throw RuntimeError("set_state: wrong vector size");
    for (std::size_t i = 0; i < 3 * nn_; ++i) {
        u_[i] = static_cast<Real>(u[i]);
        up_[i] = static_cast<Real>(u_prev[i]);
    }
    for (std::size_t n = 0; n < nn_; ++n)
        if (dt2_inv_mass_[n] == Real(0))
            for (int c = 0; c < 3; ++c) u_[c * nn_ + n] = up_[c * nn_ + n] = Real(0);
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
           sizeof(Real);
}

template <class Real>
void SemTimeStepperCpu<Real>::step(std::int64_t n) {
    apply(u_.data(), beta_over_dt_ != Real(0) ? up_.data() : nullptr, beta_over_dt_, f_.data());
    const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(nn_);
    const Real* __restrict a = dt2_inv_mass_.data();
    const Real* __restrict ih = inv_one_plus_h_.data();
    const Real* __restrict mh = one_minus_h_.data();
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        for (int c = 0; c < 3; ++c) {
            const Real* __restrict u = u_.data() + c * nn_;
            Real* __restrict up = up_.data() + c * nn_;  // becomes u+ in place
            const Real* __restrict f = f_.data() + c * nn_;
#pragma omp for simd schedule(static) nowait
            for (std::ptrdiff_t i = 0; i < nn; ++i)
                up[i] = central_difference_node(u[i], up[i], a[i] * f[i], mh[i], ih[i]);
        }
    }
    const double t = double(n) * problem_.dt;
    for (const auto& s : problem_.sources) {
        const double wv = evaluate_wavelet(s.wavelet, t);
        if (wv == 0.0) continue;
        const Real scale = dt2_inv_mass_[s.node] * inv_one_plus_h_[s.node];
        for (int c = 0; c < 3; ++c) up_[c * nn_ + s.node] += scale * static_cast<Real>(s.force[c] * wv);
    }
    u_.swap(up_);
}

template class SemTimeStepperCpu<double>;
template class SemTimeStepperCpu<float>;

}  // namespace voxwave
