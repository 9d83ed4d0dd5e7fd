#include <algorithm>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/errors.hpp"
#include "wave/central_difference.hpp"
#include "wave/pml_correction_cuda.cuh"
#include "wave/pml_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

constexpr int kPmlThreads = 128;
// The element pass: a block takes kPmlLanes layer elements (one per lane of each warp) times the
// 21 moment values (one warp each: every branch on the value is uniform within a warp).
constexpr int kPmlLanes = 32;
constexpr int kPmlElementThreads = kPmlLanes * kPmlMomentValues;
// 48 registers a thread (pml_element_kernel) let two such blocks share an SM.
static_assert(2 * kPmlElementThreads * 48 <= 65536);

template <class Real>
struct PmlElementArgs {
    std::size_t count;
    PmlStages st;
    std::size_t nx1, plane1;
    const unsigned long long* node0;  // each element's corner (0, 0, 0)
    const std::uint8_t* ids;
    const double *lambda, *mu;
    double sc[3];
    // By class (pml_element_classes: a few thousand rows, in cache): the poles' recursion factors,
    // kPmlFilters constants per class and Newton coefficients per class pole, and the stages that
    // each of the 21 values runs (those whose coefficients of the filters it feeds are not all 0).
    const std::uint32_t* cls;
    const std::uint32_t* class_first_pole;
    const std::uint8_t* class_stages;
    const double *decay, *w_old, *w_new, *filter_const, *filter_newton;
    double *psi, *prev;  // psi: 21 values per element pole (PmlStages); prev: [value][element]
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
    PmlStages st;
    const unsigned long long* node;
    const double *scale, *a;                       // per node
    const double *newton, *decay, *w_old, *w_new;  // per node pole: base[k] + q
    double one_minus_h, inv_one_plus_h;
    double* psi;               // 3 per node pole: 3 base[k] + c count[k] + q
    const double *y, *y_prev;  // [c][q]
    double* y_next;            // [c][q], over y_prev's buffer (the two then swap)
    const Real* u[3];
    const Real* um[3];
    PmlNodeForce<Real> force;
    Real* out[3];  // u+ at the node, or null: into next ([c][q])
    Real* next;
};

// Adds correction v (FP64) at node n of component c: f += v, or u+ -= dt^2/m / (1 + h) v.
template <class Real>
__device__ __forceinline__ void pml_add(const PmlTarget<Real>& t, int c, std::size_t n, double v) {
    if (t.scale) v = -double(t.scale[n]) * double(t.ih ? t.ih[n] : t.ih0) * v;
    atomicAdd(t.out[c] + n, static_cast<Real>(v));
}

// Entry i of a small array held in registers (i uniform in a warp; indexing it would put the
// array in local memory).
template <int N>
__device__ __forceinline__ double pml_pick(const double (&x)[N], int i) {
    double r = x[0];
#pragma unroll
    for (int k = 1; k < N; ++k)
        if (i == k) r = x[k];
    return r;
}

// Local node l's offset from the element's corner (0, 0, 0) (voxel_local_node's inverse).
__device__ __forceinline__ std::size_t pml_corner_offset(int l, std::size_t nx1, std::size_t plane1) {
    const int m = l & 3;
    return std::size_t((m ^ (m >> 1)) & 1) + nx1 * std::size_t(m >> 1) + plane1 * std::size_t(l >> 2);
}

