// The convolutional PML of the spectral voxel elements, one GLL point and one layer node at a
// time: the arithmetic shared by the CPU pass (sem_pml_correction_cpu.cpp, pml_nodes_cpu.hpp) and
// its CUDA mirror (sem_pml_kernel.cuh), so that both run the same operations in the same order
// (sem_pml_correction_cpu.hpp states the formulation). Plain FP64 on flat arrays.
//
// Every step of an element's correction is local to a GLL point but the last: the gradient at the
// point (a product with the element's operand), the chained convolutions of the point's 9 gradient
// values and the weighted stress change there (sem_pml_point_stress). The force at a node is the
// element kernel's transposed product (sem_node_force) of every point's stress change.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "boundary/pml_layer.hpp"
#include "core/host_device.hpp"
#include "wave/pml_element_kernel.hpp"

namespace voxwave {

// The 9 values of an element's reference displacement gradient at a point.
inline constexpr int kSemPmlPointValues = 9;

// Value v = 3 i + dir of the reference gradient at point (a, b, c) of an element of order P:
// d_dir w_i, w component-major over the element's (P + 1)^3 nodes (w[i * N3 + node]), d the GLL
// derivative matrix; the sums of sem_point_stress.
template <int P>
VOXWAVE_HD_INLINE double sem_pml_gradient_value(const double* __restrict d, const double* __restrict w, int a, int b,
                                                int c, int v) {
    constexpr int N = P + 1, N3 = N * N * N;
    const int i = v / 3, dir = v - 3 * i;
    const int at = dir == 0 ? a : (dir == 1 ? b : c);                       // the point's index along dir
    const int stride = dir == 0 ? 1 : (dir == 1 ? N : N * N);               // node stride along dir
    const double* line = w + i * N3 + (a + N * (b + N * c)) - at * stride;  // the line through the point
    double sum = 0;
    for (int m = 0; m < N; ++m) sum += d[at * N + m] * line[m * stride];
    return sum;
}

// The whole reference gradient at a point: g[3 i + dir] = sem_pml_gradient_value.
template <int P>
VOXWAVE_HD_INLINE void sem_pml_gradient(const double* __restrict d, const double* __restrict w, int a, int b, int c,
                                        double* __restrict g) {
    for (int v = 0; v < kSemPmlPointValues; ++v) g[v] = sem_pml_gradient_value<P>(d, w, a, b, c, v);
}

// The most poles of an element's chain: two per stretched axis, six in a corner of the layer.
inline constexpr int kSemPmlMaxPoles = 6;

// Filter n of value v = 3 k + l (G_kl), n < 3 on the diagonal and n < 2 elsewhere (sem_pml_value_stress): (0, k), (1,
// k), (2, k) on the diagonal; (l, l) and (k, l) elsewhere.
VOXWAVE_HD_INLINE constexpr int sem_pml_value_filter(int v, int n) {
    const int k = v / 3, l = v - 3 * k;
    if (k == l || n == 2) return pml_filter(n, k);
    return n == 0 ? pml_filter(l, l) : pml_filter(k, l);
}

// The stages of each value's chain that reach the stress change in layer element q of t: value
// v's filters (sem_pml_value_filter) have Newton coefficients on the first n_v poles of the chain
// only, and the chain feeds forward, so the stages from n_v on are never read; a pass may leave
// them (their loads and stores) out with the same result. In a face element the chain is
// (beta, alpha), and the three values G_kx of the stretched axis x enter 1 / s_x, of pole beta,
// alone: 15 of its 18 stages reach the stress. n_v at bits [3 v, 3 v + 3).
inline std::uint32_t sem_pml_live_stages(const PmlTables& t, std::size_t q) {
    const std::size_t p0 = t.element_first_pole[q], poles = t.element_first_pole[q + 1] - p0;
    std::uint32_t live = 0;
    for (int v = 0; v < kSemPmlPointValues; ++v) {
        std::uint32_t n = 0;
        for (std::size_t p = 0; p < poles; ++p)
            for (int m = 0; m < (v % 4 == 0 ? 3 : 2); ++m)
                if (t.filter_newton[(p0 + p) * kPmlFilters + std::size_t(sem_pml_value_filter(v, m))] != 0)
                    n = std::uint32_t(p + 1);
        live |= n << (3 * v);
    }
    return live;
}

// Throws std::logic_error where an element of t has more poles than sem_pml_value_stress holds.
inline void sem_pml_check_poles(const PmlTables& t) {
    for (std::size_t q = 0; q + 1 < t.element_first_pole.size(); ++q)
        if (t.element_first_pole[q + 1] - t.element_first_pole[q] > std::size_t(kSemPmlMaxPoles))
            throw std::logic_error("sem PML: an element with more than kSemPmlMaxPoles poles");
}

// A layer element's point, one step, is value by value: each of its 9 gradient values G_kl
// (v = 3 k + l) advances its own chain of convolutions, and its changes dF_f G = (F_f(inf) - 1) G
// + sum_p a_p,f phi_p (Newton form on the chain's stages) enter the weighted stress change
//     t_ij = s tau_ij,  tau_ij = lambda delta_ij sum_k dF_jk G_kk + mu (dF_jj G_ij + dF_ji G_ji),
// s = (ds / 2) w_a w_b w_c as sem_point_stress weights the stress, t[(3 i + j) * t_stride] the
// layout sem_node_force reads. G_kl enters three filters on the diagonal (pml_filter(j, k), in
// the trace of each stress column j) and two elsewhere (pml_filter(l, l) into tau_kl,
// pml_filter(k, l) into tau_lk), so each stage's new value is summed into the value's few changes
// as it is made: every memory variable is read once and written once, the value's loads ahead of
// its stores, and nothing but the 3 traces is held across values (mu's terms wait in t).
//
// sem_pml_value_stages loads the first `poles` (at most K) stages of a value's chain at a point:
// psi the element's chained convolutions of the value there, pole p at psi[p * pole_stride]. A
// pass may load several values' stages ahead of their stores (the CUDA pass does a row of 3).
template <int K = kSemPmlMaxPoles>
VOXWAVE_HD_INLINE void sem_pml_value_stages(const double* __restrict psi, std::size_t pole_stride, int poles,
                                            double (&old)[K > 0 ? K : 1]) {
    VOXWAVE_UNROLL
    for (int p = 0; p < K; ++p) old[p] = p < poles ? psi[std::size_t(p) * pole_stride] : 0.0;
}

// sem_pml_value_stress takes value v, for v = 0..8 ascending: g its value this step, g_old the
// chain's input a step back (the previous step's g, 0 after a reset); old its stages
// (sem_pml_value_stages), whose new values it stores in psi; decay, w_old, w_new: the recursion
// factors of the element's first `poles` (at most K) poles (PmlTables::Poles); c0: kPmlFilters F(inf) - 1; newton:
// kPmlFilters Newton coefficients per pole. mu's two terms of each tau_ij go into t (the first
// assigned, the second added: a sum of two is the same in either order) and the traces into
// trace; sem_pml_point_stress_finish then makes t.
template <int K = kSemPmlMaxPoles>
VOXWAVE_HD_INLINE void sem_pml_value_stress(int v, double g, double g_old, const double (&old)[K > 0 ? K : 1],
                                            double* __restrict psi, std::size_t pole_stride, int poles,
                                            const double* __restrict decay, const double* __restrict w_old,
                                            const double* __restrict w_new, const double* __restrict c0,
                                            const double* __restrict newton, double* __restrict t, std::size_t t_stride,
                                            double (&trace)[3]) {
    const int k = v / 3, l = v - 3 * k;
    const bool diagonal = k == l;
    const int f0 = sem_pml_value_filter(v, 0), f1 = sem_pml_value_filter(v, 1), f2 = sem_pml_value_filter(v, 2);
    double d0 = c0[f0] * g, d1 = c0[f1] * g, d2 = diagonal ? c0[f2] * g : 0.0;
    double in_old = g_old, in_new = g;
    // Each stage's new value becomes the next stage's input, its old value the input a step back.
    VOXWAVE_UNROLL
    for (int p = 0; p < K; ++p)
        if (p < poles) {
            const double next = decay[p] * old[p] + w_old[p] * in_old + w_new[p] * in_new;
            psi[std::size_t(p) * pole_stride] = next;
            in_old = old[p];
            in_new = next;
            const double* a = newton + p * kPmlFilters;
            d0 += a[f0] * next;
            d1 += a[f1] * next;
            if (diagonal) d2 += a[f2] * next;
        }
    if (diagonal) {
        trace[0] += d0;
        trace[1] += d1;
        trace[2] += d2;
        const double dk = k == 0 ? d0 : (k == 1 ? d1 : d2);  // dF_kk G_kk, both of mu's terms
        t[std::size_t(v) * t_stride] = dk + dk;
    } else if (k < l) {                             // the first of the pair (k, l), (l, k)
        t[std::size_t(v) * t_stride] = d0;          // dF_ll G_kl of tau_kl
        t[std::size_t(3 * l + k) * t_stride] = d1;  // dF_kl G_kl of tau_lk
    } else {
        t[std::size_t(v) * t_stride] += d0;
        t[std::size_t(3 * l + k) * t_stride] += d1;
    }
}

// After the 9 values: t_ij = s (mu t_ij + lambda delta_ij trace_j).
VOXWAVE_HD_INLINE void sem_pml_point_stress_finish(const double (&trace)[3], double lambda, double mu, double s,
                                                   double* __restrict t, std::size_t t_stride) {
    VOXWAVE_UNROLL
    for (int v = 0; v < kSemPmlPointValues; ++v) {
        double tau = mu * t[std::size_t(v) * t_stride];
        if (v % 4 == 0) tau += lambda * trace[v / 4];
        t[std::size_t(v) * t_stride] = s * tau;
    }
}

// A whole point: its 9 values g and g_old, psi's value v at psi[v * stride] (pole p at
// + p * pole_stride), the tables and t as above.
VOXWAVE_HD_INLINE void sem_pml_point_stress(const double* __restrict g, const double* __restrict g_old,
                                            double* __restrict psi, std::size_t stride, std::size_t pole_stride,
                                            int poles, const double* __restrict decay, const double* __restrict w_old,
                                            const double* __restrict w_new, const double* __restrict c0,
                                            const double* __restrict newton, double lambda, double mu, double s,
                                            double* __restrict t, std::size_t t_stride) {
    double trace[3] = {0, 0, 0};
    for (int v = 0; v < kSemPmlPointValues; ++v) {
        double* const phi = psi + std::size_t(v) * stride;
        double old[kSemPmlMaxPoles];
        sem_pml_value_stages(phi, pole_stride, poles, old);
        sem_pml_value_stress(v, g[v], g_old[v], old, phi, pole_stride, poles, decay, w_old, w_new, c0, newton, t,
                             t_stride, trace);
    }
    sem_pml_point_stress_finish(trace, lambda, mu, s, t, t_stride);
}

// One component of a layer node, one step: the central difference of its stretched displacement
// y = S u with the whole force term af = dt^2 / m f,
//     (1 + h) y+ = 2 y - (1 - h) y- - af,
// and u+ from y+ (pml_node_update, its convolutions phi[k * stride] advanced); y and y_prev
// advance. Returns u+.
VOXWAVE_HD_INLINE double sem_pml_node_step(double af, double u, double one_minus_h, double inv_one_plus_h, double& y,
                                           double& y_prev, double c0, const double* newton, const double* decay,
                                           const double* w_old, const double* w_new, int poles, double* phi,
                                           int stride) {
    const double y_next = (2.0 * y - one_minus_h * y_prev - af) * inv_one_plus_h;
    const double u_plus = pml_node_update(y_next, u, c0, newton, decay, w_old, w_new, poles, phi, stride);
    y_prev = y;
    y = y_next;
    return u_plus;
}

}  // namespace voxwave
