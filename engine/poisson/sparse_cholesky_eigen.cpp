// The sparse Cholesky baseline where SuiteSparse was not found: Eigen's SimplicialLLT.
#include "poisson/sparse_baselines.hpp"

#if !VOXWAVE_HAVE_CHOLMOD
#include <Eigen/SparseCholesky>
#include <chrono>

#include "core/errors.hpp"

namespace voxwave::poisson {

bool cholmod_built() { return false; }

BaselineResult solve_sparse_cholesky(const SparseMatrixd& A, const Eigen::MatrixXd& b) {
    using Clock = std::chrono::steady_clock;
    BaselineResult r;
    r.method = "Eigen SimplicialLLT (CHOLMOD not built)";
    const auto t0 = Clock::now();
    Eigen::SimplicialLLT<SparseMatrixd> chol(A);
    if (chol.info() != Eigen::Success) throw RuntimeError("sparse Cholesky: the matrix is not positive definite");
    const auto t1 = Clock::now();
    r.x = chol.solve(b);
    const auto t2 = Clock::now();
    r.setup_seconds = std::chrono::duration<double>(t1 - t0).count();
    r.solve_seconds = std::chrono::duration<double>(t2 - t1).count();
    return r;
}

}  // namespace voxwave::poisson
#endif
