// The PML's correction of one layer element and one layer node, written once for the CPU pass
// (pml_correction_cpu.hpp) and a CUDA mirror: plain FP64 arithmetic on flat arrays.
//
// An element's stiffness force in the layer is the interior one (voxel_element_kernel.hpp) with
// each gradient moment G_kl, where it enters stress column j, replaced by F_jl * G_kl (the
// filters of pml_layer.hpp). The stiffness product has already added the interior force K_e w,
// so this adds only the difference: the same moment algebra on dG = (F_jl - 1) * G =
// (F_jl(inf) - 1) G + sum_p r_jl,p psi_p(G), psi_p the convolutions of the element's 21 distinct
// moments with exp(-p t). An element with s = 1 on every axis adds exactly 0.
#pragma once

#include "boundary/pml_layer.hpp"
#include "core/host_device.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

// The 7 signed corner sums of voxel_element_kernel.hpp, in this order.
enum PmlMoment { kSx, kSy, kSz, kSxy, kSxz, kSyz, kSxyz, kPmlMoments };
inline constexpr int kPmlMomentValues = 3 * kPmlMoments;  // 21 per element: moment P of component i at 3 P + i

// The sign of corner (a, b, c) in moment P: the product of -1 / +1 over the axes in P.
VOXWAVE_HD constexpr double pml_moment_sign(int P, int a, int b, int c) {
    const int mask[kPmlMoments] = {1, 2, 4, 3, 5, 6, 7};
    const int m = mask[P];
    double s = 1;
    if (m & 1) s *= a ? 1 : -1;
    if (m & 2) s *= b ? 1 : -1;
    if (m & 4) s *= c ? 1 : -1;
    return s;
}

// The 21 moments S_P[i] of the 24 element dofs w (local node order).
VOXWAVE_HD void pml_element_moments(const double* w, double* S) {
    for (int P = 0; P < kPmlMoments; ++P)
        for (int i = 0; i < 3; ++i) {
            double s = 0;
            for (int c = 0; c < 2; ++c)
                for (int b = 0; b < 2; ++b)
                    for (int a = 0; a < 2; ++a) s += pml_moment_sign(P, a, b, c) * w[3 * voxel_local_node(a, b, c) + i];
            S[3 * P + i] = s;
        }
}

// psi+ = decay psi + w_old g- + w_new g for n values.
VOXWAVE_HD void pml_advance(double* psi, const double* g_old, const double* g, int n, double decay, double w_old,
                            double w_new) {
    for (int v = 0; v < n; ++v) psi[v] = decay * psi[v] + w_old * g_old[v] + w_new * g[v];
}

// f (24 dofs) = the force of the moment changes dS[f][3 P + i] (filter f = pml_filter(j, l))
// with Lame constants lambda, mu and the mode scales sc of the element's method.
VOXWAVE_HD void pml_element_force(const double (*dS)[kPmlMomentValues], double lambda, double mu, const double sc[3],
                                  double* f) {
    // The 7 stress modes of the element: the moment that gradient column l of each has (-1: none)
    // and the class of its scale (constant, linear, bilinear).
    const int cols[7][3] = {{kSx, kSy, kSz}, {-1, kSxy, kSxz}, {kSxy, -1, kSyz}, {kSxz, kSyz, -1},
                            {kSxyz, -1, -1}, {-1, kSxyz, -1},  {-1, -1, kSxyz}};
    const int cls[7] = {0, 1, 1, 1, 2, 2, 2};
    double T[kPmlMomentValues] = {};
    for (int beta = 0; beta < 7; ++beta) {
        const int* col = cols[beta];
        for (int j = 0; j < 3; ++j) {
            if (col[j] < 0) continue;
            // sigma_ij = lambda delta_ij sum_k F_jk G_kk + mu (F_jj G_ij + F_ji G_ji), G_kl = S_col[l][k].
            double trace = 0;
            for (int k = 0; k < 3; ++k)
                if (col[k] >= 0) trace += dS[pml_filter(j, k)][3 * col[k] + k];
            for (int i = 0; i < 3; ++i) {
                double sigma = mu * dS[pml_filter(j, j)][3 * col[j] + i];
                if (col[i] >= 0) sigma += mu * dS[pml_filter(j, i)][3 * col[i] + j];
                if (i == j) sigma += lambda * trace;
                T[3 * col[j] + i] += sc[cls[beta]] * sigma;
            }
        }
    }
    for (int c = 0; c < 2; ++c)
        for (int b = 0; b < 2; ++b)
            for (int a = 0; a < 2; ++a)
                for (int i = 0; i < 3; ++i) {
                    double v = 0;
                    for (int P = 0; P < kPmlMoments; ++P) v += pml_moment_sign(P, a, b, c) * T[3 * P + i];
                    f[3 * voxel_local_node(a, b, c) + i] = v;
                }
}

}  // namespace voxwave
