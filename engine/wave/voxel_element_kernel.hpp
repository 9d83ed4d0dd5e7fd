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
// Cost: about 185 operations per element (the edge-difference form took about 290; a dense
// 24x24 product 1152 flops), no element matrix in memory, and the same code for every material
// (only lambda and mu change).
//
// Local node order (docs/architecture.md#wave-numerics): r = (-1,-1,-1), (1,-1,-1), (1,1,-1), (-1,1,-1),
// then the same with r3 = +1; dof = 3 * node + component.
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

// The moments: along direction k, h[k][i] = (sum_q d_q, sum_q s_a d_q, sum_q s_b d_q, sum_q s_a s_b d_q)
// of the 4 edge differences d_q of component i ((a, b) the other two axes in increasing order).
// With s_x, s_y, s_z = -1 at a corner's 0 side and +1 at its 1 side, an edge difference along x
// is sum_a s_x u, so every moment is one signed sum of the 8 corners, S_P = sum prod_{x in P} s_x u,
// and the 36 are only 7 distinct ones per component: h[0] = (Sx, Sxy, Sxz, Sxyz), h[1] = (Sy, Sxy,
// Syz, Sxyz), h[2] = (Sz, Sxz, Syz, Sxyz). One 3-stage fast Walsh-Hadamard transform of the corners
// makes them (23 operations a component against 36 for the differences and their butterflies),
// and its transpose sends back the 7 summed stress moments T_P (23 against about 44 for the
// butterflies and the scatter). The stresses below are written on the S directly, so that the
// gradient entries a mode does not have cost nothing (x + 0 is not folded by a compiler that
// keeps signed zeros), and so that the moments two modes share are summed there into T_P.
//
// The 7 signed corner sums S_P, in this order; moment P of component i at S[3 P + i].
enum VoxelMoment { kSx, kSy, kSz, kSxy, kSxz, kSyz, kSxyz, kVoxelMoments };

// The 7 moments of one component, S[stride * P], from its 8 corner values at(a, b, c) (corner
// (a, b, c) in {0,1}^3 along x, y, z): one 3-stage fast Walsh-Hadamard transform. The PML's CUDA
// pass makes one component's moments per thread with it (pml_correction_cuda.cu).
template <class Real, class Corner>
VOXWAVE_HD_INLINE void voxel_corner_moments_of(const Corner& at, Real* S, int stride) {
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
    // Along z (the plain sum, with no gradient in it, is not needed).
    S[stride * kSx] = ds[0] + ds[1];
    S[stride * kSxz] = ds[1] - ds[0];
    S[stride * kSy] = sd[0] + sd[1];
    S[stride * kSyz] = sd[1] - sd[0];
    S[stride * kSz] = ss[1] - ss[0];
    S[stride * kSxy] = dd[0] + dd[1];
    S[stride * kSxyz] = dd[1] - dd[0];
}

// The 21 moments S_P[i] of the 24 element dofs u (local node order): per component one 3-stage
// fast Walsh-Hadamard transform of the corners. One home for the element kernel and the PML's
// correction (pml_element_kernel.hpp), which filters the same moments.
template <class Real>
VOXWAVE_HD_INLINE void voxel_corner_moments(const Real* u, Real* S) {
    for (int i = 0; i < 3; ++i)
        voxel_corner_moments_of([&](int a, int b, int c) { return u[3 * voxel_local_node(a, b, c) + i]; }, S + i, 3);
}

// One component's 8 corner forces f[stride * node] (local node order) = H^t T of its 7 summed
// stress moments T[stride * P] (stages z, y, x); f is overwritten.
template <class Real>
VOXWAVE_HD_INLINE void voxel_corner_scatter_of(const Real* T, int stride, Real* f, int fstride) {
    const Real Tx = T[stride * kSx], Ty = T[stride * kSy], Tz = T[stride * kSz], Txy = T[stride * kSxy],
               Txz = T[stride * kSxz], Tyz = T[stride * kSyz], Txyz = T[stride * kSxyz];
    // Transposed z stage: the adjoints of ds, dd, sd per z side c (ss[c] = -+Tz).
    const Real ds0 = Tx - Txz, ds1 = Tx + Txz, dd0 = Txy - Txyz, dd1 = Txy + Txyz;
    const Real sd0 = Ty - Tyz, sd1 = Ty + Tyz;
    // Transposed y stage: the adjoints of the x sums sx[b][c] and differences dx[b][c].
    const Real dx00 = ds0 - dd0, dx10 = ds0 + dd0, dx01 = ds1 - dd1, dx11 = ds1 + dd1;
    const Real nsx00 = Tz + sd0, sx10 = sd0 - Tz, sx01 = Tz - sd1, sx11 = Tz + sd1;  // nsx00 = -sx00
    // Transposed x stage: corner (0, b, c) gets sx - dx, corner (1, b, c) sx + dx.
    f[fstride * voxel_local_node(0, 0, 0)] = -(nsx00 + dx00);
    f[fstride * voxel_local_node(1, 0, 0)] = dx00 - nsx00;
    f[fstride * voxel_local_node(0, 1, 0)] = sx10 - dx10;
    f[fstride * voxel_local_node(1, 1, 0)] = sx10 + dx10;
    f[fstride * voxel_local_node(0, 0, 1)] = sx01 - dx01;
    f[fstride * voxel_local_node(1, 0, 1)] = sx01 + dx01;
    f[fstride * voxel_local_node(0, 1, 1)] = sx11 - dx11;
    f[fstride * voxel_local_node(1, 1, 1)] = sx11 + dx11;
}

