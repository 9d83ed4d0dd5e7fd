#include <algorithm>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/errors.hpp"
#include "wave/central_difference.hpp"
#include "wave/lame_tables.hpp"
#include "wave/pml_correction_cuda.cuh"
#include "wave/pml_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

constexpr int kPmlThreads = 128;
constexpr unsigned kFullWarp = 0xffffffffu;
static_assert(PmlStressExchange::kLanes == 32 && kPmlMomentValues <= 32,
              "one lane per moment value and per element dof");

template <class Real>
struct PmlElementArgs {
    std::size_t count;
    std::size_t nx1, plane1;
    const unsigned long long* node0;       // each element's corner (0, 0, 0)
    const unsigned long long* first_pole;  // each element's poles in psi: [first[q], first[q + 1])
    const std::uint8_t* ids;
    const double *lambda, *mu;
    // By class (pml_element_classes: a few thousand rows, in cache): the poles' recursion factors,
    // kPmlFilters constants per class and Newton coefficients per class pole, item-major.
    const std::uint32_t* cls;
    const std::uint32_t* class_first_pole;
    const double *decay, *w_old, *w_new, *filter_const, *filter_newton;
    // The stress moments' exchange (PmlStressExchange): per lane, and per lane and filter.
    const std::uint32_t* exchange_from;
    const double *exchange_mu, *exchange_lambda;
    double *psi, *prev;  // psi: [element pole][value]; prev: [element][value]
    const Real* u[3];
    const Real* um[3];
    double keep, b;
    bool damped;
    bool fresh;  // the previous moments are 0 (prev null: else recomputed from um)
    PmlTarget<Real> target;
};

// The node-pole block stage-major (PmlStages): per node pole base[k] + q, psi 3 base[k] + c
// count[k] + q, y [c][q].
template <class Real>
struct PmlNodeArgs : PmlNodePoleArgs {
    std::size_t count;
    PmlStages st;
    double* y_next;  // [c][q], over y_prev's buffer (the two then swap)
    const Real* u[3];
    const Real* um[3];
    PmlNodeForce<Real> force;
    Real* out[3];  // u+ at the node, or null: into next ([c][q])
    Real* next;
};

// One of three pointers by a component index that differs between lanes (indexing the kernel
// argument's array with it would copy the array to local memory).
template <class P>
__device__ __forceinline__ P pml_component(P const (&p)[3], int c) {
    return c == 0 ? p[0] : c == 1 ? p[1] : p[2];
}

// Adds correction v (FP64) at node n of component c: f += v, or u+ -= dt^2/m / (1 + h) v.
template <class Real>
__device__ __forceinline__ void pml_add(const PmlTarget<Real>& t, int c, std::size_t n, double v) {
    if (t.scale) v = -double(t.scale[n]) * double(t.ih ? t.ih[n] : t.ih0) * v;
    atomicAdd(pml_component(t.out, c) + n, static_cast<Real>(v));
}

// Entry i of a small array held in registers (i differs between lanes: indexing the array with
// it would put it in local memory).
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

// Moment value v = 3 P + i of the element from the corner values x held by lanes 3 l + c (local
// node l, component c): lane v gathers its component's 8 corners by shuffles and runs the
// element kernel's transform (voxel_corner_moments_of: the CPU pass's bits).
__device__ __forceinline__ double pml_lane_moment(double x, int v) {
    const int i = v % 3;
    double S7[kVoxelMoments];
    voxel_corner_moments_of(
        [&](int ca, int cb, int cc) { return __shfl_sync(kFullWarp, x, 3 * voxel_local_node(ca, cb, cc) + i); }, S7, 1);
    return pml_pick(S7, v / 3);
}

