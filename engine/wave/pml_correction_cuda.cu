#include <algorithm>
#include <vector>

#include "core/cuda_check.cuh"
#include "wave/central_difference.hpp"
#include "wave/pml_correction_cuda.cuh"
#include "wave/pml_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

constexpr int kPmlThreads = 128;

// The element pass's per-element arrays are value-major (value v of item i at v * items + i: the
// moments by element, psi by pole), so that a warp's threads, which take
// consecutive layer elements, read and write them in whole cache lines.
template <class Real>
struct PmlElementArgs {
    std::size_t count, poles;
    int nx, ny;
    const unsigned long long* element;
    const unsigned long long* first_pole;
    const std::uint8_t* ids;
    const double *lambda, *mu;
    double sc[3];
    // By class (pml_element_classes: a few thousand rows, in cache): the poles' recursion factors,
    // kPmlFilters constants per class and Newton coefficients per class pole, item-major.
    const std::uint32_t* cls;
    const unsigned long long* class_first_pole;
    const double *decay, *w_old, *w_new, *filter_const, *filter_newton;
    double *psi, *prev;
    const Real* u[3];
    const Real* um[3];
    double keep, b;
    bool damped;
    bool fresh;  // the previous moments are 0 (prev null: else recomputed from um)
    PmlTarget<Real> target;
};

template <class Real>
struct PmlNodeArgs {
    std::size_t count;
    const unsigned long long* node;
    const unsigned long long* first_pole;
    const double *decay, *w_old, *w_new, *scale, *newton, *a;
    double one_minus_h, inv_one_plus_h;
    double *psi, *y, *y_prev;
    const Real* u[3];
    const Real* um[3];
    PmlNodeForce<Real> force;
    Real* out[3];  // u+ at the node, or null: into next (3 per layer node)
    Real* next;
};

// Adds correction v (FP64) at node n of component c: f += v, or u+ -= dt^2/m / (1 + h) v.
template <class Real>
__device__ __forceinline__ void pml_add(const PmlTarget<Real>& t, int c, std::size_t n, double v) {
    if (t.scale) v = -double(t.scale[n]) * double(t.ih ? t.ih[n] : t.ih0) * v;
    atomicAdd(t.out[c] + n, static_cast<Real>(v));
}

// One thread per layer element: the same steps as PmlCorrectionCpu::add_element_forces.
template <class Real>
__global__ void __launch_bounds__(kPmlThreads) pml_element_kernel(PmlElementArgs<Real> a) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (q >= a.count) return;
    const std::size_t nx = std::size_t(a.nx), ny = std::size_t(a.ny);
    const std::size_t nx1 = nx + 1, plane1 = nx1 * (ny + 1);
    const std::size_t e = std::size_t(a.element[q]);
    const std::size_t n0 = e % nx + nx1 * ((e / nx) % ny) + plane1 * (e / (nx * ny));
    std::size_t nodes[8];
    for (int c = 0; c < 2; ++c)
        for (int bb = 0; bb < 2; ++bb)
            for (int aa = 0; aa < 2; ++aa)
                nodes[voxel_local_node(aa, bb, c)] =
                    n0 + std::size_t(aa) + nx1 * std::size_t(bb) + plane1 * std::size_t(c);
    double w[24];
    for (int l = 0; l < 8; ++l)
        for (int c = 0; c < 3; ++c) {
            const double uc = double(a.u[c][nodes[l]]);
            // As the CPU pass writes it, without contraction into an fma: the same bits.
            w[3 * l + c] = a.damped ? __dsub_rn(__dmul_rn(a.keep, uc), __dmul_rn(a.b, double(a.um[c][nodes[l]]))) : uc;
        }
    double S[kPmlMomentValues];
    voxel_corner_moments(w, S);
    // The stress moments of the layer's change, term by term as on the CPU: F(inf) - 1 on the
    // moments (0 where kappa = 1), then each stage of the chain as it is advanced.
    const unsigned id = a.ids[q];
    const double lambda = a.lambda[id], mu = a.mu[id];
    const std::size_t cls = a.cls[q], cp0 = std::size_t(a.class_first_pole[cls]);
    double T[kPmlMomentValues];
    for (int v = 0; v < kPmlMomentValues; ++v) T[v] = 0.0;
    {
        double c0[kPmlFilters];
        bool any = false;
        for (int fl = 0; fl < kPmlFilters; ++fl) {
            c0[fl] = a.filter_const[cls * kPmlFilters + std::size_t(fl)];
            any = any || c0[fl] != 0;
        }
        if (any) pml_add_stress_moments(S, c0, lambda, mu, a.sc, T);
    }
    // The chain's input phi_0 = S: its old value (the previous step's moments: kept in prev with
    // Rayleigh's beta, else those of u-), and S, which each stage then replaces with its own (no
    // second copy: registers).
    double in_old[kPmlMomentValues];
    if (a.prev) {
        for (int v = 0; v < kPmlMomentValues; ++v) {
            in_old[v] = a.prev[std::size_t(v) * a.count + q];
            a.prev[std::size_t(v) * a.count + q] = S[v];
        }
    } else if (a.fresh) {
        for (int v = 0; v < kPmlMomentValues; ++v) in_old[v] = 0.0;
    } else {
        for (int l = 0; l < 8; ++l)
            for (int c = 0; c < 3; ++c) w[3 * l + c] = double(a.um[c][nodes[l]]);
        voxel_corner_moments(w, in_old);
    }
    for (std::size_t p = std::size_t(a.first_pole[q]); p < std::size_t(a.first_pole[q + 1]); ++p) {
        // pml_advance on the values in memory: the stage's new values become the next stage's
        // input (S), its old ones in_old; no third array of 21 live.
        const std::size_t cp = cp0 + (p - std::size_t(a.first_pole[q]));
        const double decay = a.decay[cp], w_old = a.w_old[cp], w_new = a.w_new[cp];
        for (int v = 0; v < kPmlMomentValues; ++v) {
            double* phi = a.psi + std::size_t(v) * a.poles + p;
            const double old = *phi;
            *phi = decay * old + w_old * in_old[v] + w_new * S[v];
            in_old[v] = old;
            S[v] = *phi;
        }
        double an[kPmlFilters];
        for (int fl = 0; fl < kPmlFilters; ++fl) an[fl] = a.filter_newton[cp * kPmlFilters + std::size_t(fl)];
        pml_add_stress_moments(S, an, lambda, mu, a.sc, T);
    }
    double f[24];
    voxel_corner_scatter(T, f);
    for (int l = 0; l < 8; ++l)
        for (int c = 0; c < 3; ++c) {
            // The CPU pass rounds each element's force to Real before adding it to f.
            const double fe = a.target.scale ? f[3 * l + c] : double(static_cast<Real>(f[3 * l + c]));
            pml_add(a.target, c, nodes[l], fe);
        }
}

