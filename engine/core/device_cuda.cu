// Device discovery through the CUDA runtime (linked statically: the binary must start on a
// machine without a GPU or driver, where cudaGetDeviceCount simply returns an error).
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/device.hpp"

namespace voxwave {

std::vector<CudaDeviceInfo> cuda_query_devices(std::string* why) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        if (why) *why = std::string("no CUDA device: ") + cudaGetErrorString(err);
        cudaGetLastError();  // clear the sticky error so later calls start clean
        return {};
    }
    std::vector<CudaDeviceInfo> out;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
        out.push_back({i, prop.name, prop.major, prop.minor, double(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0)});
    }
    if (out.empty() && why) *why = "no CUDA device found";
    return out;
}

void cuda_start_context(int index) {
    if (cudaSetDevice(index) == cudaSuccess) cudaFree(nullptr);
    cudaGetLastError();  // an error here is the caller's first call's to report
}

}  // namespace voxwave
