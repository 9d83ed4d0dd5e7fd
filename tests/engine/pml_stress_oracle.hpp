// The PML's stress moments written out from the voxel element's algebra, without the engine's
// pass (pml_element_kernel.hpp): the oracle of the CPU layer pass's test (test_pml_layer_pass.cpp)
// and of the CUDA pass's lane exchange (test_pml_warp_exchange.cpp). Only the layout comes from
// the engine: the moments' order (VoxelMoment), kPmlMomentValues per element and kPmlFilters.
#pragma once

#include "boundary/pml_layer.hpp"
#include "wave/pml_element_kernel.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave::test {

// T[o] of the filtered moment changes dS[f][v] (filters xx yy zz xy xz yz): for each of the
// element's 7 stress modes, sigma_ij = lambda delta_ij sum_k dF_jk G_kk + mu (dF_jj G_ij +
// dF_ji G_ji) with G_kl = dS[.][3 col[l] + k] (col: the moment of the mode's gradient column l,
// -1: none), T[3 col[j] + i] += sc * sigma_ij, sc the mode's scale (constant, linear, bilinear).
inline void plain_stress_moments(const double (*dS)[kPmlMomentValues], double lambda, double mu, const double sc[3],
                                 double* T) {
    const int cols[7][3] = {{kSx, kSy, kSz}, {-1, kSxy, kSxz}, {kSxy, -1, kSyz}, {kSxz, kSyz, -1},
                            {kSxyz, -1, -1}, {-1, kSxyz, -1},  {-1, -1, kSxyz}};
    const int scale[7] = {0, 1, 1, 1, 2, 2, 2};
    const auto filter = [](int j, int l) { return j == l ? j : j + l + 2; };  // xx yy zz xy xz yz
    for (int v = 0; v < kPmlMomentValues; ++v) T[v] = 0;
    for (int mode = 0; mode < 7; ++mode) {
        const int* col = cols[mode];
        for (int j = 0; j < 3; ++j) {
            if (col[j] < 0) continue;
            double trace = 0;
            for (int k = 0; k < 3; ++k)
                if (col[k] >= 0) trace += dS[filter(j, k)][3 * col[k] + k];
            for (int i = 0; i < 3; ++i) {
                double sigma = mu * dS[filter(j, j)][3 * col[j] + i];
                if (col[i] >= 0) sigma += mu * dS[filter(j, i)][3 * col[i] + j];
                if (i == j) sigma += lambda * trace;
                T[3 * col[j] + i] += sc[scale[mode]] * sigma;
            }
        }
    }
}

}  // namespace voxwave::test
