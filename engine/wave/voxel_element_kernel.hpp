// Element force f_e = K_e u_e of one voxel element, VFEM and OVFEM, in "moment form".
//
// Why this form: for a cube both methods need only the 36 edge differences of the 8 corner
// displacements. Along direction k the 4 parallel edges (one per quadrant q of the other two
// local coordinates) give differences d_q; their signed sums (a 4-point Hadamard transform)
// are the moments of du/dr_k against psi in {1, r_a, r_b, r_a r_b} (a, b != k). The stiffness
// is then
//     K = (ds/2) sum_beta (w_beta^2 / |psi_beta|^2) B_beta^t C B_beta,
// where beta runs over the 7 stress modes psi = {1, r1, r2, r3, r1r2, r2r3, r1r3} of OVFEM
// (seed 000 eqs. 5, 8), |psi|^2 = 8, 8/3, 8/9 on the reference cube and the quadrant weights
// w are
//   OVFEM (octant Heaviside basis, eq. 7):    w = 1, 1/2, 1/4   (integral of psi over a quadrant)
//   VFEM  (trilinear, exact 2x2x2 Gauss):     w = 1, 1/3, 1/9   (integral of psi times the bilinear edge weight)
// For VFEM the strain of a trilinear field lies in span(psi), so this is the exact integral,
// i.e. the 2x2x2 Gauss stiffness; tests compare it with an independently written Gauss loop.
// Cost: ~330 flops per element instead of 1152 for a dense 24x24 product, no element matrix
// in memory, and the same code for every material (only lambda and mu change).
//
// Local node order (DESIGN §3): r = (-1,-1,-1), (1,-1,-1), (1,1,-1), (-1,1,-1), then the same
// with r3 = +1; dof = 3 * node + component.
#pragma once

#include "core/host_device.hpp"