// One thread per layer node: PmlCorrectionCpu::update_nodes. Each node once: no atomics.
template <class Real>
__global__ void __launch_bounds__(kPmlThreads) pml_node_kernel(PmlNodeArgs<Real> a) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (q >= a.count) return;
    const double an = a.a[q];
    if (an == 0) return;  // fixed: the update already held it
    const std::size_t n = std::size_t(a.node[q]);
    const std::size_t p0 = std::size_t(a.first_pole[q]);
    const int poles = int(std::size_t(a.first_pole[q + 1]) - p0);
    const PmlNodeForce<Real>& F = a.force;
    for (int c = 0; c < 3; ++c) {
        const std::size_t v = 3 * q + std::size_t(c);
        const Real ur = a.u[c][n];
        const double un = double(ur);
        // a f, the whole force's term of the update.
        double af;
        if (F.f[c]) {
            Real f = F.f[c][n];
            if (F.diag) f += Real(F.diag[n] * double(damped_operand(ur, a.um[c][n], F.keep, F.b)));
            af = an * double(f);
        } else {
            const double ih = double(F.ih ? F.ih[n] : F.ih0), mh = double(F.mh ? F.mh[n] : F.mh0);
            af = (2.0 * un - mh * double(a.um[c][n]) - double(F.up[c][n]) / ih) * (an / double(F.a[n]));
        }
        const double y_next = (2.0 * a.y[v] - a.one_minus_h * a.y_prev[v] - af) * a.inv_one_plus_h;
        const double u_plus = pml_node_update(y_next, un, a.scale[q], a.newton + p0, a.decay + p0, a.w_old + p0,
                                              a.w_new + p0, poles, a.psi + 3 * p0 + std::size_t(c), 3);
        a.y_prev[v] = a.y[v];
        a.y[v] = y_next;
        if (a.out[0])
            a.out[c][n] = static_cast<Real>(u_plus);
        else
            a.next[v] = static_cast<Real>(u_plus);
    }
}

// The split design's u+ of update_nodes over the update's.
template <class Real>
__global__ void __launch_bounds__(kPmlThreads)
    pml_write_nodes_kernel(std::size_t count, const unsigned long long* node, const double* a_node, const Real* next,
                           Real* out0, Real* out1, Real* out2) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (q >= count || a_node[q] == 0) return;
    const std::size_t n = std::size_t(node[q]);
    out0[n] = next[3 * q];
    out1[n] = next[3 * q + 1];
    out2[n] = next[3 * q + 2];
}