// One warp per layer element: the steps of PmlCorrectionCpu::add_element_forces with the
// element's work spread over its lanes. Lane d < 24 loads corner dof d = 3 l + c of w (and of u-
// where the previous moments come from it) and adds the force there; lane v < 21 makes moment
// value v, runs v's chain of 2-6 stages (its memory variables loaded at once, then advanced in
// registers) and sums v's changes of the six filters, dS[f] = c0_f S + sum_k a_f,k phi_k; lane o
// then pulls, per filter, the change that stress moment T[o] reads (a shuffle a filter:
// pml_for_each_stress_term says which, at most one value per filter) and weighs it with mu and
// lambda; the force of dof d is the transposed transform of its component's 7 T.
//
// The element's indices, corners, previous moments and memory variables are all loaded before
// any store and before the moments are made: the arguments are members of one struct, so the
// compiler cannot tell psi and prev from the other arrays (no __restrict__ there), and a load
// written after a store is issued only once the store's value is made. Written after the store
// of the previous moments (as it was), the psi loads waited for the moments, i.e. for the
// corners' loads; the previous moments were stored while their own load was still in flight.
// Now the memory variables' loads go out with the corners' (two latencies deep: the indices,
// then both), and the previous moments are stored after the chain has used them. What is still
// loaded after a store (the stage and exchange tables, mu and lambda, the fused step's dt^2/m)
// is a few kB of tables in cache; hoisting those too held more registers (72-86, against 64).
template <class Real>
__global__ void __launch_bounds__(kPmlThreads) pml_element_kernel(PmlElementArgs<Real> a) {
    const std::size_t q = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (q >= a.count) return;  // the whole warp: every shuffle below has all 32 lanes
    const int lane = int(threadIdx.x % 32);
    // The element's indices (the same address in every lane: one transaction each).
    const std::size_t n0 = std::size_t(a.node0[q]);
    const std::size_t cls = a.cls[q];
    const std::size_t p0 = std::size_t(a.first_pole[q]);
    const int poles = int(std::size_t(a.first_pole[q + 1]) - p0);
    const unsigned id = a.ids[q];
    const std::uint32_t from = a.exchange_from[lane];
    // Corner dof d = lane (l = d / 3, component c = d % 3): u and u- there.
    const bool old_from_um = !a.prev && !a.fresh;
    const int l = lane / 3, c = lane % 3;
    const std::size_t n = n0 + pml_corner_offset(l, a.nx1, a.plane1);
    double uc = 0, umc = 0;
    if (lane < 24) {
        uc = double(pml_component(a.u, c)[n]);
        if (a.damped || old_from_um) umc = double(pml_component(a.um, c)[n]);
    }
    // Moment value v = lane: the chain's previous input (the previous step's moment, kept in
    // prev with Rayleigh's beta) and the memory variables of its stages.
    const int v = lane;
    const bool value_lane = v < kPmlMomentValues;
    double* const pv = a.prev ? a.prev + q * kPmlMomentValues + std::size_t(v) : nullptr;
    double* const psi = a.psi + p0 * kPmlMomentValues + std::size_t(v);
    double prev_in = 0, old[kPmlMaxPoles];
    if (value_lane) {
        if (pv && !a.fresh) prev_in = *pv;
#pragma unroll
        for (int k = 0; k < kPmlMaxPoles; ++k)
            if (k < poles) old[k] = psi[std::size_t(k) * kPmlMomentValues];
    }
    const std::size_t cp0 = a.class_first_pole[cls];

    // As the CPU pass writes w, without contraction into an fma: the same bits.
    const double w = lane >= 24 ? 0.0 : a.damped ? __dsub_rn(__dmul_rn(a.keep, uc), __dmul_rn(a.b, umc)) : uc;
    double S = pml_lane_moment(w, v);
    double in_old = old_from_um ? pml_lane_moment(lane < 24 ? umc : 0.0, v) : 0.0;
    if (!value_lane) S = in_old = 0;
    double dS[kPmlFilters];
#pragma unroll
    for (int fl = 0; fl < kPmlFilters; ++fl) dS[fl] = a.filter_const[cls * kPmlFilters + std::size_t(fl)] * S;
    if (value_lane) {
        // The chain's input phi_0 = S: its old value in_old (the previous step's moments: kept
        // in prev with Rayleigh's beta, else those of u-) and its new one, which each stage then
        // replaces with its own.
        if (a.prev) in_old = prev_in;
        double in_new = S;
#pragma unroll
        for (int k = 0; k < kPmlMaxPoles; ++k) {
            if (k >= poles) break;
            const std::size_t cp = cp0 + std::size_t(k);
            const double now = a.decay[cp] * old[k] + a.w_old[cp] * in_old + a.w_new[cp] * in_new;
            psi[std::size_t(k) * kPmlMomentValues] = now;
            in_old = old[k];
            in_new = now;
#pragma unroll
            for (int fl = 0; fl < kPmlFilters; ++fl)
                dS[fl] += a.filter_newton[cp * kPmlFilters + std::size_t(fl)] * now;
        }
        if (pv) *pv = S;
    }
    // Stress moment T[o], o = lane: per filter the one change it reads, weighed with mu and lambda.
    double t_mu = 0, t_lambda = 0;
#pragma unroll
    for (int fl = 0; fl < kPmlFilters; ++fl) {
        const double x = __shfl_sync(kFullWarp, dS[fl], int(from >> (5 * fl) & 31u));
        t_mu += a.exchange_mu[lane * kPmlFilters + fl] * x;
        t_lambda += a.exchange_lambda[lane * kPmlFilters + fl] * x;
    }
    const double T = a.mu[id] * t_mu + a.lambda[id] * t_lambda;
    // The force of dof d = lane: component c's 7 stress moments (lanes 3 P + c), transposed.
    double T7[kVoxelMoments], f8[8];
#pragma unroll
    for (int P = 0; P < kVoxelMoments; ++P) T7[P] = __shfl_sync(kFullWarp, T, 3 * P + c);
    voxel_corner_scatter_of(T7, 1, f8, 1);
    if (lane >= 24) return;
    const double fe = pml_pick(f8, l);
    // The CPU pass rounds each element's force to Real before adding it to f.
    pml_add(a.target, c, n, a.target.scale ? fe : double(static_cast<Real>(fe)));
}

