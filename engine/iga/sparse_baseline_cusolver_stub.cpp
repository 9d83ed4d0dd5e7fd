// Builds without CUDA: the GPU sparse baseline refuses with a clear message.
#include "iga/sparse_baseline.hpp"

#if !VOXWAVE_CUDA_COMPILED
#include "core/errors.hpp"

namespace voxwave::iga {

bool gpu_sparse_baseline_built() { return false; }
std::vector<double> sparse_direct_solve_cusolver(const IgaSpace&, const SparseSystem&, const IgaLoad&, double*,
                                                 std::string*) {
    throw InputError("", "backend", "this build has no CUDA (the cuSOLVER baseline needs it)");
}

}  // namespace voxwave::iga
#endif
