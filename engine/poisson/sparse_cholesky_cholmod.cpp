// The sparse Cholesky baseline through CHOLMOD (compiled when CMake found SuiteSparse).
#include "poisson/sparse_baselines.hpp"

#if VOXWAVE_HAVE_CHOLMOD
#include <Eigen/CholmodSupport>
#include <chrono>

#include "core/errors.hpp"

namespace voxwave::poisson {

bool cholmod_built() { return true; }

BaselineResult solve_sparse_cholesky(const SparseMatrixd& A, const Eigen::MatrixXd& b) {
    using Clock = std::chrono::steady_clock;
    BaselineResult r;
    r.method = "CHOLMOD supernodal LLT";
    const auto t0 = Clock::now();
    Eigen::CholmodSupernodalLLT<SparseMatrixd, Eigen::Lower> chol(A);
    if (chol.info() != Eigen::Success) throw RuntimeError("CHOLMOD: the matrix is not positive definite");
    const auto t1 = Clock::now();
    r.x = chol.solve(b);
    const auto t2 = Clock::now();
    r.setup_seconds = std::chrono::duration<double>(t1 - t0).count();
    r.solve_seconds = std::chrono::duration<double>(t2 - t1).count();
    return r;
}

}  // namespace voxwave::poisson
#endif
