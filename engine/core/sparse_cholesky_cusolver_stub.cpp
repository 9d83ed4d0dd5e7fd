// Builds without CUDA: the GPU sparse baseline refuses with a clear message.
#include "core/sparse_cholesky_cusolver.hpp"

#if !VOXWAVE_CUDA_COMPILED
#include "core/errors.hpp"

namespace voxwave {

bool cusolver_sparse_cholesky_built() { return false; }
std::vector<double> cusolver_sparse_cholesky_solve(int, const std::vector<int>&, const std::vector<int>&,
                                                   const std::vector<double>&, const std::vector<double>&, double*,
                                                   std::string*) {
    throw InputError("", "backend", "this build has no CUDA (the cuSOLVER sparse baseline needs it)");
}

}  // namespace voxwave
#endif
