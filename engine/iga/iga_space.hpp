// The discrete space of issue 6: tensor-product B-splines of degree p on N x N elements of
// [0,1]^2, evaluated the 1D-factorised way the seed describes (Tables 3 and 6): per element
// column only the p + 1 one-dimensional functions at p + 1 Gauss points are computed, and the
// element stiffness of the Laplacian follows as a sum of Kronecker products
//     K_e = K1[ex] (x) M1[ey] + M1[ex] (x) K1[ey]
// with the 1D element stiffness K1 = int N_a' N_b' and mass M1 = int N_a N_b (seed eq. 20).
//
// Unknowns: dof (i, j) = i + n j, n = N + p functions per direction (i along x1). Dirichlet
// dofs are the rows j = 0 and j = n - 1: open knot vectors make B-splines interpolatory at the
// ends, so a constant boundary value is exactly a constant coefficient row.
#pragma once

#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "iga/bspline_basis.hpp"
#include "iga/iga_problem.hpp"

namespace voxwave::iga {

struct IgaSpace {
    int p = 0, N = 0, n = 0;  // degree, elements per side, functions per side
    int nq = 0;               // Gauss points per direction (p + 1)
    // Per element e (same for both directions: the square uses one basis), quadrature point q,
    // local function a: xq[e nq + q], wq[e nq + q], val/der[(e nq + q)(p + 1) + a].
    std::vector<double> xq, wq, val, der;
    // 1D element matrices: k1/m1[e (p+1)^2 + a (p+1) + b].
    std::vector<double> k1, m1;

    int dof(int i, int j) const noexcept { return i + n * j; }
    std::int64_t dof_count() const noexcept { return std::int64_t(n) * n; }
    bool is_dirichlet(int dof) const noexcept {
        const int j = dof / n;
        return j == 0 || j == n - 1;
    }
    // Free dofs (j = 1 .. n-2) are numbered i + n (j - 1) in the assembled system.
    std::int64_t free_count() const noexcept { return std::int64_t(n) * (n - 2); }
};

// Throws InputError for p < 1, N < 1.
IgaSpace make_iga_space(int degree, int elements);

// Entry (a, b) of the element stiffness from the 1D-factorised tables; a = ax + (p+1) ay.
// Written once for the CPU and the CUDA leaves.
VOXWAVE_HD double iga_element_stiffness(const double* k1x, const double* m1x, const double* k1y, const double* m1y,
                                        int p1, int a, int b) {
    const int ax = a % p1, ay = a / p1, bx = b % p1, by = b / p1;
    return k1x[ax * p1 + bx] * m1y[ay * p1 + by] + m1x[ax * p1 + bx] * k1y[ay * p1 + by];
}

// The full element matrix ((p+1)^2 x (p+1)^2, row-major) of element (ex, ey).
std::vector<double> iga_element_matrix(const IgaSpace& s, int ex, int ey);

// Right-hand side of the free unknowns, one entry per dof (Dirichlet entries are zero):
// F_i = int f B_i - sum_D K_iD g_D (the lift of the Dirichlet data, seed eq. 10), and the
// Dirichlet coefficients g (zero on free dofs).
struct IgaLoad {
    std::vector<double> rhs;        // n^2
    std::vector<double> dirichlet;  // n^2
};
IgaLoad iga_load(const IgaSpace& s, IgaProblemKind kind);

// The element that contributes a free dof's right-hand side in the multi-frontal leaves (each
// dof's load is added exactly once, in an element of its support).
inline int iga_owner_element(const IgaSpace& s, int i) { return i < s.N ? i : s.N - 1; }

// u_h(x1, x2) from the coefficients (n^2).
double iga_evaluate(const IgaSpace& s, const std::vector<double>& coefficients, double x1, double x2);
// || u_h - u ||_L2 with p + 3 Gauss points per direction and element.
double iga_l2_error(const IgaSpace& s, const std::vector<double>& coefficients, IgaProblemKind kind);

}  // namespace voxwave::iga
