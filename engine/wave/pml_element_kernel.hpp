// The PML's correction of one layer element and one layer node, shared by the CPU pass
// (pml_correction_cpu.hpp) and its CUDA mirror: plain FP64 arithmetic on flat arrays.
//
// An element's stiffness force in the layer is the interior one (voxel_element_kernel.hpp) with
// each gradient moment G_kl, where it enters stress column j, replaced by F_jl * G_kl (the
// filters of pml_layer.hpp). The stiffness product has already added the interior force K_e w,
// so this adds only the difference: the same moment algebra on dG = (F_jl - 1) * G =
// (F_jl(inf) - 1) G + sum_k a_jl,k phi_k(G), phi_k the chained convolutions of the element's 21
// distinct moments (Newton form, pml_layer.hpp). An element with s = 1 on every axis adds exactly 0.
#pragma once

#include "boundary/pml_layer.hpp"
#include "core/host_device.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

// The 7 signed corner sums of voxel_element_kernel.hpp (VoxelMoment), 21 values per element:
// moment P of component i at 3 P + i (voxel_corner_moments, voxel_corner_scatter).
inline constexpr int kPmlMoments = kVoxelMoments;
inline constexpr int kPmlMomentValues = 3 * kPmlMoments;

// u+ of one component of a layer node from its stretched displacement y+ = c0 u+ + sum_k a_k
// phi_k+, and its chained convolutions phi_k (phi_0 = u; phi[k * stride]) advanced to phi_k+.
// Each stage is linear in u+: phi_k+ = K_k + L_k u+, K_k = decay phi_k + w_old phi_{k-1}- +
// w_new K_{k-1}, L_k = w_new L_{k-1} (K_0 = 0, L_0 = 1, phi_0- = u). T: double, or the CPU
// pass's vector of 8 nodes (the same operations per lane).
template <class T>
VOXWAVE_HD T pml_node_update(T y_next, T u, T c0, const T* a, const T* decay, const T* w_old, const T* w_new, int poles,
                             T* phi, int stride) {
    T in_old = u, K{}, L = T{} + 1.0, known = y_next, denominator = c0;
    for (int k = 0; k < poles; ++k) {
        const T old = phi[k * stride];
        K = decay[k] * old + w_old[k] * in_old + w_new[k] * K;
        L *= w_new[k];
        phi[k * stride] = K;
        in_old = old;
        known -= a[k] * K;
        denominator += a[k] * L;
    }
    const T u_plus = known / denominator;
    L = T{} + 1.0;
    for (int k = 0; k < poles; ++k) {
        L *= w_new[k];
        phi[k * stride] += L * u_plus;
    }
    return u_plus;
}

// T (the 21 summed stress moments of voxel_element_kernel.hpp) += those of the moment changes
// dS[f][3 P + i] = coef[f] X[3 P + i] (filter f = pml_filter(j, l)) with Lame constants lambda,
// mu and the mode scales sc of the element's method. The layer's force is linear in the changes
// dS = c0 S + sum_k a_k phi_k, so it is summed here term by term (the constants on S, then each
// chain stage as it is advanced): only the 21 T and one stage's 21 values are live, never the
// 6 x 21 changes of all six filters at once (a CUDA thread's registers). The CPU pass, 8
// elements a vector, builds the changes of the filters that change and then the force
// (pml_correction_cpu.cpp, element_force): the same force summed in another order.
VOXWAVE_HD_INLINE void pml_add_stress_moments(const double* X, const double* coef, double lambda, double mu,
                                              const double sc[3], double* T) {
    // The 7 stress modes of the element: the moment that gradient column l of each has (-1: none)
    // and the class of its scale (constant, linear, bilinear).
    const int cols[7][3] = {{kSx, kSy, kSz}, {-1, kSxy, kSxz}, {kSxy, -1, kSyz}, {kSxz, kSyz, -1},
                            {kSxyz, -1, -1}, {-1, kSxyz, -1},  {-1, -1, kSxyz}};
    const int cls[7] = {0, 1, 1, 1, 2, 2, 2};
    for (int beta = 0; beta < 7; ++beta) {
        const int* col = cols[beta];
        for (int j = 0; j < 3; ++j) {
            if (col[j] < 0) continue;
            // sigma_ij = lambda delta_ij sum_k F_jk G_kk + mu (F_jj G_ij + F_ji G_ji), G_kl = S_col[l][k].
            double trace = 0;
            for (int k = 0; k < 3; ++k)
                if (col[k] >= 0) trace += coef[pml_filter(j, k)] * X[3 * col[k] + k];
            for (int i = 0; i < 3; ++i) {
                double sigma = mu * (coef[pml_filter(j, j)] * X[3 * col[j] + i]);
                if (col[i] >= 0) sigma += mu * (coef[pml_filter(j, i)] * X[3 * col[i] + j]);
                if (i == j) sigma += lambda * trace;
                T[3 * col[j] + i] += sc[cls[beta]] * sigma;
            }
        }
    }
}

}  // namespace voxwave
