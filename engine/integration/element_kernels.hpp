// The per-integration-point work every backend and variant shares (docs/architecture.md#layers: written once
// for CPU and CUDA): the Jacobian terms of the geometric map, physical derivatives of a shape
// function, and the contraction of the per-pair integrals M_p(a, b) with the coefficient array.
//
// Every variant computes, for each problem pair p = (i_d, j_d),
//   M_p(a, b) = sum_q w_q det J_q  D_{i_d}(a, q) D_{j_d}(b, q)
// (D_0 = the function, D_k = its physical x_k derivative) and then
//   K[(a, ie), (b, je)] = sum_p C[ie][je][i_d][j_d] M_p(a, b),
// which equals seed 003's Algorithm 1 because C is constant on an element.
#pragma once

#include "core/host_device.hpp"

namespace voxwave::integration {

// Jacobian terms at one point: jf[r * 3 + k] = (J^-1)[r][k] = d xi_r / d x_k, jf[9] = w det J.
// xv: vertex coordinates [v * 3 + c]; geo: map functions and derivatives [d * nv + v].
// Returns det J (a non-positive value means an inverted element).
template <class Real>
VOXWAVE_HD Real jacobian_terms(const Real* xv, const Real* geo, int nv, Real w, Real* jf) {
    // Coordinates relative to vertex 0 (the map's derivatives sum to zero, so J is unchanged):
    // an element far from the origin then loses no FP32 digits to cancellation.
    Real j[3][3] = {};  // j[c][r] = d x_c / d xi_r
    for (int v = 1; v < nv; ++v)
        for (int r = 0; r < 3; ++r) {
            const Real g = geo[(r + 1) * nv + v];
            for (int c = 0; c < 3; ++c) j[c][r] += (xv[v * 3 + c] - xv[c]) * g;
        }
    const Real c00 = j[1][1] * j[2][2] - j[1][2] * j[2][1];
    const Real c01 = j[1][2] * j[2][0] - j[1][0] * j[2][2];
    const Real c02 = j[1][0] * j[2][1] - j[1][1] * j[2][0];
    const Real det = j[0][0] * c00 + j[0][1] * c01 + j[0][2] * c02;
    const Real inv = Real(1) / det;
    // (J^-1)[r][k] = cofactor(k, r) / det
    jf[0] = c00 * inv;
    jf[3] = c01 * inv;
    jf[6] = c02 * inv;
    jf[1] = (j[0][2] * j[2][1] - j[0][1] * j[2][2]) * inv;
    jf[4] = (j[0][0] * j[2][2] - j[0][2] * j[2][0]) * inv;
    jf[7] = (j[0][1] * j[2][0] - j[0][0] * j[2][1]) * inv;
    jf[2] = (j[0][1] * j[1][2] - j[0][2] * j[1][1]) * inv;
    jf[5] = (j[0][2] * j[1][0] - j[0][0] * j[1][2]) * inv;
    jf[8] = (j[0][0] * j[1][1] - j[0][1] * j[1][0]) * inv;
    jf[9] = w * det;
    return det;
}

// Function value and physical gradient of shape a at one point: out[0] = phi, out[1 + k] =
// sum_r dphi/dxi_r (J^-1)[r][k]. phi: [d * nsh + a] at this point.
// kValue = false skips the value (out[0] = 0): gradient-only problems then read 3 of the 4 tables.
template <class Real, bool kValue = true>
VOXWAVE_HD void physical_derivatives(const Real* phi, int nsh, int a, const Real* jf, Real* out) {
    const Real d1 = phi[nsh + a], d2 = phi[2 * nsh + a], d3 = phi[3 * nsh + a];
    out[0] = kValue ? phi[a] : Real(0);
    for (int k = 0; k < 3; ++k) out[1 + k] = d1 * jf[k] + d2 * jf[3 + k] + d3 * jf[6 + k];
}

// Writes the n_e x n_e block of shapes (a, b) into the element matrix K (row-major, n = n_e nsh).
template <class Pairs, class Real, class Acc>
VOXWAVE_HD void store_block(const Acc* m, const Real* packed_c, int nsh, int a, int b, Real* k) {
    constexpr int ne = Pairs::equations, np = Pairs::pairs;
    const long n = long(ne) * nsh;
    for (int ie = 0; ie < ne; ++ie)
        for (int je = 0; je < ne; ++je) {
            Acc s = 0;
            for (int p = 0; p < np; ++p) s += Acc(packed_c[(ie * ne + je) * np + p]) * m[p];
            k[(long(a) * ne + ie) * n + long(b) * ne + je] = Real(s);
        }
}

}  // namespace voxwave::integration
