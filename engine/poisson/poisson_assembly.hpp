// Finite element stiffness matrices and load vectors of -Laplace(u) = f with u = 0 on the
// whole boundary: P1 on triangles, Q1 on parallelograms; only interior nodes are unknowns.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

#include "poisson/poisson_mesh.hpp"

namespace voxwave::poisson {

using SparseMatrixd = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

// dof[node] = index of the unknown, or -1 on the boundary; unknowns in node order.
std::vector<int> interior_dofs(const PoissonMesh& mesh, int* count = nullptr);

// Nodal stiffness matrix of the finest level over the interior nodes.
SparseMatrixd assemble_stiffness(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns);

// Seed 002 eq. 7: u = sin(n pi x) sin(n pi y) (x - 5/4)(x - 7/4)(y - 1/4)(y - 3/4); zero on
// the boundary of both domains.
double exact_solution(int n, double x, double y);
double exact_source(int n, double x, double y);  // f = -Laplace(u)

// Load vector b_i = integral f phi_i (degree-4 rule on triangles, 3 x 3 Gauss on squares).
Eigen::VectorXd assemble_load(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns, int n);
// u at the interior nodes.
Eigen::VectorXd exact_at_dofs(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns, int n);

}  // namespace voxwave::poisson
