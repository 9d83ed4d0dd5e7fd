// Element force f_e = K_e u_e of one plane-strain square element (the 2D voxel), VFEM and OVFEM,
// in the moment form of the cube's kernel (voxel_element_kernel.hpp; the derivation is in
// docs/architecture.md#plane-strain-2d).
//
// A square's displacement gradient needs only its 4 edge differences. Along x the 2 edges (one
// per side b of y) give d_b; their sum and difference are the moments of du/dr_x against the
// stress modes psi = 1 and psi = r_y; likewise along y. As signed sums of the corners,
// S_P = sum prod_{x in P} s_x u (s = -1 on a corner's 0 side, +1 on its 1 side), the moments are
// S_x, S_y (psi = 1) and S_xy (psi = r_y for du/dr_x, psi = r_x for du/dr_y): three per component.
// Per unit thickness (the plane-strain element is a slab of thickness 1, so K does not depend on
// ds):
//     K = sum_beta (w_beta^2 / |psi_beta|^2) B_beta^t C B_beta,   |psi|^2 = 4, 4/3,
//   OVFEM (quadrant Heaviside basis): w = 1, 1/2   (integral of psi over a half edge)
//   VFEM  (bilinear, exact 2x2 Gauss):  w = 1, 1/3   (integral of psi times the linear edge weight)
// i.e. mode scales 1/4 (both), 1/12 (VFEM) and 3/16 (OVFEM). C is the plane-strain block of the
// isotropic stiffness (lambda, mu of the 3D material; eps_zz = 0).
//
// Local node order: r = (-1,-1), (1,-1), (1,1), (-1,1); dof = 2 * node + component (x, y).
#pragma once

#include "core/host_device.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

// Scale factors w^2 / |psi|^2 of the constant and linear stress modes of the square (per unit
// thickness; they do not depend on the spacing).
struct PlaneModeScales {
    double constant = 0, linear = 0;
};

inline PlaneModeScales plane_strain_mode_scales(ElementMethod m) {
    if (m == ElementMethod::Ovfem) return {0.25, 0.25 * 0.75};
    return {0.25, (1.0 / 9.0) * 0.75};
}

// Corner (a, b) in {0,1}^2 along (x, y) -> local node number.
VOXWAVE_HD constexpr int plane_local_node(int a, int b) { return b ? (a ? 2 : 3) : (a ? 1 : 0); }

// f = K_e u for one square. u and f are 8 dofs in local node order; f is overwritten.
// lambda, mu: Lame constants (both 0 for void); sc0, sc1: the mode scales.
template <class Real>
VOXWAVE_HD_INLINE void plane_strain_element_force(const Real* u, Real lambda, Real mu, Real sc0, Real sc1, Real* f) {
    Real Sx[2], Sy[2], Sxy[2];
    for (int i = 0; i < 2; ++i) {
        const Real u00 = u[2 * plane_local_node(0, 0) + i], u10 = u[2 * plane_local_node(1, 0) + i];
        const Real u01 = u[2 * plane_local_node(0, 1) + i], u11 = u[2 * plane_local_node(1, 1) + i];
        const Real dx0 = u10 - u00, dx1 = u11 - u01;  // the two x edges
        Sx[i] = dx0 + dx1;
        Sxy[i] = dx1 - dx0;
        Sy[i] = (u01 + u11) - (u00 + u10);
    }
    // psi = 1: gradient g[i][k] = S_k[i]; stress lambda tr(g) I + mu (g + g^t), its column k is
    // the moment of the x (k = 0) or y (k = 1) edges of component i.
    const Real ls0 = sc0 * lambda, ms0 = sc0 * mu, m2s0 = ms0 + ms0;
    const Real lt = ls0 * (Sx[0] + Sy[1]);
    Real Tx[2], Ty[2];
    Tx[0] = lt + m2s0 * Sx[0];
    Ty[1] = lt + m2s0 * Sy[1];
    Tx[1] = Ty[0] = ms0 * (Sy[0] + Sx[1]);
    // psi = r_y has the single gradient column x (S_xy), psi = r_x the single column y (S_xy):
    // summed, the stress moment of S_xy_i is (lambda + 3 mu) S_xy_i.
    const Real p1 = sc1 * (lambda + (mu + mu + mu));
    // Back: f = H^t T, corner (a, b) gets s_x T_x + s_y T_y + s_x s_y T_xy.
    for (int i = 0; i < 2; ++i) {
        const Real Txy = p1 * Sxy[i];
        const Real d0 = Tx[i] - Txy, d1 = Tx[i] + Txy;
        f[2 * plane_local_node(0, 0) + i] = -Ty[i] - d0;
        f[2 * plane_local_node(1, 0) + i] = d0 - Ty[i];
        f[2 * plane_local_node(0, 1) + i] = Ty[i] - d1;
        f[2 * plane_local_node(1, 1) + i] = Ty[i] + d1;
    }
}

}  // namespace voxwave
