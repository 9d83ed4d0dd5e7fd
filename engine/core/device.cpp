#include "core/device.hpp"

#include <algorithm>

#include "core/errors.hpp"

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

CudaDeviceInfo cuda_device_for_run(int device) {
    std::string why;
    const auto devices = cuda_devices(&why);
    if (devices.empty()) throw InputError("", "backend", "cuda requested but " + why);
    if (device >= int(devices.size()))
        throw InputError(
            "", "backend",
            "CUDA device " + std::to_string(device) + " requested, " + std::to_string(devices.size()) + " present");
    return devices[std::size_t(std::max(0, device))];
}

}  // namespace voxwave