// The same arithmetic as PmlCorrectionCpu::add_element_forces, spread over a block of
// kPmlLanes elements x 21 values: thread (lane, v) makes moment value v = 3 P + i of its
// element, advances v's chain (its stages of the memory variables: coalesced, one register
// chain of 2-6 stages instead of 21) and the six filters' changes of v; the block shares the
// corner values and then the changes through shared memory; thread (lane, o) sums stress moment
// T[o] (pml_stress_moment: the CPU's terms and order), and the threads of the 24 dofs send the
// force back (voxel_corner_scatter_of) and add it at the node.
template <class Real>
__global__ void __maxnreg__(48) pml_element_kernel(PmlElementArgs<Real> a) {
    // The corner values of w (and of u- where the previous moments come from it), dof-major; the
    // stress moments T reuse the first (21 rows) once the moments are made.
    __shared__ double corners[2][24][kPmlLanes];
    __shared__ double changes[kPmlFilters][kPmlMomentValues][kPmlLanes];
    const int x = int(threadIdx.x), v = int(threadIdx.y);
    const std::size_t q = std::size_t(blockIdx.x) * kPmlLanes + std::size_t(x);
    const bool live = q < a.count;
    const std::size_t n0 = live ? std::size_t(a.node0[q]) : 0;
    const bool old_from_um = !a.prev && !a.fresh;
    for (int d = v; d < 24; d += kPmlMomentValues) {
        const int l = d / 3, c = d % 3;
        double w = 0, wm = 0;
        if (live) {
            const std::size_t n = n0 + pml_corner_offset(l, a.nx1, a.plane1);
            const double uc = double(a.u[c][n]);
            // As the CPU pass writes it, without contraction into an fma: the same bits.
            w = a.damped ? __dsub_rn(__dmul_rn(a.keep, uc), __dmul_rn(a.b, double(a.um[c][n]))) : uc;
            if (old_from_um) wm = double(a.um[c][n]);
        }
        corners[0][d][x] = w;
        corners[1][d][x] = wm;
    }
    __syncthreads();
    const int P = v / 3, i = v % 3;
    const auto moment = [&](int from) {
        double S7[kVoxelMoments];
        voxel_corner_moments_of(
            [&](int ca, int cb, int cc) { return corners[from][3 * voxel_local_node(ca, cb, cc) + i][x]; }, S7, 1);
        return pml_pick(S7, P);
    };
    double dS[kPmlFilters] = {0, 0, 0, 0, 0, 0};
    std::uint32_t cls = 0;
    if (live) {
        const double S = moment(0);
        cls = a.cls[q];
        for (int fl = 0; fl < kPmlFilters; ++fl) {
            const double c0 = a.filter_const[std::size_t(cls) * kPmlFilters + std::size_t(fl)];
            dS[fl] = c0 == 0 ? 0.0 : c0 * S;  // kappa = 1: only the poles change the filter
        }
        // The chain's input phi_0 = S: its old value (the previous step's moments: kept in prev
        // with Rayleigh's beta, else those of u-), and S.
        double in_old = 0, in_new = S;
        if (a.prev) {
            double* pv = a.prev + std::size_t(v) * a.count + q;
            in_old = *pv;
            *pv = S;
        } else if (old_from_um) {
            in_old = moment(1);
        }
        const int stages = a.class_stages[std::size_t(cls) * kPmlMomentValues + std::size_t(v)];
        const std::size_t cp0 = a.class_first_pole[cls];
#pragma unroll
        for (int k = 0; k < kPmlMaxPoles; ++k) {
            if (k >= stages) break;
            double* phi = a.psi + a.st.base[k] * kPmlMomentValues + std::size_t(v) * a.st.count[k] + q;
            const std::size_t cp = cp0 + std::size_t(k);
            const double old = *phi;
            const double now = a.decay[cp] * old + a.w_old[cp] * in_old + a.w_new[cp] * in_new;
            *phi = now;
            in_old = old;
            in_new = now;
            for (int fl = 0; fl < kPmlFilters; ++fl) {
                const double an = a.filter_newton[cp * kPmlFilters + std::size_t(fl)];
                if (an != 0) dS[fl] += an * now;
            }
        }
    }
    for (int fl = 0; fl < kPmlFilters; ++fl) changes[fl][v][x] = dS[fl];
    __syncthreads();
    if (live) {
        const unsigned id = a.ids[q];
        const double T = pml_stress_moment(
            v, [&](int fl, int w) { return changes[fl][w][x]; }, a.lambda[id], a.mu[id], a.sc);
        corners[0][v][x] = T;  // every corner value was read before the barrier above
    }
    __syncthreads();
    if (!live) return;
    for (int d = v; d < 24; d += kPmlMomentValues) {
        const int l = d / 3, c = d % 3;
        double f8[8];
        voxel_corner_scatter_of(&corners[0][c][x], 3 * kPmlLanes, f8, 1);
        const double fe = pml_pick(f8, l);
        // The CPU pass rounds each element's force to Real before adding it to f.
        pml_add(a.target, c, n0 + pml_corner_offset(l, a.nx1, a.plane1),
                a.target.scale ? fe : double(static_cast<Real>(fe)));
    }
}

