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

#include <cstdint>

#include "boundary/pml_layer.hpp"
#include "core/errors.hpp"
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
// pass's vector of 8 nodes (the same operations per lane). Table (a, decay, w_old, w_new) and
// Phi: pointers, or whatever indexes stage k (the CUDA pass's stage-major layout, PmlStages).
template <class T, class Table, class Phi>
VOXWAVE_HD T pml_node_update(T y_next, T u, T c0, Table a, Table decay, Table w_old, Table w_new, int poles, Phi phi,
                             int stride) {
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

// The terms of the 21 summed stress moments T of voxel_element_kernel.hpp in the layer's moment
// changes dS[f][v] (filter f = pml_filter(j, l)): visit(o, lambda_term, cls, f, v) for each term
// T[o] += sc[cls] * (lambda_term ? lambda : mu) * dS[f][v], sc the mode scales of the element's
// method, from
//     sigma_ij = lambda delta_ij sum_k dF_jk G_kk + mu (dF_jj G_ij + dF_ji G_ji),
// G_kl = S_col[l][k] of each stress mode. The CUDA pass builds its exchange of changes between
// the lanes of an element's warp from it (pml_correction_cuda.cu); the CPU pass sums the same
// terms in its own vectorised order (pml_correction_cpu.cpp, element_force).
template <class Visit>
void pml_for_each_stress_term(const Visit& visit) {
    // The 7 stress modes of the element: the moment that gradient column l of each has (-1: none)
    // and the class of its scale (constant, linear, bilinear).
    const int cols[7][3] = {{kSx, kSy, kSz}, {-1, kSxy, kSxz}, {kSxy, -1, kSyz}, {kSxz, kSyz, -1},
                            {kSxyz, -1, -1}, {-1, kSxyz, -1},  {-1, -1, kSxyz}};
    const int cls[7] = {0, 1, 1, 1, 2, 2, 2};
    for (int beta = 0; beta < 7; ++beta) {
        const int* col = cols[beta];
        for (int j = 0; j < 3; ++j) {
            if (col[j] < 0) continue;
            for (int i = 0; i < 3; ++i) {
                const int o = 3 * col[j] + i;
                visit(o, false, cls[beta], pml_filter(j, j), 3 * col[j] + i);
                if (col[i] >= 0) visit(o, false, cls[beta], pml_filter(j, i), 3 * col[i] + j);
                if (i == j)
                    for (int k = 0; k < 3; ++k)
                        if (col[k] >= 0) visit(o, true, cls[beta], pml_filter(j, k), 3 * col[k] + k);
            }
        }
    }
}

// The stress moments of an element summed by the lanes of a warp (the CUDA pass, one lane per
// moment value): lane o pulls, per filter f, the change dS[f][from(o, f)] from the lane of that
// value and makes T[o] = mu sum_f mu_w[o][f] x_f + lambda sum_f lambda_w[o][f] x_f, the weights
// being the mode scales of pml_for_each_stress_term's terms. Each stress moment reads at most one
// value of each filter (checked: else this throws), so one shuffle a filter serves all lanes.
// Lanes without a stress moment (21..31) and filters a moment does not read pull their own
// value with weight 0.
struct PmlStressExchange {
    static constexpr int kLanes = 32;
    std::uint32_t from[kLanes] = {};  // per lane: 5 bits a filter, the source lane of filter f at 5 f
    double mu_w[kLanes][kPmlFilters] = {};
    double lambda_w[kLanes][kPmlFilters] = {};
    int source(int o, int f) const { return int(from[o] >> (5 * f) & 31u); }
};
inline PmlStressExchange pml_stress_exchange(const double sc[3]) {
    PmlStressExchange x;
    int source[PmlStressExchange::kLanes][kPmlFilters];
    for (auto& row : source)
        for (int& s : row) s = -1;
    pml_for_each_stress_term([&](int o, bool lambda_term, int cls, int f, int v) {
        if (source[o][f] >= 0 && source[o][f] != v)
            throw RuntimeError("PML layer: a stress moment reads two values of one filter");
        source[o][f] = v;
        (lambda_term ? x.lambda_w : x.mu_w)[o][f] += sc[cls];
    });
    for (int o = 0; o < PmlStressExchange::kLanes; ++o)
        for (int f = 0; f < kPmlFilters; ++f)
            x.from[o] |= std::uint32_t(source[o][f] >= 0 ? source[o][f] : o) << (5 * f);
    return x;
}

}  // namespace voxwave
