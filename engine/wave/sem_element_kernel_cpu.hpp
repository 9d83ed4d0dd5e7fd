// The CPU's form of the spectral element kernel (sem_element_kernel.hpp states the element and
// its sum factorisation): f = K_e u for L elements at once, one a SIMD lane, computed line by line
// instead of point by point, with the even-odd split of the 1D operators.
//
// Why line by line: the shared kernel's point form (one GPU thread a point) reads p + 1 values and
// p + 1 coefficients for every product, so on the CPU it is bound by loads; along a line of p + 1
// points the values are loaded once and give all p + 1 results. Why even-odd: the GLL nodes are
// symmetric, so D[p - a][p - m] = -D[a][m] (and the same for D^T): with x_e = x_m + x_{p-m} and
// x_o = x_m - x_{p-m}, the sums y_a - y_{p-a} and y_a + y_{p-a} take the even and odd parts with
// half-size tables, 20 operations a line at p = 4 instead of 25 multiply-adds, and 12 coefficients
// instead of 25.
//
// The sums run in another order than the shared kernel's: the results agree with it to rounding
// (tests/engine/test_sem_element.cpp), not bit for bit.
#pragma once

#include "wave/sem_element_kernel.hpp"

namespace voxwave {

// y_a = sum_m M[a][m] x_m (a, m in 0..P) for an (P + 1)^2 matrix with M[P - a][P - m] = -M[a][m],
// through the half-size tables of the even-odd split.
template <int P, class Coef>
struct SemEvenOddOperator {
    static constexpr int N = P + 1, H = N / 2;  // H pairs (m, P - m) with m < P - m
    static constexpr bool kMid = P % 2 == 0;    // the middle index P / 2
    Coef even[H][H]{}, odd[H][H]{}, even_mid[H]{}, mid_odd[H]{};

    SemEvenOddOperator() = default;
    // m: M[a * (P + 1) + m], in double so that the tables round once.
    explicit SemEvenOddOperator(const double* m) {
        for (int a = 0; a < H; ++a) {
            for (int k = 0; k < H; ++k) {
                even[a][k] = static_cast<Coef>(0.5 * (m[a * N + k] + m[a * N + P - k]));
                odd[a][k] = static_cast<Coef>(0.5 * (m[a * N + k] - m[a * N + P - k]));
            }
            if (kMid) even_mid[a] = static_cast<Coef>(m[a * N + P / 2]);
        }
        if (kMid)
            for (int k = 0; k < H; ++k) mid_odd[k] = static_cast<Coef>(m[(P / 2) * N + k]);
    }

    // y[a * sy] (= or, Add, +=) sum_m M[a][m] x[m * sx].
    template <bool Add, class Vec>
    inline void apply(const Vec* __restrict x, int sx, Vec* __restrict y, int sy) const {
        Vec xe[H], xo[H];
        for (int k = 0; k < H; ++k) {
            const Vec lo = x[k * sx], hi = x[(P - k) * sx];
            xe[k] = lo + hi;
            xo[k] = lo - hi;
        }
        for (int a = 0; a < H; ++a) {
            Vec e = kMid ? even_mid[a] * x[(P / 2) * sx] : Vec{};
            Vec o{};
            for (int k = 0; k < H; ++k) {
                e += even[a][k] * xe[k];
                o += odd[a][k] * xo[k];
            }
            if (Add) {
                y[a * sy] += o + e;
                y[(P - a) * sy] += o - e;
            } else {
                y[a * sy] = o + e;
                y[(P - a) * sy] = o - e;
            }
        }
        if (kMid) {
            Vec s{};
            for (int k = 0; k < H; ++k) s += mid_odd[k] * xo[k];
            if (Add)
                y[(P / 2) * sy] += s;
            else
                y[(P / 2) * sy] = s;
        }
    }
};

// The element-independent tables of the CPU kernel of order P.
template <int P, class Coef>
struct SemKernelTablesCpu {
    static constexpr int N = P + 1, N3 = N * N * N;
    SemEvenOddOperator<P, Coef> grad;   // D: the reference gradient along a line
    SemEvenOddOperator<P, Coef> force;  // D^T: the transposed product
    Coef weight[N3]{};                  // (ds / 2) w_a w_b w_c of each point

