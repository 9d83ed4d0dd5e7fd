#include "wave/backend.hpp"

#include "core/device.hpp"
#include "core/errors.hpp"
#include "wave/time_stepper_cuda.hpp"

namespace voxwave {

Backend resolve_backend(Backend requested, std::string& note) {
    if (requested == Backend::Cpu) {
        note = "backend cpu (requested)";
        return Backend::Cpu;
    }
    std::string why;
    const auto devices = cuda_devices(&why);
    const bool engine_built = cuda_wave_engine_built();
    if (requested == Backend::Cuda) {
        if (devices.empty()) throw InputError("", "backend", "cuda requested but " + why);
        if (!engine_built)
            throw InputError("", "backend",
                             "cuda requested but this build has no CUDA engine (configured without nvcc); use cpu");
        note = "backend cuda (requested): " + devices.front().name;
        return Backend::Cuda;
    }
    if (!devices.empty() && engine_built) {
        note = "backend auto -> cuda: " + devices.front().name;
        return Backend::Cuda;
    }
    note = devices.empty() ? "backend auto -> cpu: " + why
                           : "backend auto -> cpu: found " + devices.front().name +
                                 " but this build has no CUDA engine (configured without nvcc)";
    return Backend::Cpu;
}

}  // namespace voxwave
