// Spectral condition numbers for seed 002 Tables 2 and 4, by Lanczos iterations (only the
// extreme Ritz values are used, so no reorthogonalisation is needed) on an operator and,
// for the smallest eigenvalue, on its inverse through a sparse Cholesky factorisation.
#pragma once

#include <Eigen/Dense>
#include <functional>

#include "poisson/poisson_assembly.hpp"

namespace voxwave::poisson {

using LinearOperator = std::function<void(const Eigen::VectorXd& in, Eigen::VectorXd& out)>;

struct ExtremeEigenvalues {
    double min = 0, max = 0;
};
// Ritz values of `steps` Lanczos steps from a fixed pseudo-random start vector.
ExtremeEigenvalues lanczos_extremes(const LinearOperator& op, int n, int steps);

// kappa of a sparse SPD matrix: lambda_max by Lanczos on A, lambda_min by Lanczos on A^-1.
double condition_number_sparse(const SparseMatrixd& A, int steps = 300);
// kappa of a dense SPD matrix (exact eigenvalues up to n = 1500, Lanczos beyond).
double condition_number_dense(const Eigen::MatrixXd& A);

}  // namespace voxwave::poisson