// y = c0 u, y- = c0 u- at every layer node; the convolutions start at 0.
template <class Real>
__global__ void __launch_bounds__(kPmlThreads)
    pml_reset_nodes_kernel(std::size_t count, const unsigned long long* node, const double* scale, const Real* u0,
                           const Real* u1, const Real* u2, const Real* m0, const Real* m1, const Real* m2, double* y,
                           double* y_prev) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (q >= count) return;
    const std::size_t n = std::size_t(node[q]);
    const Real* const u[3] = {u0, u1, u2};
    const Real* const m[3] = {m0, m1, m2};
    for (int c = 0; c < 3; ++c) {
        y[3 * q + std::size_t(c)] = scale[q] * double(u[c][n]);
        y_prev[3 * q + std::size_t(c)] = scale[q] * double(m[c][n]);
    }
}

unsigned pml_blocks(std::size_t n) { return unsigned((n + kPmlThreads - 1) / kPmlThreads); }

template <class T>
void upload_to(DeviceBuffer<T>& b, const std::vector<T>& v) {
    b.resize(v.size());
    b.upload(v);
}

std::vector<unsigned long long> as_ull(const std::vector<std::size_t>& v) {
    return std::vector<unsigned long long>(v.begin(), v.end());
}

}  // namespace

template <class Real>
PmlCorrection<Real>::PmlCorrection(const WaveProblem& problem, const PmlTables& t)
    : problem_(problem), elements_(t.element.size()), nodes_(t.node.size()) {
    const ModeScales m = mode_scales(problem.element_method(), problem.grid.spacing);
    scales_[0] = m.constant;
    scales_[1] = m.linear;
    scales_[2] = m.bilinear;
    std::vector<double> lambda(256, 0.0), mu(256, 0.0);
    for (std::size_t i = 0; i < problem.materials.size() && i < 255; ++i) {
        lambda[i + 1] = problem.materials[i].lame_lambda();
        mu[i + 1] = problem.materials[i].shear_modulus();
    }
    upload_to(lambda_, lambda);
    upload_to(mu_, mu);
    std::vector<std::uint8_t> ids(elements_);
    for (std::size_t q = 0; q < elements_; ++q) ids[q] = problem.grid.ids[t.element[q]];
    upload_to(ids_, ids);
    upload_to(element_, as_ull(t.element));
    upload_to(element_first_pole_, as_ull(t.element_first_pole));
    {
        const PmlElementClasses c = pml_element_classes(t);
        upload_to(element_class_, c.of_element);
        upload_to(class_first_pole_, as_ull(c.first_pole));
        upload_to(element_decay_, c.poles.decay);
        upload_to(element_w_old_, c.poles.w_old);
        upload_to(element_w_new_, c.poles.w_new);
        upload_to(filter_const_, c.filter_const);
        upload_to(filter_newton_, c.filter_newton);
    }
    element_poles_ = t.element_poles.size();
    upload_to(node_, as_ull(t.node));
    upload_to(node_first_pole_, as_ull(t.node_first_pole));
    upload_to(node_decay_, t.node_poles.decay);
    upload_to(node_w_old_, t.node_poles.w_old);
    upload_to(node_w_new_, t.node_poles.w_new);
    upload_to(node_scale_, t.node_scale);
    upload_to(node_newton_, t.node_newton);
    // dt^2 / m per layer node, 0 where fixed (as PmlCorrectionCpu).
    const std::vector<std::size_t>& fixed = problem.boundary.fixed_nodes;
    std::vector<double> node_a;
    for (std::size_t n : t.node)
        node_a.push_back(
            std::binary_search(fixed.begin(), fixed.end(), n) ? 0.0 : problem.dt * problem.dt / problem.node_mass[n]);
    upload_to(node_a_, node_a);
    const double h = 0.5 * problem.dt * problem.rayleigh.alpha;
    one_minus_h_ = 1.0 - h;
    inv_one_plus_h_ = 1.0 / (1.0 + h);
    psi_.resize(t.element_poles.size() * kPmlMomentValues);  // resize zeroes
    if (problem.rayleigh.beta != 0) moments_prev_.resize(elements_ * kPmlMomentValues);
    node_psi_.resize(t.node_poles.size() * 3);
    y_.resize(3 * nodes_);
    y_prev_.resize(3 * nodes_);
    next_.resize(3 * nodes_);
}

