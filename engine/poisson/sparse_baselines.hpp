// Well-kept library solvers of the same nodal systems, for comparison with the direct solver
// (seed 002 compares with multigrid; the issue asks for sparse Cholesky and CG).
#pragma once

#include <Eigen/Dense>
#include <string>

#include "poisson/poisson_assembly.hpp"

namespace voxwave::poisson {

struct BaselineResult {
    std::string method;        // "CHOLMOD supernodal LLT", "Eigen SimplicialLLT", "CG (Jacobi)"
    double setup_seconds = 0;  // analysis + factorisation (0 for CG)
    double solve_seconds = 0;  // all right-hand sides
    int iterations = 0;        // CG: the largest count over the right-hand sides
    Eigen::MatrixXd x;
};

// True when this build links CHOLMOD (SuiteSparse); otherwise the sparse Cholesky baseline is
// Eigen's SimplicialLLT and says so in `method`.
bool cholmod_built();

// A x = b by sparse Cholesky (CHOLMOD supernodal when built). Throws RuntimeError if A is not SPD.
BaselineResult solve_sparse_cholesky(const SparseMatrixd& A, const Eigen::MatrixXd& b);

// A x = b on the GPU by cuSOLVER's sparse Cholesky (one call per right-hand side; setup 0, the
// solve time is the device time of the calls). Throws InputError without CUDA or a device.
BaselineResult solve_sparse_cholesky_cusolver(const SparseMatrixd& A, const Eigen::MatrixXd& b);

// A x = b by conjugate gradients with the Jacobi preconditioner (Eigen, OpenMP products) to a
// relative residual of `tolerance`, one right-hand side after the other.
BaselineResult solve_conjugate_gradient(const SparseMatrixd& A, const Eigen::MatrixXd& b, double tolerance = 1e-8);

}  // namespace voxwave::poisson