    SemKernelTablesCpu() = default;
    SemKernelTablesCpu(const GllTables& gll, double half_ds) {
        double dt[N * N];
        for (int a = 0; a < N; ++a)
            for (int m = 0; m < N; ++m) dt[a * N + m] = gll.d[m * N + a];
        grad = SemEvenOddOperator<P, Coef>(gll.d);
        force = SemEvenOddOperator<P, Coef>(dt);
        for (int c = 0; c < N; ++c)
            for (int b = 0; b < N; ++b)
                for (int a = 0; a < N; ++a)
                    weight[a + N * (b + N * c)] = static_cast<Coef>(half_ds * gll.w[a] * gll.w[b] * gll.w[c]);
    }
};

// f = K_e u of L elements (Vec: one lane each; u, f: 3 (P + 1)^3 vectors, component-major, f
// overwritten), lambda and mu per lane; g is scratch of 9 (P + 1)^3 vectors.
template <int P, class Vec, class Coef>
inline void sem_element_force_cpu(const SemKernelTablesCpu<P, Coef>& tab, Vec lambda, Vec mu, const Vec* __restrict u,
                                  Vec* __restrict g, Vec* __restrict f) {
    constexpr int N = P + 1, NN = N * N, N3 = NN * N;
    // The reference gradient: g[(3 i + d) N3 + q] = d u_i / d r_d at point q.
    for (int i = 0; i < 3; ++i) {
        const Vec* ui = u + i * N3;
        Vec* gx = g + (3 * i + 0) * N3;
        Vec* gy = g + (3 * i + 1) * N3;
        Vec* gz = g + (3 * i + 2) * N3;
        for (int l = 0; l < NN; ++l) tab.grad.template apply<false>(ui + l * N, 1, gx + l * N, 1);
        for (int c = 0; c < N; ++c)
            for (int a = 0; a < N; ++a) tab.grad.template apply<false>(ui + a + c * NN, N, gy + a + c * NN, N);
        for (int l = 0; l < NN; ++l) tab.grad.template apply<false>(ui + l, NN, gz + l, NN);
    }
    // The weighted stress, in place: slots 0..5 of point q take xx, yy, zz, yz, xz, xy.
    const Vec two_mu = mu + mu;
    for (int q = 0; q < N3; ++q) {
        Vec gr[9];
        for (int k = 0; k < 9; ++k) gr[k] = g[k * N3 + q];
        const Coef s = tab.weight[q];
        const Vec tr = lambda * (gr[0] + gr[4] + gr[8]);
        g[0 * N3 + q] = s * (tr + two_mu * gr[0]);
        g[1 * N3 + q] = s * (tr + two_mu * gr[4]);
        g[2 * N3 + q] = s * (tr + two_mu * gr[8]);
        g[3 * N3 + q] = s * (mu * (gr[5] + gr[7]));
        g[4 * N3 + q] = s * (mu * (gr[2] + gr[6]));
        g[5 * N3 + q] = s * (mu * (gr[1] + gr[3]));
    }
    // f_i = D^T along x of t_i0 + along y of t_i1 + along z of t_i2.
    constexpr int kSlot[3][3] = {{0, 5, 4}, {5, 1, 3}, {4, 3, 2}};
    for (int i = 0; i < 3; ++i) {
        const Vec* tx = g + kSlot[i][0] * N3;
        const Vec* ty = g + kSlot[i][1] * N3;
        const Vec* tz = g + kSlot[i][2] * N3;
        Vec* fi = f + i * N3;
        for (int l = 0; l < NN; ++l) tab.force.template apply<false>(tx + l * N, 1, fi + l * N, 1);
        for (int c = 0; c < N; ++c)
            for (int a = 0; a < N; ++a) tab.force.template apply<true>(ty + a + c * NN, N, fi + a + c * NN, N);
        for (int l = 0; l < NN; ++l) tab.force.template apply<true>(tz + l, NN, fi + l, NN);
    }
}

}  // namespace voxwave