namespace voxwave {

// Per-mode-class scale factors (ds/2) w^2 / |psi|^2 for the constant, linear and bilinear modes.
struct ModeScales {
    double constant = 0, linear = 0, bilinear = 0;
};

enum class ElementMethod { Vfem, Ovfem };

inline ModeScales mode_scales(ElementMethod m, double ds) {
    const double h = 0.5 * ds;
    if (m == ElementMethod::Ovfem) return {h / 8.0, h * 0.25 * 3.0 / 8.0, h * 0.0625 * 9.0 / 8.0};
    return {h / 8.0, h * (1.0 / 9.0) * 3.0 / 8.0, h * (1.0 / 81.0) * 9.0 / 8.0};
}

// Corner (a, b, c) in {0,1}^3 along (x, y, z) -> local node number.
VOXWAVE_HD constexpr int voxel_local_node(int a, int b, int c) { return 4 * c + (b ? (a ? 2 : 3) : (a ? 1 : 0)); }

// Isotropic stress of a displacement-gradient moment g (g[i][k] = moment of du_i/dr_k) with the
// mode scale s already in the constants (ls = s lambda, ms = s mu, m2s = 2 s mu):
// out = s (lambda tr(g) I + mu (g + g^t)).
template <class Real>
VOXWAVE_HD_INLINE void voxel_isotropic_stress(const Real g[3][3], Real ls, Real ms, Real m2s, Real out[3][3]) {
    const Real lt = ls * (g[0][0] + g[1][1] + g[2][2]);
    out[0][0] = lt + m2s * g[0][0];
    out[1][1] = lt + m2s * g[1][1];
    out[2][2] = lt + m2s * g[2][2];
    out[0][1] = out[1][0] = ms * (g[0][1] + g[1][0]);
    out[1][2] = out[2][1] = ms * (g[1][2] + g[2][1]);
    out[0][2] = out[2][0] = ms * (g[0][2] + g[2][0]);
}

// f = K_e u for one element. u and f are 24 dofs in local node order. f is overwritten.
// lambda, mu: Lame constants of the element's material (both 0 for void); sc: mode scales.
template <class Real>
VOXWAVE_HD_INLINE void voxel_element_force(const Real* u, Real lambda, Real mu, Real sc0, Real sc1, Real sc2, Real* f) {
    // Hadamard moments per direction k and component i:
    // h[k][i][0] = sum_q d_q, h[k][i][1] = sum_q s_a d_q, h[k][i][2] = sum_q s_b d_q, h[k][i][3] = sum_q s_a s_b d_q,
    // with (a, b) the other two axes in increasing order.
    Real h[3][3][4];
    for (int i = 0; i < 3; ++i) {
        // x edges: quadrants (b, c)
        {
            Real d00 = u[3 * voxel_local_node(1, 0, 0) + i] - u[3 * voxel_local_node(0, 0, 0) + i];
            Real d10 = u[3 * voxel_local_node(1, 1, 0) + i] - u[3 * voxel_local_node(0, 1, 0) + i];
            Real d01 = u[3 * voxel_local_node(1, 0, 1) + i] - u[3 * voxel_local_node(0, 0, 1) + i];
            Real d11 = u[3 * voxel_local_node(1, 1, 1) + i] - u[3 * voxel_local_node(0, 1, 1) + i];
            Real p0 = d00 + d10, p1 = d01 + d11, m0 = d10 - d00, m1 = d11 - d01;
            h[0][i][0] = p0 + p1;  // 1
            h[0][i][1] = m0 + m1;  // r_y
            h[0][i][2] = p1 - p0;  // r_z
            h[0][i][3] = m1 - m0;  // r_y r_z
        }
        // y edges: quadrants (a, c)
        {
            Real d00 = u[3 * voxel_local_node(0, 1, 0) + i] - u[3 * voxel_local_node(0, 0, 0) + i];
            Real d10 = u[3 * voxel_local_node(1, 1, 0) + i] - u[3 * voxel_local_node(1, 0, 0) + i];
            Real d01 = u[3 * voxel_local_node(0, 1, 1) + i] - u[3 * voxel_local_node(0, 0, 1) + i];
            Real d11 = u[3 * voxel_local_node(1, 1, 1) + i] - u[3 * voxel_local_node(1, 0, 1) + i];
            Real p0 = d00 + d10, p1 = d01 + d11, m0 = d10 - d00, m1 = d11 - d01;
            h[1][i][0] = p0 + p1;  // 1
            h[1][i][1] = m0 + m1;  // r_x
            h[1][i][2] = p1 - p0;  // r_z
            h[1][i][3] = m1 - m0;  // r_x r_z
        }
        // z edges: quadrants (a, b)
        {
            Real d00 = u[3 * voxel_local_node(0, 0, 1) + i] - u[3 * voxel_local_node(0, 0, 0) + i];
            Real d10 = u[3 * voxel_local_node(1, 0, 1) + i] - u[3 * voxel_local_node(1, 0, 0) + i];
            Real d01 = u[3 * voxel_local_node(0, 1, 1) + i] - u[3 * voxel_local_node(0, 1, 0) + i];
            Real d11 = u[3 * voxel_local_node(1, 1, 1) + i] - u[3 * voxel_local_node(1, 1, 0) + i];
            Real p0 = d00 + d10, p1 = d01 + d11, m0 = d10 - d00, m1 = d11 - d01;
            h[2][i][0] = p0 + p1;  // 1
            h[2][i][1] = m0 + m1;  // r_x
            h[2][i][2] = p1 - p0;  // r_y
            h[2][i][3] = m1 - m0;  // r_x r_y
        }
    }

    // t[k][i][*]: the stress moments sent back through the transposed transforms.
    Real t[3][3][4];
    Real g[3][3], s[3][3];

    // The mode scales folded into the material constants once per element: 10 operations
    // instead of ~35 inside the stress evaluations below.
    const Real ls0 = sc0 * lambda, ms0 = sc0 * mu, m2s0 = ms0 + ms0;
    const Real ls1 = sc1 * lambda, ms1 = sc1 * mu, m2s1 = ms1 + ms1;
    const Real ms2 = sc2 * mu, ps2 = sc2 * (lambda + mu + mu);

    // psi = 1: all nine gradient entries.
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) g[i][k] = h[k][i][0];
    voxel_isotropic_stress(g, ls0, ms0, m2s0, s);
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) t[k][i][0] = s[i][k];

    // psi = r_x: d/dx has no r_x moment; y edges carry it in slot 1, z edges in slot 1.
    for (int i = 0; i < 3; ++i) {
        g[i][0] = Real{};
        g[i][1] = h[1][i][1];
        g[i][2] = h[2][i][1];
    }
    voxel_isotropic_stress(g, ls1, ms1, m2s1, s);
    for (int i = 0; i < 3; ++i) {
        t[1][i][1] = s[i][1];
        t[2][i][1] = s[i][2];
    }
    // psi = r_y: x edges slot 1, z edges slot 2.
    for (int i = 0; i < 3; ++i) {
        g[i][0] = h[0][i][1];
        g[i][1] = Real{};
        g[i][2] = h[2][i][2];
    }
    voxel_isotropic_stress(g, ls1, ms1, m2s1, s);
    for (int i = 0; i < 3; ++i) {
        t[0][i][1] = s[i][0];
        t[2][i][2] = s[i][2];
    }
    // psi = r_z: x edges slot 2, y edges slot 2.
    for (int i = 0; i < 3; ++i) {
        g[i][0] = h[0][i][2];
        g[i][1] = h[1][i][2];
        g[i][2] = Real{};
    }
    voxel_isotropic_stress(g, ls1, ms1, m2s1, s);
    for (int i = 0; i < 3; ++i) {
        t[0][i][2] = s[i][0];
        t[1][i][2] = s[i][1];
    }

    // Bilinear modes: only the edges along the third axis k carry them (slot 3), so the
    // gradient moment is the single column g_i = h[k][i][3]; stress column k:
    // s_ik = mu g_i (i != k), s_kk = (lambda + 2 mu) g_k.
    for (int k = 0; k < 3; ++k) {
        const Real gk = h[k][k][3];
        for (int i = 0; i < 3; ++i) t[k][i][3] = i == k ? ps2 * gk : ms2 * h[k][i][3];
    }

    // Back: e_q = H^t t (as butterflies: 8 additions instead of 12), then +e to the far corner
    // of each edge and -e to the near one.
    for (int i = 0; i < 3; ++i) {
        {
            const Real* tt = t[0][i];
            const Real a = tt[0] - tt[1], c = tt[0] + tt[1], bm = tt[2] - tt[3], dp = tt[2] + tt[3];
            Real e00 = a - bm, e10 = c - dp, e01 = a + bm, e11 = c + dp;
            f[3 * voxel_local_node(0, 0, 0) + i] = -e00;
            f[3 * voxel_local_node(1, 0, 0) + i] = e00;
            f[3 * voxel_local_node(0, 1, 0) + i] = -e10;
            f[3 * voxel_local_node(1, 1, 0) + i] = e10;
            f[3 * voxel_local_node(0, 0, 1) + i] = -e01;
            f[3 * voxel_local_node(1, 0, 1) + i] = e01;
            f[3 * voxel_local_node(0, 1, 1) + i] = -e11;
            f[3 * voxel_local_node(1, 1, 1) + i] = e11;
        }
        {
            const Real* tt = t[1][i];
            const Real a = tt[0] - tt[1], c = tt[0] + tt[1], bm = tt[2] - tt[3], dp = tt[2] + tt[3];
            Real e00 = a - bm, e10 = c - dp, e01 = a + bm, e11 = c + dp;
            f[3 * voxel_local_node(0, 0, 0) + i] -= e00;
            f[3 * voxel_local_node(0, 1, 0) + i] += e00;
            f[3 * voxel_local_node(1, 0, 0) + i] -= e10;
            f[3 * voxel_local_node(1, 1, 0) + i] += e10;
            f[3 * voxel_local_node(0, 0, 1) + i] -= e01;
            f[3 * voxel_local_node(0, 1, 1) + i] += e01;
            f[3 * voxel_local_node(1, 0, 1) + i] -= e11;
            f[3 * voxel_local_node(1, 1, 1) + i] += e11;
        }
        {
            const Real* tt = t[2][i];
            const Real a = tt[0] - tt[1], c = tt[0] + tt[1], bm = tt[2] - tt[3], dp = tt[2] + tt[3];
            Real e00 = a - bm, e10 = c - dp, e01 = a + bm, e11 = c + dp;
            f[3 * voxel_local_node(0, 0, 0) + i] -= e00;
            f[3 * voxel_local_node(0, 0, 1) + i] += e00;
            f[3 * voxel_local_node(1, 0, 0) + i] -= e10;
            f[3 * voxel_local_node(1, 0, 1) + i] += e10;
            f[3 * voxel_local_node(0, 1, 0) + i] -= e01;
            f[3 * voxel_local_node(0, 1, 1) + i] += e01;
            f[3 * voxel_local_node(1, 1, 0) + i] -= e11;
            f[3 * voxel_local_node(1, 1, 1) + i] += e11;
        }
    }
}

}  // namespace voxwave