// One thread per layer node and component: PmlCorrectionCpu::update_nodes. Each node once: no
// atomics.
template <class Real>
__global__ void __launch_bounds__(kPmlThreads) pml_node_kernel(PmlNodeArgs<Real> a) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const int c = int(blockIdx.y);
    if (q >= a.count) return;
    const double an = a.a[q];
    if (an == 0) return;  // fixed: the update already held it
    const std::size_t n = std::size_t(a.node[q]);
    int poles = 0;
    while (poles < a.st.stages && q < a.st.count[poles]) ++poles;
    const PmlNodeForce<Real>& F = a.force;
    const std::size_t v = std::size_t(c) * a.count + q;
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
    const double u_plus = pml_node_update(y_next, un, a.scale[q], poles, [&](int k) {
        const std::size_t p = a.st.base[k] + q;
        return PmlNodePole{a.newton[p], a.decay[p], a.w_old[p], a.w_new[p],
                           a.psi + 3 * a.st.base[k] + std::size_t(c) * a.st.count[k] + q};
    });
    a.y_next[v] = y_next;
    if (a.out[0])
        a.out[c][n] = static_cast<Real>(u_plus);
    else
        a.next[v] = static_cast<Real>(u_plus);
}

// The split design's u+ of update_nodes over the update's.
template <class Real>
__global__ void __launch_bounds__(kPmlThreads)
    pml_write_nodes_kernel(std::size_t count, const unsigned long long* node, const double* a_node, const Real* next,
                           Real* out0, Real* out1, Real* out2) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (q >= count || a_node[q] == 0) return;
    const std::size_t n = std::size_t(node[q]);
    out0[n] = next[q];
    out1[n] = next[count + q];
    out2[n] = next[2 * count + q];
}

// y = c0 u, y- = c0 u- at every layer node ([c][q]); the convolutions start at 0.
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
        y[std::size_t(c) * count + q] = scale[q] * double(u[c][n]);
        y_prev[std::size_t(c) * count + q] = scale[q] * double(m[c][n]);
    }
}

unsigned pml_blocks(std::size_t n) { return unsigned((n + kPmlThreads - 1) / kPmlThreads); }

template <class T>
void upload_to(DeviceBuffer<T>& b, const std::vector<T>& v) {
    b.resize(v.size());
    b.upload(v);
}