// f (24 dofs) = H^t T: the transposed transform of the 21 summed stress moments T[3 P + i]
// (stages z, y, x); f is overwritten.
template <class Real>
VOXWAVE_HD_INLINE void voxel_corner_scatter(const Real* T, Real* f) {
    for (int i = 0; i < 3; ++i) voxel_corner_scatter_of(T + i, 3, f + i, 3);
}

// f = K_e u for one element. u and f are 24 dofs in local node order. f is overwritten.
// lambda, mu: Lame constants of the element's material (both 0 for void); sc: mode scales.
template <class Real>
VOXWAVE_HD_INLINE void voxel_element_force(const Real* u, Real lambda, Real mu, Real sc0, Real sc1, Real sc2, Real* f) {
    Real S[3 * kVoxelMoments];
    voxel_corner_moments(u, S);
    const Real *Sx = S + 3 * kSx, *Sy = S + 3 * kSy, *Sz = S + 3 * kSz, *Sxy = S + 3 * kSxy, *Sxz = S + 3 * kSxz,
               *Syz = S + 3 * kSyz, *Sxyz = S + 3 * kSxyz;

    // The mode scales folded into the material constants once per element.
    const Real ls0 = sc0 * lambda, ms0 = sc0 * mu, m2s0 = ms0 + ms0;
    const Real ls1 = sc1 * lambda, ms1 = sc1 * mu, m3s1 = ms1 + (ms1 + ms1);
    // Bilinear modes: mode k (psi = r_a r_b) has the single gradient column g_i = Sxyz_i, stress
    // column k: mu g_i (i != k), (lambda + 2 mu) g_k; summed over the three modes, T_xyz_i =
    // (lambda + 4 mu) sc2 Sxyz_i.
    const Real mu2 = mu + mu, pm2 = sc2 * (lambda + (mu2 + mu2));  // 4 mu exactly

    // psi = 1: the gradient g[i][k] = S_k[i]; stress s = lambda tr(g) I + mu (g + g^t); the
    // moment of mode 1 along edges k of component i is s[i][k].
    Real T[3 * kVoxelMoments];
    Real *Tx = T + 3 * kSx, *Ty = T + 3 * kSy, *Tz = T + 3 * kSz;
    {
        const Real lt = ls0 * (Sx[0] + Sy[1] + Sz[2]);
        Tx[0] = lt + m2s0 * Sx[0];
        Ty[1] = lt + m2s0 * Sy[1];
        Tz[2] = lt + m2s0 * Sz[2];
        Ty[0] = Tx[1] = ms0 * (Sy[0] + Sx[1]);
        Tz[1] = Ty[2] = ms0 * (Sz[1] + Sy[2]);
        Tz[0] = Tx[2] = ms0 * (Sz[0] + Sx[2]);
    }
    // Linear modes: psi = r_x has gradient columns y (Sxy) and z (Sxz), no x column; its stress
    // columns y and z go to T_xy and T_xz. psi = r_y: columns x (Sxy) and z (Syz), to T_xy and
    // T_yz. psi = r_z: columns x (Sxz) and y (Syz), to T_xz and T_yz.
    Real *Txy = T + 3 * kSxy, *Txz = T + 3 * kSxz, *Tyz = T + 3 * kSyz;
    {
        const Real ltx = ls1 * (Sxy[1] + Sxz[2]);  // psi = r_x
        const Real x12 = ms1 * (Sxy[2] + Sxz[1]);
        const Real lty = ls1 * (Sxy[0] + Syz[2]);  // psi = r_y
        const Real y02 = ms1 * (Sxy[2] + Syz[0]);
        const Real ltz = ls1 * (Sxz[0] + Syz[1]);  // psi = r_z
        const Real z01 = ms1 * (Sxz[1] + Syz[0]);
        // T_xy = (r_y stress column x) + (r_x stress column y), and likewise below. Where both
        // are the same gradient entry, lambda tr + 2 mu g and mu g join: lambda tr + 3 mu g.
        Txy[0] = lty + m3s1 * Sxy[0];
        Txy[1] = ltx + m3s1 * Sxy[1];
        Txy[2] = y02 + x12;
        Txz[0] = ltz + m3s1 * Sxz[0];
        Txz[1] = z01 + x12;
        Txz[2] = ltx + m3s1 * Sxz[2];
        Tyz[0] = z01 + y02;
        Tyz[1] = ltz + m3s1 * Syz[1];
        Tyz[2] = lty + m3s1 * Syz[2];
    }

    // Back: f = H^t T, the transposed transform.
    for (int i = 0; i < 3; ++i) T[3 * kSxyz + i] = pm2 * Sxyz[i];
    voxel_corner_scatter(T, f);
}

}  // namespace voxwave
