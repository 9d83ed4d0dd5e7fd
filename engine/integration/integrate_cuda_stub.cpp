// Builds without nvcc: the CUDA integration entry points exist and refuse with a clear message.
#include "integration/integrate_cuda.hpp"

#if !VOXWAVE_CUDA_COMPILED
#include "core/errors.hpp"

namespace voxwave::integration {

bool cuda_integration_built() { return false; }

CudaIntegrationTiming integrate_batch_cuda(const CudaIntegrationRequest&, std::vector<double>&) {
    throw InputError("", "backend", "this build has no CUDA engine (nvcc was not found when it was configured)");
}

}  // namespace voxwave::integration
#endif