template <class Real>
void PmlCorrection<Real>::reset(const Real* const um[3], const Real* const u[3]) {
    for (DeviceBuffer<double>* b : {&psi_, &moments_prev_, &node_psi_})
        if (b->size()) VOXWAVE_CUDA_CHECK(cudaMemset(b->get(), 0, b->bytes()));
    fresh_ = true;
    if (nodes_ == 0) return;
    pml_reset_nodes_kernel<Real><<<pml_blocks(nodes_), kPmlThreads>>>(
        nodes_, node_.get(), node_scale_.get(), u[0], u[1], u[2], um[0], um[1], um[2], y_.get(), y_prev_.get());
    VOXWAVE_CUDA_CHECK_LAUNCH("pml_reset_nodes_kernel");
}

template <class Real>
std::size_t PmlCorrection<Real>::bytes_of(const PmlTables& t, bool damped) {
    if (t.empty()) return 0;
    const std::size_t doubles =
        512 + t.element_poles.size() * (3 + kPmlMomentValues) + (damped ? t.element.size() * kPmlMomentValues : 0) +
        t.filter_const.size() + t.filter_newton.size() + t.node_poles.size() * (3 + 3) + t.node_scale.size() +
        t.node_newton.size() + t.node.size() * (1 + 3 + 3) + t.node.size() * 3 * sizeof(Real) / sizeof(double);
    const std::size_t indices =
        t.element.size() + t.element_first_pole.size() + t.node.size() + t.node_first_pole.size();
    // (The tables by class are at most the per-element ones counted above.)
    return doubles * sizeof(double) + indices * sizeof(unsigned long long) + t.element.size() * (1 + 4);
}

template <class Real>
void PmlCorrection<Real>::add_element_forces(const Real* const u[3], const Real* const um[3], Real b,
                                             const PmlTarget<Real>& target, cudaStream_t stream) {
    if (elements_ == 0) return;
    PmlElementArgs<Real> a{};
    a.count = elements_;
    a.poles = element_poles_;
    a.nx = problem_.grid.n[0];
    a.ny = problem_.grid.n[1];
    a.element = element_.get();
    a.first_pole = element_first_pole_.get();
    a.ids = ids_.get();
    a.lambda = lambda_.get();
    a.mu = mu_.get();
    for (int i = 0; i < 3; ++i) a.sc[i] = scales_[i];
    a.cls = element_class_.get();
    a.class_first_pole = class_first_pole_.get();
    a.decay = element_decay_.get();
    a.w_old = element_w_old_.get();
    a.w_new = element_w_new_.get();
    a.filter_const = filter_const_.get();
    a.filter_newton = filter_newton_.get();
    a.psi = psi_.get();
    a.prev = moments_prev_.size() ? moments_prev_.get() : nullptr;
    a.fresh = fresh_;
    fresh_ = false;
    for (int c = 0; c < 3; ++c) {
        a.u[c] = u[c];
        a.um[c] = um[c];
    }
    a.b = double(b);
    a.keep = 1.0 + a.b;
    a.damped = um[0] != nullptr && b != Real(0);
    a.target = target;
    pml_element_kernel<Real><<<pml_blocks(elements_), kPmlThreads, 0, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("pml_element_kernel");
}

template <class Real>
void PmlCorrection<Real>::update_nodes(const Real* const u[3], const Real* const um[3], const PmlNodeForce<Real>& force,
                                       Real* const* out, cudaStream_t stream) {
    if (nodes_ == 0) return;
    PmlNodeArgs<Real> a{};
    a.count = nodes_;
    a.node = node_.get();
    a.first_pole = node_first_pole_.get();
    a.decay = node_decay_.get();
    a.w_old = node_w_old_.get();
    a.w_new = node_w_new_.get();
    a.scale = node_scale_.get();
    a.newton = node_newton_.get();
    a.a = node_a_.get();
    a.one_minus_h = one_minus_h_;
    a.inv_one_plus_h = inv_one_plus_h_;
    a.psi = node_psi_.get();
    a.y = y_.get();
    a.y_prev = y_prev_.get();
    for (int c = 0; c < 3; ++c) {
        a.u[c] = u[c];
        a.um[c] = um[c];
        a.out[c] = out ? out[c] : nullptr;
    }
    a.force = force;
    a.next = next_.get();
    pml_node_kernel<Real><<<pml_blocks(nodes_), kPmlThreads, 0, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("pml_node_kernel");
}

template <class Real>
void PmlCorrection<Real>::write_nodes(Real* const out[3], cudaStream_t stream) {
    if (nodes_ == 0) return;
    pml_write_nodes_kernel<Real><<<pml_blocks(nodes_), kPmlThreads, 0, stream>>>(nodes_, node_.get(), node_a_.get(),
                                                                                 next_.get(), out[0], out[1], out[2]);
    VOXWAVE_CUDA_CHECK_LAUNCH("pml_write_nodes_kernel");
}

template class PmlCorrection<double>;
template class PmlCorrection<float>;

}  // namespace voxwave::cuda
