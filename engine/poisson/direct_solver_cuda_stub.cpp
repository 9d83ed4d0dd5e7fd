// Builds without nvcc: the CUDA Poisson solver exists and refuses with a clear message.
#include "poisson/direct_solver_cuda.hpp"

#if !VOXWAVE_CUDA_COMPILED
#include "core/errors.hpp"

namespace voxwave::poisson {
namespace {
[[noreturn]] void no_cuda() {
    throw InputError("", "backend",
                     "this build has no CUDA Poisson solver (nvcc was not found when it was configured)");
}
}  // namespace

bool cuda_poisson_built() { return false; }
Eigen::MatrixXd cuda_spd_inverse(const Eigen::MatrixXd&) { no_cuda(); }
struct CudaPoissonSolver::Impl {};
CudaPoissonSolver::CudaPoissonSolver(const PrehandledPoisson&, PoissonPrecision) { no_cuda(); }
CudaPoissonSolver::~CudaPoissonSolver() = default;
Eigen::MatrixXd CudaPoissonSolver::solve(const Eigen::MatrixXd&) { no_cuda(); }
double CudaPoissonSolver::median_solve_seconds(int) { no_cuda(); }
std::string CudaPoissonSolver::device_name() const { no_cuda(); }
std::size_t CudaPoissonSolver::device_bytes() const { no_cuda(); }

}  // namespace voxwave::poisson
#endif
