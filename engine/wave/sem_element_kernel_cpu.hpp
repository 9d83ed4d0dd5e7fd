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
            // Started from the first product, not from zero: x + 0 is not free in IEEE arithmetic.
            Vec e = even[a][0] * xe[0], o = odd[a][0] * xo[0];
            for (int k = 1; k < H; ++k) {
                e += even[a][k] * xe[k];
                o += odd[a][k] * xo[k];
            }
            if (kMid) e += even_mid[a] * x[(P / 2) * sx];
            if (Add) {
                y[a * sy] += o + e;
                y[(P - a) * sy] += o - e;
            } else {
                y[a * sy] = o + e;
                y[(P - a) * sy] = o - e;
            }
        }
        if (kMid) {
            Vec m = mid_odd[0] * xo[0];
            for (int k = 1; k < H; ++k) m += mid_odd[k] * xo[k];
            if (Add)
                y[(P / 2) * sy] += m;
            else
                y[(P / 2) * sy] = m;
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
// overwritten), lambda and mu per lane; g is scratch of 3 (P + 1)^3 + 6 (P + 1)^2 vectors.
//
// Slice by slice along z: the z derivatives of the whole element first, then for each z slice its
// x and y derivatives, the stress and the slice's x and y transposed products, and the z products
// of the stress last. Why: a point-major pass needs the nine gradients of all points at once
// (72 KB in FP32 lanes, beyond the L1 cache); this way only the z parts of the gradient and stress
// span the element, and the rest of the work stays in one slice.
template <int P, class Vec, class Coef>
inline void sem_element_force_cpu(const SemKernelTablesCpu<P, Coef>& tab, Vec lambda, Vec mu, const Vec* __restrict u,
                                  Vec* __restrict g, Vec* __restrict f) {
    constexpr int N = P + 1, NN = N * N, N3 = NN * N;
    // gz[i N3 + q]: d u_i / d r_z at point q, then the stress t_iz there.
    Vec* gz = g;
    // One slice's d u_i / d r_x and d u_i / d r_y (i NN + point), then t_ix and t_iy.
    Vec* sx = g + 3 * N3;
    Vec* sy = sx + 3 * NN;
    for (int i = 0; i < 3; ++i)
        for (int l = 0; l < NN; ++l) tab.grad.template apply<false>(u + i * N3 + l, NN, gz + i * N3 + l, NN);
    for (int c = 0; c < N; ++c) {
        for (int i = 0; i < 3; ++i) {
            const Vec* ui = u + i * N3 + c * NN;
            for (int b = 0; b < N; ++b) tab.grad.template apply<false>(ui + b * N, 1, sx + i * NN + b * N, 1);
            for (int a = 0; a < N; ++a) tab.grad.template apply<false>(ui + a, N, sy + i * NN + a, N);
        }
        for (int p = 0; p < NN; ++p) {
            const int q = c * NN + p;
            const Vec g00 = sx[p], g01 = sy[p], g02 = gz[q];
            const Vec g10 = sx[NN + p], g11 = sy[NN + p], g12 = gz[N3 + q];
            const Vec g20 = sx[2 * NN + p], g21 = sy[2 * NN + p], g22 = gz[2 * N3 + q];
            const Coef s = tab.weight[q];
            const Vec sm = s * mu, sm2 = sm + sm, tr = (s * lambda) * (g00 + g11 + g22);
            const Vec xx = tr + sm2 * g00, yy = tr + sm2 * g11, zz = tr + sm2 * g22;
            const Vec yz = sm * (g12 + g21), xz = sm * (g02 + g20), xy = sm * (g01 + g10);
            sx[p] = xx;
            sx[NN + p] = xy;
            sx[2 * NN + p] = xz;
            sy[p] = xy;
            sy[NN + p] = yy;
            sy[2 * NN + p] = yz;
            gz[q] = xz;
            gz[N3 + q] = yz;
            gz[2 * N3 + q] = zz;
        }
        // f_i = D^T along x of t_ix + along y of t_iy (+ along z of t_iz below).
        for (int i = 0; i < 3; ++i) {
            Vec* fi = f + i * N3 + c * NN;
            for (int b = 0; b < N; ++b) tab.force.template apply<false>(sx + i * NN + b * N, 1, fi + b * N, 1);
            for (int a = 0; a < N; ++a) tab.force.template apply<true>(sy + i * NN + a, N, fi + a, N);
        }
    }
    for (int i = 0; i < 3; ++i)
        for (int l = 0; l < NN; ++l) tab.force.template apply<true>(gz + i * N3 + l, NN, f + i * N3 + l, NN);
}

}  // namespace voxwave
