#include "core/device.hpp"

namespace voxwave {

#if VOXWAVE_CUDA_COMPILED
// Defined in device_cuda.cu (compiled only when nvcc was found).
std::vector<CudaDeviceInfo> cuda_query_devices(std::string* why);
bool cuda_compiled() { return true; }
std::vector<CudaDeviceInfo> cuda_devices(std::string* why) { return cuda_query_devices(why); }
#else
bool cuda_compiled() { return false; }
std::vector<CudaDeviceInfo> cuda_devices(std::string* why) {
    if (why) *why = "this build has no CUDA support (nvcc was not found at configure time)";
    return {};
}
#endif

}  // namespace voxwave
