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

#include "boundary/pml_layer.hpp"
#include "core/host_device.hpp"
#include "wave/pml_element_kernel.hpp"

namespace voxwave {

// The 9 values of an element's reference displacement gradient at a point.
inline constexpr int kSemPmlPointValues = 9;

// The reference gradient at point (a, b, c) of an element of order P: g[3 i + d] = d_d w_i, w
// component-major over the element's (P + 1)^3 nodes (w[i * N3 + node]), d the GLL derivative
// matrix; the sums of sem_point_stress.
template <int P>
VOXWAVE_HD_INLINE void sem_pml_gradient(const double* __restrict d, const double* __restrict w, int a, int b, int c,
                                        double* __restrict g) {
    constexpr int N = P + 1, N3 = N * N * N;
    for (int i = 0; i < 3; ++i) {
        const double* wi = w + i * N3;
        double gx = 0, gy = 0, gz = 0;
        for (int m = 0; m < N; ++m) {
            gx += d[a * N + m] * wi[m + N * (b + N * c)];
            gy += d[b * N + m] * wi[a + N * (m + N * c)];
            gz += d[c * N + m] * wi[a + N * (b + N * m)];
        }
        g[3 * i + 0] = gx;
        g[3 * i + 1] = gy;
        g[3 * i + 2] = gz;
    }
}

// (F_f - 1) G of filter f on one gradient value: (F_f(inf) - 1) G + sum_k a_k,f phi_k, phi_k of
// pole k at phi[k * pole_stride].
VOXWAVE_HD_INLINE double sem_pml_change(const double* __restrict c0, const double* __restrict newton, int poles, int f,
                                        double g, const double* __restrict phi, std::size_t pole_stride) {
    double x = c0[f] * g;
    for (int k = 0; k < poles; ++k) x += newton[k * kPmlFilters + f] * phi[std::size_t(k) * pole_stride];
    return x;
}

// One GLL point of a layer element, one step: the chain of its 9 gradient values g advanced (its
// input linear over the step: the previous gradient, prev[v * stride], which g replaces), then the
// weighted stress change
//     t_ij = s tau_ij,  tau_ij = lambda delta_ij sum_k dF_jk G_kk + mu (dF_jj G_ij + dF_ji G_ji),
// dF = F - 1 (sem_pml_change), s = (ds / 2) w_a w_b w_c as sem_point_stress weights the stress,
// into t[(3 i + j) * t_stride] (the layout sem_node_force reads). psi: the element's chained
// convolutions at the point, pole k value v at psi[k * pole_stride + v * stride]; decay, w_old,
// w_new: the recursion factors of its `poles` poles (PmlTables::Poles); c0: kPmlFilters
// F(inf) - 1; newton: kPmlFilters Newton coefficients per pole.
VOXWAVE_HD_INLINE void sem_pml_point_stress(const double* __restrict g, double* __restrict prev, double* __restrict psi,
                                            std::size_t stride, std::size_t pole_stride, int poles,
                                            const double* __restrict decay, const double* __restrict w_old,
                                            const double* __restrict w_new, const double* __restrict c0,
                                            const double* __restrict newton, double lambda, double mu, double s,
                                            double* __restrict t, std::size_t t_stride) {
    constexpr int V = kSemPmlPointValues;
    double in_old[V], in_new[V];
    for (int v = 0; v < V; ++v) {
        in_old[v] = prev[std::size_t(v) * stride];
        prev[std::size_t(v) * stride] = g[v];
        in_new[v] = g[v];
    }
    // Each stage's new values become the next stage's input, its old values the input a step back.
    for (int k = 0; k < poles; ++k) {
        double* phi = psi + std::size_t(k) * pole_stride;
        for (int v = 0; v < V; ++v) {
            const double old = phi[std::size_t(v) * stride];
            const double next = decay[k] * old + w_old[k] * in_old[v] + w_new[k] * in_new[v];
            phi[std::size_t(v) * stride] = next;
            in_old[v] = old;
            in_new[v] = next;
        }
    }
    auto change = [&](int f, int v) {
        return sem_pml_change(c0, newton, poles, f, g[v], psi + std::size_t(v) * stride, pole_stride);
    };
    for (int j = 0; j < 3; ++j) {
        double trace = 0;
        for (int k = 0; k < 3; ++k) trace += change(pml_filter(j, k), 4 * k);
        for (int i = 0; i < 3; ++i) {
            double tau = mu * (change(pml_filter(j, j), 3 * i + j) + change(pml_filter(j, i), 3 * j + i));
            if (i == j) tau += lambda * trace;
            t[std::size_t(3 * i + j) * t_stride] = s * tau;
        }
    }
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
