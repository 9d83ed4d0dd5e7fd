#include <Eigen/IterativeLinearSolvers>
#include <chrono>

#include "poisson/sparse_baselines.hpp"

namespace voxwave::poisson {

BaselineResult solve_conjugate_gradient(const SparseMatrixd& A, const Eigen::MatrixXd& b, double tolerance) {
    BaselineResult r;
    r.method = "CG (Jacobi preconditioner)";
    const auto t0 = std::chrono::steady_clock::now();
    // Lower|Upper: Eigen's multi-threaded product for a full symmetric matrix.
    Eigen::ConjugateGradient<SparseMatrixd, Eigen::Lower | Eigen::Upper> cg(A);
    cg.setTolerance(tolerance);
    cg.setMaxIterations(static_cast<Eigen::Index>(A.rows()) * 2);
    r.x.resize(A.rows(), b.cols());
    for (Eigen::Index k = 0; k < b.cols(); ++k) {
        r.x.col(k) = cg.solve(b.col(k));
        r.iterations = std::max(r.iterations, static_cast<int>(cg.iterations()));
    }
    r.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace voxwave::poisson
