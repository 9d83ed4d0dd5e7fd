// The Eigen baseline, used when the build has no SuiteSparse (the GPU machine).
#include "iga/sparse_baseline.hpp"

#if !VOXWAVE_HAVE_CHOLMOD
#include <Eigen/SparseCholesky>
#include <chrono>

#include "core/errors.hpp"

namespace voxwave::iga {

std::string sparse_direct_solver_name() { return "Eigen SimplicialLLT (AMD)"; }

std::vector<double> sparse_direct_solve(const IgaSpace& s, const SparseSystem& sys, const IgaLoad& load,
                                        SparseTimings* timings) {
    using Sparse = Eigen::SparseMatrix<double, Eigen::ColMajor, std::int32_t>;
    const Eigen::Map<const Sparse> A(sys.size, sys.size, sys.nonzeros(), sys.col_begin.data(), sys.row.data(),
                                     sys.value.data());
    Eigen::SimplicialLLT<Sparse, Eigen::Lower> llt;
    const auto t0 = std::chrono::steady_clock::now();
    llt.analyzePattern(A);
    const auto t1 = std::chrono::steady_clock::now();
    llt.factorize(A);
    const auto t2 = std::chrono::steady_clock::now();
    if (llt.info() != Eigen::Success) throw RuntimeError("Eigen SimplicialLLT: factorisation failed");
    const Eigen::VectorXd x = llt.solve(Eigen::Map<const Eigen::VectorXd>(sys.rhs.data(), sys.size));
    const auto t3 = std::chrono::steady_clock::now();
    if (timings) {
        timings->analyse_seconds = std::chrono::duration<double>(t1 - t0).count();
        timings->factor_seconds = std::chrono::duration<double>(t2 - t1).count();
        timings->solve_seconds = std::chrono::duration<double>(t3 - t2).count();
    }
    return expand_free_solution(s, x.data(), load);
}

}  // namespace voxwave::iga
#endif