// Stage k's entry of the node pass's per-pole tables and memory variables (PmlStages).
struct PmlStagedTable {
    const double* p;
    const std::size_t* base;
    std::size_t q;
    __device__ double operator[](int k) const { return p[base[k] + q]; }
};
struct PmlStagedPsi {
    double* p;
    const std::size_t *base, *count;
    std::size_t c, q;
    __device__ double& operator[](int k) const { return p[3 * base[k] + c * count[k] + q]; }
};

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
    const std::size_t* base = a.st.base;
    // With the number of poles a constant in each case, the stages unroll and their offsets
    // (base[k], count[k]) are read from the kernel's argument, not from a local copy of it.
    const auto update = [&](int poles_of) {
        return pml_node_update(y_next, un, a.scale[q], PmlStagedTable{a.newton, base, q},
                               PmlStagedTable{a.decay, base, q}, PmlStagedTable{a.w_old, base, q},
                               PmlStagedTable{a.w_new, base, q}, poles_of,
                               PmlStagedPsi{a.psi, base, a.st.count, std::size_t(c), q}, 1);
    };
    double u_plus;
    switch (poles) {
        case 1:
            u_plus = update(1);
            break;
        case 2:
            u_plus = update(2);
            break;
        case 3:
            u_plus = update(3);
            break;
        case 4:
            u_plus = update(4);
            break;
        case 5:
            u_plus = update(5);
            break;
        case 6:
            u_plus = update(6);
            break;
        default:
            u_plus = update(0);
            break;
    }
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
        if (k > std::size_t(kPmlMaxPoles)) throw RuntimeError("PML layer: a node with more poles than the pass holds");
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
    const LameTables<double> lame = lame_tables<double>(problem.materials);
    upload_to(lambda_, lame.lambda);
    upload_to(mu_, lame.mu);

    // Elements, in the tables' order: corner node, material, class.
    const VoxelGrid& g = problem.grid;
    const std::size_t nx = std::size_t(g.n[0]), ny = std::size_t(g.n[1]);
    const std::size_t nx1 = nx + 1, plane1 = nx1 * (ny + 1);
    {
        std::vector<std::uint8_t> ids(elements_);
        std::vector<unsigned long long> node0(elements_);
        for (std::size_t q = 0; q < elements_; ++q) {
            const std::size_t e = t.element[q];
            ids[q] = g.ids[e];
            node0[q] = e % nx + nx1 * ((e / nx) % ny) + plane1 * (e / (nx * ny));
            if (t.element_first_pole[q + 1] - t.element_first_pole[q] > std::size_t(kPmlMaxPoles))
                throw RuntimeError("PML layer: an element with more poles than the pass holds");
        }
        upload_to(ids_, ids);
        upload_to(element_node0_, node0);
        upload_to(element_first_pole_,
                  std::vector<unsigned long long>(t.element_first_pole.begin(), t.element_first_pole.end()));
    }
    {
        const PmlElementClasses c = pml_element_classes(t);
        upload_to(element_class_, c.of_element);
        upload_to(class_first_pole_, std::vector<std::uint32_t>(c.first_pole.begin(), c.first_pole.end()));
        upload_to(element_decay_, c.poles.decay);
        upload_to(element_w_old_, c.poles.w_old);
        upload_to(element_w_new_, c.poles.w_new);
        upload_to(filter_const_, c.filter_const);
        upload_to(filter_newton_, c.filter_newton);
    }
    {
        const PmlStressExchange x = pml_stress_exchange(scales_);
        upload_to(exchange_from_, std::vector<std::uint32_t>(x.from, x.from + PmlStressExchange::kLanes));
        upload_to(exchange_mu_,
                  std::vector<double>(&x.mu_w[0][0], &x.mu_w[0][0] + PmlStressExchange::kLanes * kPmlFilters));
        upload_to(exchange_lambda_,
                  std::vector<double>(&x.lambda_w[0][0], &x.lambda_w[0][0] + PmlStressExchange::kLanes * kPmlFilters));
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
    // Per element: its corner node and first pole (8 + 8 B), class and material (4 + 1 B), 21
    // memory variables per pole (and 21 previous moments with Rayleigh's beta); per node: its
    // index, c0, a, y, y-, u+ and per pole 4 factors and 3 memory variables. The tables by class
    // are at most the per-element ones.
    const std::size_t doubles = 512 + 32 * 2 * kPmlFilters + t.element_poles.size() * (kPmlMomentValues + 3) +
                                (damped ? t.element.size() * kPmlMomentValues : 0) + t.filter_const.size() +
                                t.filter_newton.size() + t.node_poles.size() * (4 + 3) + t.node.size() * (1 + 2 + 6);
    return doubles * sizeof(double) + (t.element.size() + 1) * 8 + t.element.size() * (8 + 4 + 1) +
           t.node.size() * (8 + 3 * sizeof(Real));
}

