// Builds without nvcc: the CUDA multi-frontal entry points exist and refuse with a clear message.
#include "iga/multifrontal_cuda.hpp"

#if !VOXWAVE_CUDA_COMPILED
#include "core/errors.hpp"

namespace voxwave::iga {

bool iga_cuda_built() { return false; }

std::vector<double> multifrontal_solve_cuda(const IgaSpace&, const FrontTree&, const IgaLoad&,
                                            CudaMultifrontalTimings*) {
    throw InputError("", "--backend", "this build has no CUDA engine (nvcc was not found when it was configured)");
}

}  // namespace voxwave::iga
#endif
