// The kernels of the spectral elements' PML on CUDA (sem_pml_correction_cuda.cuh states the
// design) and their argument structs, in a header of their own so that test_sem_pml_kernel.cpp
// can run these very kernel bodies on the CPU (a thread a CUDA thread, a barrier for
// __syncthreads, a lock for atomicAdd) against the CPU engine's layer pass.
//
// They run after the column sweep has written u+ with the interior forces only (the sweep never
// holds f): the update is linear in f, so the element pass moves u+ by -dt^2/m / (1 + h) df at
// the element's nodes, and the node pass recovers the whole force term
// dt^2/m f = 2 u - (1 - h) u- - (1 + h) u+ from the corrected u+ (u and u- are still in memory)
// and replaces u+ at the layer's nodes. The arithmetic is sem_pml_element_kernel.hpp's, the CPU
// pass's own, in FP64 whatever the engine's precision.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/host_device.hpp"
#include "scene/run_rules.hpp"
#include "wave/pml_node_pole_args.hpp"
#include "wave/sem_element_kernel.hpp"
#include "wave/sem_pml_element_kernel.hpp"

namespace voxwave::sem_cuda {

// Layer elements a block of the element pass, one thread a GLL point: 108, 128 and 125 threads.
template <int P>
constexpr int kPmlElementsPerBlock = P == 2 ? 4 : (P == 3 ? 2 : 1);
template <int P>
constexpr int kPmlElementThreads = kPmlElementsPerBlock<P>*(P + 1) * (P + 1) * (P + 1);
constexpr int kPmlNodeThreads = 128;
// The element pass runs one launch per pole class K = 0, 2, 4, 6 (the elements of 0 poles, of
// one stretched axis, a face of the layer, of two, an edge, of three, a corner), so that each holds
// registers for K stages and tables only; an element of K - 1 poles, if any, runs in class K (its
// stages and tables are read up to its live stages, sem_pml_live_stages, which its poles bound).
constexpr int kSemPmlPoleClasses = kSemPmlMaxPoles / 2 + 1;

// Blocks of the element pass of order P and class K an SM holds at least, which caps the
// registers a thread at 96 (5 blocks) in a face of the layer at p = 2 and 4 and at 128 (4 blocks)
// elsewhere: the most that spill nothing on sm_90 (sm_80 likewise).
template <int P, int K>
constexpr int kPmlElementMinBlocks = K <= 2 && P != 3 ? 5 : 4;

// The layer's elements (PmlTables order) by pole class (element_first_pole: PmlTables').
inline std::vector<std::vector<std::uint32_t>> sem_pml_elements_by_poles(const std::vector<std::size_t>& first_pole) {
    std::vector<std::vector<std::uint32_t>> by(kSemPmlPoleClasses);
    for (std::size_t q = 0; q + 1 < first_pole.size(); ++q)
        by[(first_pole[q + 1] - first_pole[q] + 1) / 2].push_back(std::uint32_t(q));
    return by;
}

// f(std::integral_constant<int, K>{}) for the pole class K = 2 c.
template <class F>
void sem_pml_with_pole_class(int c, F&& f) {
    switch (c) {
        case 0:
            return f(std::integral_constant<int, 0>{});
        case 1:
            return f(std::integral_constant<int, 2>{});
        case 2:
            return f(std::integral_constant<int, 4>{});
        default:
            return f(std::integral_constant<int, 6>{});
    }
}

// The central-difference factors the sweep's update used (update_coefficients): dt^2 / m per node
// and 1 / (1 + h), 1 - h per node or, where those are null, one value for all.
template <class Real>
struct SemPmlUpdate {
    const Real* dt2_inv_mass;
    const Real* inv_one_plus_h;
    const Real* one_minus_h;
    Real ih0, mh0;
};

// The layer's elements (PmlTables order), their tables per element and pole, and their memory
// variables: per element pole 9 (P + 1)^3 values, point-fastest ([v * (P + 1)^3 + point],
// sem_pml_correction_cpu.hpp's layout: a warp's threads, consecutive points, read and write
// consecutive values, each once a step).
template <class Real>
struct SemPmlElementArgs {
    unsigned long long count;           // entries of list
    const std::uint32_t* list;          // the layer elements of this launch (PmlTables order), all of one pole count
    const unsigned long long* element;  // x-fastest element index
    const unsigned long long* first_pole;
    const std::uint32_t* live;                   // per element: the stages that reach the stress (sem_pml_live_stages)
    const unsigned char* ids;                    // material per layer element
    const double *lambda, *mu;                   // by material id
    const double *decay, *w_old, *w_new;         // per element pole
    const double *filter_const, *filter_newton;  // kPmlFilters per element, per element pole
    double* psi;
    // The chain's input a step back: with Rayleigh's beta the previous step's gradient of the
    // operand, 9 (P + 1)^3 per element, read and replaced; null without it, where the operand is u
    // and that gradient is u-'s, recomputed (it costs a gather of u- instead of reading and
    // writing 9 values a point). fresh: the layer has no history (after a reset): it is 0.
    double* prev;
    bool fresh;
    int ex, ey;             // elements along x, y
    long long nx, ny;       // GLL nodes along x, y
    unsigned long long nn;  // nodes (the SoA stride)
    double d[(kSemMaxOrder + 1) * (kSemMaxOrder + 1)], w[kSemMaxOrder + 1], half_ds;
    const Real *u, *u_prev;
    double keep, b;  // the operand w = keep u - b u-, or u where not damped
    bool damped;
    Real* u_next;
    SemPmlUpdate<Real> upd;
};

// The element pass: thread (e, l) takes GLL point l of layer element blockIdx.x E + e. It gathers
// the operand (and u- where its gradient is the chain's input a step back) at its node into
// shared memory, computes the point's gradients, chains and stress change value by value
// (sem_pml_value_stress: each memory variable loaded once and stored once, the loads ahead of the
// stores) into shared memory and then the force change at its node (sem_node_force), which it
// moves into u+ with an atomic add (an element's face, edge and corner nodes are shared with its
// neighbours in the layer).
template <int P, int K, class Real>
__global__ void __launch_bounds__(kPmlElementThreads<P>, kPmlElementMinBlocks<P, K>)
    sem_pml_element_pass(SemPmlElementArgs<Real> a) {
    constexpr int N = P + 1, N3 = N * N * N, E = kPmlElementsPerBlock<P>, V = kSemPmlPointValues * N3;
    __shared__ double sw[E][3 * N3];  // the operand at the element's nodes
    __shared__ double so[E][3 * N3];  // u- there, where the chain's input a step back is its gradient
    __shared__ double st[E][V];
    // The GLL derivative matrix, read by every product from shared memory (an argument array
    // indexed by the point's coordinates would be copied into registers).
    __shared__ double sd[N * N];
    // The element's tables, read from shared memory where they are used: decay, w_old, w_new (K
    // each), kPmlFilters Newton coefficients per pole, kPmlFilters F(inf) - 1.
    constexpr int TB = (3 + kPmlFilters) * K + kPmlFilters;
    __shared__ double tab[E][TB];
    if (int(threadIdx.x) < N * N) sd[threadIdx.x] = a.d[threadIdx.x];
    const int e = int(threadIdx.x) / N3, l = int(threadIdx.x) - e * N3;
    const int x = l % N, y = (l / N) % N, c = l / (N * N);
    const std::size_t i_list = std::size_t(blockIdx.x) * E + std::size_t(e);
    const bool live = i_list < a.count;
    const std::size_t q = live ? std::size_t(a.list[i_list]) : 0;
    const bool from_um = a.prev == nullptr && !a.fresh;
    const bool read_um = a.damped || from_um;
    std::size_t node = 0;
    if (live) {
        const std::size_t p0 = std::size_t(a.first_pole[q]);
        const int poles = int(std::size_t(a.first_pole[q + 1]) - p0);
        for (int r = l; r < TB; r += N3) {
            const int part = r < 3 * K ? r / K : 3, at = r < 3 * K ? r - K * part : r - 3 * K;
            double value = 0;
            if (part < 3) {
                if (at < poles) value = (part == 0 ? a.decay : part == 1 ? a.w_old : a.w_new)[p0 + std::size_t(at)];
            } else if (at < kPmlFilters * K) {
                if (at < kPmlFilters * poles) value = a.filter_newton[p0 * kPmlFilters + std::size_t(at)];
            } else {
                value = a.filter_const[q * kPmlFilters + std::size_t(at - kPmlFilters * K)];
            }
            tab[e][r] = value;
        }
        const std::size_t el = std::size_t(a.element[q]), ex = std::size_t(a.ex), ey = std::size_t(a.ey);
        const std::size_t i = el % ex, j = (el / ex) % ey, k = el / (ex * ey);
        node = (P * i + std::size_t(x)) +
               std::size_t(a.nx) * ((P * j + std::size_t(y)) + std::size_t(a.ny) * (P * k + std::size_t(c)));
        double v[3], vm[3] = {0, 0, 0};
        for (int comp = 0; comp < 3; ++comp) {
            v[comp] = double(a.u[comp * a.nn + node]);
            if (read_um) vm[comp] = double(a.u_prev[comp * a.nn + node]);
        }
        for (int comp = 0; comp < 3; ++comp) {
            sw[e][comp * N3 + l] = a.damped ? a.keep * v[comp] - a.b * vm[comp] : v[comp];
            if (from_um) so[e][comp * N3 + l] = vm[comp];
        }
    }
    __syncthreads();
    if (live) {
        const std::size_t p0 = std::size_t(a.first_pole[q]);
        const std::uint32_t stages = a.live[q];
        double* const psi = a.psi + p0 * V + std::size_t(l);
        double* const prev = a.prev ? a.prev + q * V + std::size_t(l) : nullptr;
        double trace[3] = {0, 0, 0};
        // A row of 3 values at a time (sem_pml_value_stress): the row's stages (and previous
        // gradients) loaded ahead of the row's stores, then value by value its gradient, the
        // chain's input a step back and its chain; only the traces are held from row to row.
        VOXWAVE_NO_UNROLL
        for (int row = 0; row < 3; ++row) {
            double old[3][K > 0 ? K : 1], kept[3] = {0, 0, 0};
            VOXWAVE_UNROLL
            for (int m = 0; m < 3; ++m) {
                const int v = 3 * row + m;
                sem_pml_value_stages<K>(psi + v * N3, V, int(stages >> (3 * v) & 7u), old[m]);
                if (prev && !a.fresh) kept[m] = prev[v * N3];
            }
            VOXWAVE_UNROLL
            for (int m = 0; m < 3; ++m) {
                const int v = 3 * row + m;
                const double g = sem_pml_gradient_value<P>(sd, sw[e], x, y, c, v);
                const double g_old = from_um ? sem_pml_gradient_value<P>(sd, so[e], x, y, c, v) : kept[m];
                sem_pml_value_stress<K>(v, g, g_old, old[m], psi + v * N3, V, int(stages >> (3 * v) & 7u), tab[e],
                                        tab[e] + K, tab[e] + 2 * K, tab[e] + (3 + kPmlFilters) * K, tab[e] + 3 * K,
                                        st[e] + l, N3, trace);
                if (prev) prev[v * N3] = g;
            }
        }
        const unsigned id = a.ids[q];
        sem_pml_point_stress_finish(trace, a.lambda[id], a.mu[id], a.half_ds * a.w[x] * a.w[y] * a.w[c], st[e] + l, N3);
    }
    __syncthreads();
    if (!live) return;
    const SemPmlUpdate<Real>& upd = a.upd;
    const double scale =
        double(upd.dt2_inv_mass[node]) * double(upd.inv_one_plus_h ? upd.inv_one_plus_h[node] : upd.ih0);
    if (scale == 0) return;  // held or massless: the update keeps it at rest
    for (int comp = 0; comp < 3; ++comp) {
        const double df = sem_node_force<P, double, double>(sd, st[e], comp, x, y, c);
        atomicAdd(a.u_next + comp * a.nn + node, static_cast<Real>(-scale * df));
    }
}

// The layer's nodes (PmlTables order) and their tables and state: y, y- (3 per node) and the
// convolutions (3 per node pole).
template <class Real>
struct SemPmlNodeArgs : PmlNodePoleArgs {
    unsigned long long count;
    const unsigned long long* first_pole;
    unsigned long long nn;
    const Real *u, *u_prev;
    Real* u_next;
    SemPmlUpdate<Real> upd;
};

// The node pass: one thread a layer node, each node once (no atomics).
template <class Real>
__global__ void __launch_bounds__(kPmlNodeThreads) sem_pml_node_pass(SemPmlNodeArgs<Real> a) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (q >= a.count) return;
    const double an = a.a[q];
    if (an == 0) return;  // held: the update already held it
    const std::size_t n = std::size_t(a.node[q]), p0 = std::size_t(a.first_pole[q]);
    const int poles = int(std::size_t(a.first_pole[q + 1]) - p0);
    const SemPmlUpdate<Real>& f = a.upd;
    const double ih = double(f.inv_one_plus_h ? f.inv_one_plus_h[n] : f.ih0);
    const double mh = double(f.inv_one_plus_h ? f.one_minus_h[n] : f.mh0);
    // The FP64 dt^2 / m over the engine's, which the recovered term carries (1 in FP64).
    const double ratio = an / double(f.dt2_inv_mass[n]);
    for (int c = 0; c < 3; ++c) {
        const std::size_t x = std::size_t(c) * a.nn + n, v = 3 * q + std::size_t(c);
        const double un = double(a.u[x]);
        const double af = (2.0 * un - mh * double(a.u_prev[x]) - double(a.u_next[x]) / ih) * ratio;
        a.u_next[x] = static_cast<Real>(sem_pml_node_step(af, un, a.one_minus_h, a.inv_one_plus_h, a.y[v], a.y_prev[v],
                                                          a.scale[q], a.newton + p0, a.decay + p0, a.w_old + p0,
                                                          a.w_new + p0, poles, a.psi + 3 * p0 + c, 3));
    }
}

}  // namespace voxwave::sem_cuda