template <class Real>
void PmlCorrection<Real>::add_element_forces(const Real* const u[3], const Real* const um[3], Real b,
                                             const PmlTarget<Real>& target, cudaStream_t stream) {
    if (elements_ == 0) return;
    PmlElementArgs<Real> a{};
    a.count = elements_;
    a.nx1 = std::size_t(problem_.grid.n[0]) + 1;
    a.plane1 = a.nx1 * (std::size_t(problem_.grid.n[1]) + 1);
    a.node0 = element_node0_.get();
    a.first_pole = element_first_pole_.get();
    a.ids = ids_.get();
    a.lambda = lambda_.get();
    a.mu = mu_.get();
    a.cls = element_class_.get();
    a.class_first_pole = class_first_pole_.get();
    a.decay = element_decay_.get();
    a.w_old = element_w_old_.get();
    a.w_new = element_w_new_.get();
    a.filter_const = filter_const_.get();
    a.filter_newton = filter_newton_.get();
    a.exchange_from = exchange_from_.get();
    a.exchange_mu = exchange_mu_.get();
    a.exchange_lambda = exchange_lambda_.get();
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
    // One warp per element, kPmlThreads / 32 elements a block.
    const std::size_t per_block = kPmlThreads / 32;
    const unsigned blocks = unsigned((elements_ + per_block - 1) / per_block);
    pml_element_kernel<Real><<<blocks, kPmlThreads, 0, stream>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("pml_element_kernel");
}

template <class Real>
void PmlCorrection<Real>::update_nodes(const Real* const u[3], const Real* const um[3], const PmlNodeForce<Real>& force,
                                       Real* const* out, cudaStream_t stream) {
    if (nodes_ == 0) return;
    PmlNodeArgs<Real> a{};
    fill_pml_node_poles(a, *this);
    a.count = nodes_;
    a.st = node_stages_;
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
