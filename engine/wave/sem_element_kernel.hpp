// Spectral voxel element (run.method "sem"): each voxel one hexahedral spectral element of order
// p with (p + 1)^3 Gauss-Lobatto-Legendre (GLL) nodes, integrated on the same GLL points, so the
// mass is diagonal (docs/architecture.md#spectral-elements-sem).
//
// Why the sum-factorised form: the element stiffness is never formed. The displacement gradient
// at a quadrature point (a, b, c) along r_1 is sum_m D[a][m] u(m, b, c) (D the GLL derivative
// matrix, D[a][m] = l_m'(xi_a)): (p + 1) products for each of the (p + 1)^3 points, component and
// direction, O(p^4) an element instead of the O(p^6) of a dense 3 (p + 1)^3 matrix. The stress at
// each point is Hooke's law on the gradient, and the force is the transposed product,
//     f_i(n) = (ds / 2) sum_q w_q sum_d sigma_id(q) D[q_d][n_d] (other two indices of q equal n's),
// where ds / 2 = J (2 / ds)^2 collects the Jacobian (ds / 2)^3 of the cube and the two reference
// derivatives (2 / ds each): sigma here is Hooke's law on the reference gradient.
//
// Local node order: lexicographic, r_1 fastest, n = a + (p + 1) (b + (p + 1) c) for GLL indices
// a, b, c along x, y, z; dof (component i) of node n at i * (p + 1)^3 + n.
#pragma once

#include "core/host_device.hpp"
#include "scene/run_rules.hpp"

namespace voxwave {

// The 1D GLL tables of order p (nodes ascending on [-1, 1], weights, derivative matrix
// d[a * (p + 1) + m] = l_m'(xi_a)), fixed-size for the largest supported order.
struct GllTables {
    int order = 0;
    double xi[kSemMaxOrder + 1]{};
    double w[kSemMaxOrder + 1]{};
    double d[(kSemMaxOrder + 1) * (kSemMaxOrder + 1)]{};
};

// Nodes by Newton on (1 - x^2) P_p'(x), weights 2 / (p (p + 1) P_p(xi)^2), derivatives from the
// barycentric form of the Lagrange polynomials; order in kSemMinOrder..kSemMaxOrder.
GllTables gll_tables(int order);

// The three steps of f = K_e u, each for one point or node, so that the CPU loop (all points of
// an element in turn) and a GPU thread (one point each) run the same arithmetic. Arrays are
// component-major over the element's (P + 1)^3 points: u[i * N3 + q], t[(3 i + k) * N3 + q].
// d: the (P + 1)^2 derivative matrix, w: the (P + 1) weights. Real may be a vector of lanes
// (one element a lane, the CPU's SIMD form) while Coef, the element-independent tables, stays
// scalar; `Real x{}` is zero for both.

// Hooke's law on a point's reference gradient g[i][k] (d u_i / d r_k), weighted by s:
// t = {t_00, t_11, t_22, t_01, t_02, t_12} of s sigma (t is symmetric).
template <class Real, class Coef = Real>
VOXWAVE_HD_INLINE void sem_weighted_stress(const Real (&g)[3][3], Real lambda, Real mu, Coef s, Real* __restrict t) {
    const Real tr = lambda * (g[0][0] + g[1][1] + g[2][2]), two_mu = mu + mu;
    t[0] = s * (tr + two_mu * g[0][0]);
    t[1] = s * (tr + two_mu * g[1][1]);
    t[2] = s * (tr + two_mu * g[2][2]);
    t[3] = s * (mu * (g[0][1] + g[1][0]));
    t[4] = s * (mu * (g[0][2] + g[2][0]));
    t[5] = s * (mu * (g[1][2] + g[2][1]));
}

// The weighted stress at point (a, b, c): t_ik = (ds / 2) w_a w_b w_c sigma_ik(grad_r u).
template <int P, class Real, class Coef = Real>
VOXWAVE_HD_INLINE void sem_point_stress(const Coef* __restrict d, const Coef* __restrict w, Real lambda, Real mu,
                                        Coef half_ds, const Real* __restrict u, int a, int b, int c,
                                        Real* __restrict t) {
    constexpr int N = P + 1, N3 = N * N * N;
    Real g[3][3];
    for (int i = 0; i < 3; ++i) {
        const Real* ui = u + i * N3;
        Real gx{}, gy{}, gz{};
        for (int m = 0; m < N; ++m) {
            gx += d[a * N + m] * ui[m + N * (b + N * c)];
            gy += d[b * N + m] * ui[a + N * (m + N * c)];
            gz += d[c * N + m] * ui[a + N * (b + N * m)];
        }
        g[i][0] = gx;
        g[i][1] = gy;
        g[i][2] = gz;
    }
    const int q = a + N * (b + N * c);
    Real st[6];
    sem_weighted_stress<Real, Coef>(g, lambda, mu, half_ds * w[a] * w[b] * w[c], st);
    t[0 * N3 + q] = st[0];
    t[4 * N3 + q] = st[1];
    t[8 * N3 + q] = st[2];
    t[1 * N3 + q] = t[3 * N3 + q] = st[3];
    t[2 * N3 + q] = t[6 * N3 + q] = st[4];
    t[5 * N3 + q] = t[7 * N3 + q] = st[5];
}

// The force of component i at node (a, b, c) from the weighted stresses of every point:
// f_i = sum_m D[m][a] t_i0(m, b, c) + D[m][b] t_i1(a, m, c) + D[m][c] t_i2(a, b, m).
template <int P, class Real, class Coef = Real>
VOXWAVE_HD_INLINE Real sem_node_force(const Coef* __restrict d, const Real* __restrict t, int i, int a, int b, int c) {
    constexpr int N = P + 1, N3 = N * N * N;
    const Real* t0 = t + (3 * i + 0) * N3;
    const Real* t1 = t + (3 * i + 1) * N3;
    const Real* t2 = t + (3 * i + 2) * N3;
    Real s{};
    for (int m = 0; m < N; ++m) {
        s += d[m * N + a] * t0[m + N * (b + N * c)];
        s += d[m * N + b] * t1[a + N * (m + N * c)];
        s += d[m * N + c] * t2[a + N * (b + N * m)];
    }
    return s;
}

// f = K_e u of one element of order P (u, f: 3 (P + 1)^3 values; f is overwritten); t is
// scratch of 9 (P + 1)^3 values.
template <int P, class Real, class Coef = Real>
VOXWAVE_HD_INLINE void sem_element_force(const Coef* __restrict d, const Coef* __restrict w, Real lambda, Real mu,
                                         Coef half_ds, const Real* __restrict u, Real* __restrict t,
                                         Real* __restrict f) {
    constexpr int N = P + 1, N3 = N * N * N;
    for (int c = 0; c < N; ++c)
        for (int b = 0; b < N; ++b)
            for (int a = 0; a < N; ++a) sem_point_stress<P, Real, Coef>(d, w, lambda, mu, half_ds, u, a, b, c, t);
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < N; ++c)
            for (int b = 0; b < N; ++b)
                for (int a = 0; a < N; ++a)
                    f[i * N3 + a + N * (b + N * c)] = sem_node_force<P, Real, Coef>(d, t, i, a, b, c);
}

}  // namespace voxwave
