#include "wave/backend.hpp"

#include "core/device.hpp"
#include "core/errors.hpp"

namespace voxwave {

Backend resolve_backend(Backend requested, std::string& note) {
    if (requested == Backend::Cpu) {
        note = "backend cpu (requested)";
        return Backend::Cpu;
    }
    std::string why;
    const auto devices = cuda_devices(&why);
    // The CUDA wave engine is its own piece of work (issue 3); until it is in the build, a
    // device is reported but the CPU engine runs.
    constexpr bool kCudaWaveEngineBuilt = false;
    if (requested == Backend::Cuda) {
        if (devices.empty()) throw InputError("", "backend", "cuda requested but " + why);
        if (!kCudaWaveEngineBuilt)
            throw InputError("", "backend", "cuda requested but this build has no CUDA wave engine yet; use cpu");
        note = "backend cuda (requested): " + devices.front().name;
        return Backend::Cuda;
    }
    if (!devices.empty() && kCudaWaveEngineBuilt) {
        note = "backend auto -> cuda: " + devices.front().name;
        return Backend::Cuda;
    }
    note = devices.empty()
               ? "backend auto -> cpu: " + why
               : "backend auto -> cpu: found " + devices.front().name + " but this build has no CUDA wave engine yet";
    return Backend::Cpu;
}

}  // namespace voxwave
