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
// The 36 moments are only 21 distinct signed sums of the corners (7 per component), made by a
// fast Walsh-Hadamard transform and sent back by its transpose (voxel_element_force).
// Cost: about 215 operations per element (the edge-difference form took about 290; a dense
// 24x24 product 1152 flops), no element matrix in memory, and the same code for every material
// (only lambda and mu change). Session 13: the CPU step 12-15 % faster on the 2 mm model.
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
    // with (a, b) the other two axes in increasing order. With s_x, s_y, s_z = -1 at a corner's
    // 0 side and +1 at its 1 side, an edge difference along x is sum_a s_x u, so every moment
    // is one signed sum of the 8 corners, S_P = sum_corners prod_{x in P} s_x u: only 7 distinct
    // ones (P = x, y, z, xy, xz, yz, xyz; h[k][i][3] = S_xyz for every k, h[0][i][1] = h[1][i][1]
    // = S_xy, ...). They come from one 3-stage fast Walsh-Hadamard transform of the corners: 23
    // operations a component instead of 12 differences and 24 butterfly additions (36).
    Real h[3][3][4];
    for (int i = 0; i < 3; ++i) {
        auto at = [&](int a, int b, int c) { return u[3 * voxel_local_node(a, b, c) + i]; };
        // Along x: sums and differences of the 4 x edges (b, c).
        Real sx[2][2], dx[2][2];
        for (int c = 0; c < 2; ++c)
            for (int b = 0; b < 2; ++b) {
                sx[b][c] = at(0, b, c) + at(1, b, c);
                dx[b][c] = at(1, b, c) - at(0, b, c);
            }
        // Along y, per z side c.
        Real ss[2], sd[2], ds[2], dd[2];
        for (int c = 0; c < 2; ++c) {
            ss[c] = sx[0][c] + sx[1][c];
            sd[c] = sx[1][c] - sx[0][c];
            ds[c] = dx[0][c] + dx[1][c];
            dd[c] = dx[1][c] - dx[0][c];
        }
        // Along z (the plain sum S, with no gradient in it, is not needed).
        const Real Sx = ds[0] + ds[1], Sxz = ds[1] - ds[0];
        const Real Sy = sd[0] + sd[1], Syz = sd[1] - sd[0];
        const Real Sz = ss[1] - ss[0];
        const Real Sxy = dd[0] + dd[1], Sxyz = dd[1] - dd[0];
        h[0][i][0] = Sx;  // x edges: 1, r_y, r_z, r_y r_z
        h[0][i][1] = Sxy;
        h[0][i][2] = Sxz;
        h[0][i][3] = Sxyz;
        h[1][i][0] = Sy;  // y edges: 1, r_x, r_z, r_x r_z
        h[1][i][1] = Sxy;
        h[1][i][2] = Syz;
        h[1][i][3] = Sxyz;
        h[2][i][0] = Sz;  // z edges: 1, r_x, r_y, r_x r_y
        h[2][i][1] = Sxz;
        h[2][i][2] = Syz;
        h[2][i][3] = Sxyz;
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

    // Back: f = H^t t, the transposed transform. The moments that share one signed sum S_P add
    // their stress moments into T_P, and the three transposed stages (z, y, x) scatter the seven
    // T_P to the 8 corners: 27 operations a component instead of 24 butterfly and 16 scatter
    // additions (40) and the negations.
    for (int i = 0; i < 3; ++i) {
        const Real Tx = t[0][i][0], Ty = t[1][i][0], Tz = t[2][i][0];
        const Real Txy = t[0][i][1] + t[1][i][1], Txz = t[0][i][2] + t[2][i][1], Tyz = t[1][i][2] + t[2][i][2];
        const Real Txyz = t[0][i][3] + t[1][i][3] + t[2][i][3];
        // Transposed z stage: the adjoints of ds, dd, sd per z side c (ss[c] = -+Tz).
        const Real ds0 = Tx - Txz, ds1 = Tx + Txz, dd0 = Txy - Txyz, dd1 = Txy + Txyz;
        const Real sd0 = Ty - Tyz, sd1 = Ty + Tyz;
        // Transposed y stage: the adjoints of the x sums sx[b][c] and differences dx[b][c].
        const Real dx00 = ds0 - dd0, dx10 = ds0 + dd0, dx01 = ds1 - dd1, dx11 = ds1 + dd1;
        const Real nsx00 = Tz + sd0, sx10 = sd0 - Tz, sx01 = Tz - sd1, sx11 = Tz + sd1;  // nsx00 = -sx00
        // Transposed x stage: corner (0, b, c) gets sx - dx, corner (1, b, c) sx + dx.
        f[3 * voxel_local_node(0, 0, 0) + i] = -(nsx00 + dx00);
        f[3 * voxel_local_node(1, 0, 0) + i] = dx00 - nsx00;
        f[3 * voxel_local_node(0, 1, 0) + i] = sx10 - dx10;
        f[3 * voxel_local_node(1, 1, 0) + i] = sx10 + dx10;
        f[3 * voxel_local_node(0, 0, 1) + i] = sx01 - dx01;
        f[3 * voxel_local_node(1, 0, 1) + i] = sx01 + dx01;
        f[3 * voxel_local_node(0, 1, 1) + i] = sx11 - dx11;
        f[3 * voxel_local_node(1, 1, 1) + i] = sx11 + dx11;
    }
}

}  // namespace voxwave
