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
// The device a run asks for (`device`: its index, -1 the first), the one home of that check:
// InputError("", "backend", ...) when there is no CUDA device or fewer than asked. The caller
// makes it current (cudaSetDevice(index)).
CudaDeviceInfo cuda_device_for_run(int device);

}  // namespace voxwave
