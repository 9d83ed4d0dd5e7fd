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
// variables: per element pole and per element 9 (P + 1)^3 values, point-fastest
// ([v * (P + 1)^3 + point], sem_pml_correction_cpu.hpp's layout: a warp's threads, consecutive
// points, read consecutive values).
template <class Real>
struct SemPmlElementArgs {
    unsigned long long count;
    const unsigned long long* element;  // x-fastest element index
    const unsigned long long* first_pole;
    const unsigned char* ids;                    // material per layer element
    const double *lambda, *mu;                   // by material id
    const double *decay, *w_old, *w_new;         // per element pole
    const double *filter_const, *filter_newton;  // kPmlFilters per element, per element pole
    double *psi, *prev;
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
// the operand at its node into shared memory, computes the point's gradient, chain and stress
// change (sem_pml_point_stress) into shared memory and then the force change at its node
// (sem_node_force), which it moves into u+ with an atomic add (an element's face, edge and corner
// nodes are shared with its neighbours in the layer).
template <int P, class Real>
__global__ void __launch_bounds__(kPmlElementThreads<P>) sem_pml_element_pass(SemPmlElementArgs<Real> a) {
    constexpr int N = P + 1, N3 = N * N * N, E = kPmlElementsPerBlock<P>, V = kSemPmlPointValues * N3;
    __shared__ double sw[E][3 * N3];
    __shared__ double st[E][V];
    const int e = int(threadIdx.x) / N3, l = int(threadIdx.x) - e * N3;
    const int x = l % N, y = (l / N) % N, c = l / (N * N);
    const std::size_t q = std::size_t(blockIdx.x) * E + std::size_t(e);
    const bool live = q < a.count;
    std::size_t node = 0;
    if (live) {
        const std::size_t el = std::size_t(a.element[q]), ex = std::size_t(a.ex), ey = std::size_t(a.ey);
        const std::size_t i = el % ex, j = (el / ex) % ey, k = el / (ex * ey);
        node = (P * i + std::size_t(x)) +
               std::size_t(a.nx) * ((P * j + std::size_t(y)) + std::size_t(a.ny) * (P * k + std::size_t(c)));
        for (int comp = 0; comp < 3; ++comp) {
            const double v = double(a.u[comp * a.nn + node]);
            sw[e][comp * N3 + l] = a.damped ? a.keep * v - a.b * double(a.u_prev[comp * a.nn + node]) : v;
        }
    }
    __syncthreads();
    if (live) {
        double g[kSemPmlPointValues];
        sem_pml_gradient<P>(a.d, sw[e], x, y, c, g);
        const std::size_t p0 = std::size_t(a.first_pole[q]);
        const int poles = int(std::size_t(a.first_pole[q + 1]) - p0);
        const unsigned id = a.ids[q];
        sem_pml_point_stress(g, a.prev + q * V + std::size_t(l), a.psi + p0 * V + std::size_t(l), N3, V, poles,
                             a.decay + p0, a.w_old + p0, a.w_new + p0, a.filter_const + q * kPmlFilters,
                             a.filter_newton + p0 * kPmlFilters, a.lambda[id], a.mu[id],
                             a.half_ds * a.w[x] * a.w[y] * a.w[c], st[e] + l, N3);
    }
    __syncthreads();
    if (!live) return;
    const SemPmlUpdate<Real>& upd = a.upd;
    const double scale =
        double(upd.dt2_inv_mass[node]) * double(upd.inv_one_plus_h ? upd.inv_one_plus_h[node] : upd.ih0);
    if (scale == 0) return;  // held or massless: the update keeps it at rest
    for (int comp = 0; comp < 3; ++comp) {
        const double df = sem_node_force<P, double, double>(a.d, st[e], comp, x, y, c);
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