// The pass's order of items with the poles [first[q], first[q + 1]): by number of poles, most
// first (stable), and where each stage's memory variables lie (PmlStages).
std::vector<std::size_t> order_by_poles(const std::vector<std::size_t>& first, PmlStages& st) {
    const std::size_t count = first.size() - 1;
    std::vector<std::size_t> order(count);
    for (std::size_t q = 0; q < count; ++q) order[q] = q;
    const auto poles = [&](std::size_t q) { return first[q + 1] - first[q]; };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return poles(x) > poles(y); });
    st = PmlStages{};
    for (std::size_t q = 0; q < count; ++q) {
        const std::size_t k = poles(q);
        if (k > std::size_t(kPmlMaxPoles)) throw RuntimeError("PML layer: an item with more poles than the pass holds");
        st.stages = std::max(st.stages, int(k));
        for (std::size_t j = 0; j < k; ++j) ++st.count[j];
    }
    for (int k = 1; k < kPmlMaxPoles; ++k) st.base[k] = st.base[k - 1] + st.count[k - 1];
    return order;
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

    // Elements, in the pass's order.
    const VoxelGrid& g = problem.grid;
    const std::size_t nx = std::size_t(g.n[0]), ny = std::size_t(g.n[1]);
    const std::size_t nx1 = nx + 1, plane1 = nx1 * (ny + 1);
    const std::vector<std::size_t> order = order_by_poles(t.element_first_pole, element_stages_);
    const PmlElementClasses c = pml_element_classes(t);
    {
        std::vector<std::uint8_t> ids(elements_);
        std::vector<unsigned long long> node0(elements_);
        std::vector<std::uint32_t> cls(elements_);
        for (std::size_t q = 0; q < elements_; ++q) {
            const std::size_t e = t.element[order[q]];
            ids[q] = g.ids[e];
            node0[q] = e % nx + nx1 * ((e / nx) % ny) + plane1 * (e / (nx * ny));
            cls[q] = c.of_element[order[q]];
        }
        upload_to(ids_, ids);
        upload_to(element_node0_, node0);
        upload_to(element_class_, cls);
    }
    {
        // Per class and value, the stages its chain runs: up to the last whose coefficient of a
        // filter that the value feeds (pml_value_filters) is not 0; the later ones change only
        // filtered values that never enter the force.
        unsigned feeds[kPmlMomentValues];
        for (int v = 0; v < kPmlMomentValues; ++v) feeds[v] = pml_value_filters(v);
        std::vector<std::uint8_t> stages(c.size() * kPmlMomentValues, 0);
        for (std::size_t k = 0; k < c.size(); ++k)
            for (std::size_t p = c.first_pole[k]; p < c.first_pole[k + 1]; ++p)
                for (int v = 0; v < kPmlMomentValues; ++v)
                    for (int fl = 0; fl < kPmlFilters; ++fl)
                        if ((feeds[v] >> fl & 1u) && c.filter_newton[p * kPmlFilters + std::size_t(fl)] != 0)
                            stages[k * kPmlMomentValues + std::size_t(v)] = std::uint8_t(p - c.first_pole[k] + 1);
        upload_to(class_stages_, stages);
        upload_to(class_first_pole_, std::vector<std::uint32_t>(c.first_pole.begin(), c.first_pole.end()));
        upload_to(element_decay_, c.poles.decay);
        upload_to(element_w_old_, c.poles.w_old);
        upload_to(element_w_new_, c.poles.w_new);
        upload_to(filter_const_, c.filter_const);
        upload_to(filter_newton_, c.filter_newton);
    }

    // Nodes, in the pass's order; their poles stage-major (PmlStages).
    const std::vector<std::size_t> node_order = order_by_poles(t.node_first_pole, node_stages_);
    {
        const std::vector<std::size_t>& fixed = problem.boundary.fixed_nodes;
        std::vector<unsigned long long> node(nodes_);
        std::vector<double> scale(nodes_), node_a(nodes_);
        const std::size_t node_poles = t.node_poles.size();
        std::vector<double> newton(node_poles), decay(node_poles), w_old(node_poles), w_new(node_poles);
        for (std::size_t q = 0; q < nodes_; ++q) {
            const std::size_t from = node_order[q], n = t.node[from];
            node[q] = n;
            scale[q] = t.node_scale[from];
            // dt^2 / m, 0 where fixed (as PmlCorrectionCpu).
            node_a[q] = std::binary_search(fixed.begin(), fixed.end(), n)
                            ? 0.0
                            : problem.dt * problem.dt / problem.node_mass[n];
            for (std::size_t p = t.node_first_pole[from], k = 0; p < t.node_first_pole[from + 1]; ++p, ++k) {
                const std::size_t to = node_stages_.base[k] + q;
                newton[to] = t.node_newton[p];
                decay[to] = t.node_poles.decay[p];
                w_old[to] = t.node_poles.w_old[p];
                w_new[to] = t.node_poles.w_new[p];
            }
        }
        upload_to(node_, node);
        upload_to(node_scale_, scale);
        upload_to(node_a_, node_a);
        upload_to(node_newton_, newton);
        upload_to(node_decay_, decay);
        upload_to(node_w_old_, w_old);
        upload_to(node_w_new_, w_new);
    }
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
    // Per element: its corner node, class and material (8 + 4 + 1 B), 21 memory variables per
    // pole (and 21 previous moments with Rayleigh's beta); per node: its index, c0, a, y, y-, u+
    // and per pole 4 factors and 3 memory variables. The tables by class are at most the
    // per-element ones.
    const std::size_t doubles = 512 + t.element_poles.size() * (kPmlMomentValues + 3) +
                                (damped ? t.element.size() * kPmlMomentValues : 0) + t.filter_const.size() +
                                t.filter_newton.size() + t.node_poles.size() * (4 + 3) + t.node.size() * (1 + 2 + 6);
    return doubles * sizeof(double) + t.element.size() * (8 + 4 + 1 + kPmlMomentValues) +
           t.node.size() * 3 * sizeof(Real);
}

