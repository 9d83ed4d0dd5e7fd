// The sparse Cholesky baseline on the CPU: CHOLMOD's supernodal LLT where CMake found SuiteSparse,
// else Eigen's SimplicialLLT (and `method` says so); the same timing and checks around either.
#include "poisson/sparse_baselines.hpp"

#if VOXWAVE_HAVE_CHOLMOD
#include <Eigen/CholmodSupport>
#else
#include <Eigen/SparseCholesky>
#endif
#include <chrono>
#include <string>

#include "core/errors.hpp"

namespace voxwave::poisson {
namespace {

#if VOXWAVE_HAVE_CHOLMOD
using SparseLlt = Eigen::CholmodSupernodalLLT<SparseMatrixd, Eigen::Lower>;
constexpr const char* kMethod = "CHOLMOD supernodal LLT";
constexpr const char* kSolver = "CHOLMOD";
#else
using SparseLlt = Eigen::SimplicialLLT<SparseMatrixd, Eigen::Lower>;
constexpr const char* kMethod = "Eigen SimplicialLLT (CHOLMOD not built)";
constexpr const char* kSolver = "sparse Cholesky";
#endif

}  // namespace

bool cholmod_built() { return VOXWAVE_HAVE_CHOLMOD != 0; }

BaselineResult solve_sparse_cholesky(const SparseMatrixd& A, const Eigen::MatrixXd& b) {
    using Clock = std::chrono::steady_clock;
    BaselineResult r;
    r.method = kMethod;
    const auto t0 = Clock::now();
    SparseLlt chol(A);
    if (chol.info() != Eigen::Success)
        throw RuntimeError(std::string(kSolver) + ": the matrix is not positive definite");
    const auto t1 = Clock::now();
    r.x = chol.solve(b);
    const auto t2 = Clock::now();
    r.setup_seconds = std::chrono::duration<double>(t1 - t0).count();
    r.solve_seconds = std::chrono::duration<double>(t2 - t1).count();
    return r;
}

}  // namespace voxwave::poisson
