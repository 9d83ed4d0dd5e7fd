// Which compute backends this build has and which devices this machine has.
#pragma once

#include <string>
#include <vector>

namespace voxwave {

struct CudaDeviceInfo {
    int index = 0;
    std::string name;
    int major = 0, minor = 0;
    double memory_gib = 0;
};

bool cuda_compiled();
// Devices found; empty with a reason in *why when CUDA is not compiled, no driver, no device.
std::vector<CudaDeviceInfo> cuda_devices(std::string* why = nullptr);

}  // namespace voxwave