template <class Real>
void PmlCorrection<Real>::add_element_forces(const Real* const u[3], const Real* const um[3], Real b,
                                             const PmlTarget<Real>& target, cudaStream_t stream) {
    if (elements_ == 0) return;
    PmlElementArgs<Real> a{};
    a.count = elements_;
    a.st = element_stages_;
    a.nx1 = std::size_t(problem_.grid.n[0]) + 1;
    a.plane1 = a.nx1 * (std::size_t(problem_.grid.n[1]) + 1);
    a.node0 = element_node0_.get();
    a.ids = ids_.get();
    a.lambda = lambda_.get();
    a.mu = mu_.get();
    for (int i = 0; i < 3; ++i) a.sc[i] = scales_[i];
    a.cls = element_class_.get();
    a.class_first_pole = class_first_pole_.get();
    a.class_stages = class_stages_.get();
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
    const unsigned blocks = unsigned((elements_ + kPmlLanes - 1) / kPmlLanes);
    pml_element_kernel<Real><<<blocks, dim3(kPmlLanes, kPmlMomentValues), 0, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("pml_element_kernel");
}

template <class Real>
void PmlCorrection<Real>::update_nodes(const Real* const u[3], const Real* const um[3], const PmlNodeForce<Real>& force,
                                       Real* const* out, cudaStream_t stream) {
    if (nodes_ == 0) return;
    PmlNodeArgs<Real> a{};
    a.count = nodes_;
    a.st = node_stages_;
    a.node = node_.get();
    a.scale = node_scale_.get();
    a.a = node_a_.get();
    a.newton = node_newton_.get();
    a.decay = node_decay_.get();
    a.w_old = node_w_old_.get();
    a.w_new = node_w_new_.get();
    a.one_minus_h = one_minus_h_;
    a.inv_one_plus_h = inv_one_plus_h_;
    a.psi = node_psi_.get();
    a.y = y_.get();
    a.y_prev = y_prev_.get();
    a.y_next = y_prev_.get();  // y- is read by the same thread before; then the two swap
    for (int c = 0; c < 3; ++c) {
        a.u[c] = u[c];
        a.um[c] = um[c];
        a.out[c] = out ? out[c] : nullptr;
    }
    a.force = force;
    a.next = next_.get();
    pml_node_kernel<Real><<<dim3(pml_blocks(nodes_), 3), kPmlThreads, 0, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("pml_node_kernel");
    y_.swap(y_prev_);
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
