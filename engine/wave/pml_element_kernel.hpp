// The PML's correction of one layer element and one layer node, written once for the CPU pass
// (pml_correction_cpu.hpp) and a CUDA mirror: plain FP64 arithmetic on flat arrays.
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

// One stage of the chain for n values: phi+ = decay phi + w_old in- + w_new in+, and then its
// old and new values become the next stage's input (in_old = phi-, in_new = phi+).
VOXWAVE_HD void pml_advance(double* phi, double* in_old, double* in_new, int n, double decay, double w_old,
                            double w_new) {
    for (int v = 0; v < n; ++v) {
        const double old = phi[v];
        phi[v] = decay * old + w_old * in_old[v] + w_new * in_new[v];
        in_old[v] = old;
        in_new[v] = phi[v];
    }
}

// u+ of one component of a layer node from its stretched displacement y+ = c0 u+ + sum_k a_k
// phi_k+, and its chained convolutions phi_k (phi_0 = u) advanced to phi_k+; pole(k) gives stage
// k's {a_k, decay, w_old, w_new, &phi_k}. Each stage is linear in u+: phi_k+ = K_k + L_k u+,
// K_k = decay phi_k + w_old phi_{k-1}- + w_new K_{k-1}, L_k = w_new L_{k-1} (K_0 = 0, L_0 = 1,
// phi_0- = u).
struct PmlNodePole {
    double a, decay, w_old, w_new;
    double* phi;
};
template <class Pole>
VOXWAVE_HD_INLINE double pml_node_update(double y_next, double u, double c0, int poles, const Pole& pole) {
    double in_old = u, K = 0, L = 1, known = y_next, denominator = c0;
    for (int k = 0; k < poles; ++k) {
        const PmlNodePole p = pole(k);
        const double old = *p.phi;
        K = p.decay * old + p.w_old * in_old + p.w_new * K;
        L *= p.w_new;
        *p.phi = K;
        in_old = old;
        known -= p.a * K;
        denominator += p.a * L;
    }
    const double u_plus = known / denominator;
    L = 1;
    for (int k = 0; k < poles; ++k) {
        const PmlNodePole p = pole(k);
        L *= p.w_new;
        *p.phi += L * u_plus;
    }
    return u_plus;
}

// The element's stress modes: visit(col, cls, j) for every stress column j of every mode (in the
// order the force sums them), col[l] the moment that gradient column l of the mode has (-1:
// none), cls the class of its scale (constant, linear, bilinear). Its stresses sigma_ij (i = 0..2)
// go into the stress moments T[3 col[j] + i].
template <class Visit>
VOXWAVE_HD_INLINE void pml_for_each_mode_column(const Visit& visit) {
    const int cols[7][3] = {{kSx, kSy, kSz}, {-1, kSxy, kSxz}, {kSxy, -1, kSyz}, {kSxz, kSyz, -1},
                            {kSxyz, -1, -1}, {-1, kSxyz, -1},  {-1, -1, kSxyz}};
    const int cls[7] = {0, 1, 1, 1, 2, 2, 2};
    // Unrolled on the GPU, so that the tables fold into constants (not a local-memory array).
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int beta = 0; beta < 7; ++beta)
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int j = 0; j < 3; ++j)
            if (cols[beta][j] >= 0) visit(cols[beta], cls[beta], j);
}

// The filtered trace sum_k F_jk G_kk of stress column j of the mode with gradient columns col
// (G_kl = S_col[l][k]), on the moment changes dS(f, 3 P + i) (filter f = pml_filter(j, l)).
template <class Changes>
VOXWAVE_HD_INLINE double pml_mode_trace(const int* col, int j, const Changes& dS) {
    double trace = 0;
    for (int k = 0; k < 3; ++k)
        if (col[k] >= 0) trace += dS(pml_filter(j, k), 3 * col[k] + k);
    return trace;
}

// sigma_ij = lambda delta_ij trace + mu (F_jj G_ij + F_ji G_ji) of that mode: with
// pml_mode_trace, the one home of which filtered moment enters which stress.
template <class Changes>
VOXWAVE_HD_INLINE double pml_mode_stress(const int* col, int j, int i, const Changes& dS, double lambda, double mu,
                                         double trace) {
    double sigma = mu * dS(pml_filter(j, j), 3 * col[j] + i);
    if (col[i] >= 0) sigma += mu * dS(pml_filter(j, i), 3 * col[i] + j);
    if (i == j) sigma += lambda * trace;
    return sigma;
}

// f (24 dofs) = the force of the moment changes dS[f][3 P + i] (filter f = pml_filter(j, l))
// with Lame constants lambda, mu and the mode scales sc of the element's method: the CPU pass,
// which builds all six filters' changes at once (vectorised over the 21 values) and then the
// force.
VOXWAVE_HD void pml_element_force(const double (*dS)[kPmlMomentValues], double lambda, double mu, const double sc[3],
                                  double* f) {
    double T[kPmlMomentValues] = {};
    const auto changes = [&](int fl, int v) { return dS[fl][v]; };
    pml_for_each_mode_column([&](const int* col, int cls, int j) {
        const double trace = pml_mode_trace(col, j, changes);
        for (int i = 0; i < 3; ++i)
            T[3 * col[j] + i] += sc[cls] * pml_mode_stress(col, j, i, changes, lambda, mu, trace);
    });
    voxel_corner_scatter(T, f);
}

// One summed stress moment T[o] of pml_element_force (the same terms in the same order): the
// CUDA pass makes each with its own thread.
template <class Changes>
VOXWAVE_HD_INLINE double pml_stress_moment(int o, const Changes& dS, double lambda, double mu, const double sc[3]) {
    double T = 0;
    pml_for_each_mode_column([&](const int* col, int cls, int j) {
        const int i = o - 3 * col[j];
        if (i < 0 || i > 2) return;
        const double trace = i == j ? pml_mode_trace(col, j, dS) : 0.0;
        T += sc[cls] * pml_mode_stress(col, j, i, dS, lambda, mu, trace);
    });
    return T;
}

// The filters whose change of moment value v enters the force (bit f: filter f): a value's chain
// needs only the stages whose coefficients of those filters are not all 0.
inline unsigned pml_value_filters(int v) {
    unsigned mask = 0;
    const auto record = [&](int fl, int w) {
        if (w == v) mask |= 1u << fl;
        return 0.0;
    };
    pml_for_each_mode_column([&](const int* col, int, int j) {
        const double trace = pml_mode_trace(col, j, record);
        for (int i = 0; i < 3; ++i) pml_mode_stress(col, j, i, record, 1.0, 1.0, trace);
    });
    return mask;
}

}  // namespace voxwave
