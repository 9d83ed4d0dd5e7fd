#include "core/backend.hpp"

#include "core/device.hpp"
#include "core/errors.hpp"

namespace voxwave {
namespace {
const char* const kBackends[] = {"auto", "cpu", "cuda"};  // the enum's order
}

const char* to_string(Backend b) { return kBackends[static_cast<int>(b)]; }

Backend parse_backend(const std::string& s, const std::string& field) {
    for (int i = 0; i < 3; ++i)
        if (s == kBackends[i]) return static_cast<Backend>(i);
    throw InputError("", field, "unknown backend '" + s + "' (expected auto, cpu or cuda)");
}

Backend resolve_backend(Backend requested, std::string& note, const std::string& field) {
    if (requested == Backend::Cpu) {
        note = "backend cpu (requested)";
        return Backend::Cpu;
    }
    std::string why;
    const auto devices = cuda_devices(&why);  // empty, with why, in a build without CUDA
    if (requested == Backend::Cuda) {
        if (devices.empty()) throw InputError("", field, "cuda requested but " + why);
        note = "backend cuda (requested): " + devices.front().name;
        return Backend::Cuda;
    }
    if (!devices.empty()) {
        note = "backend auto -> cuda: " + devices.front().name;
        return Backend::Cuda;
    }
    note = "backend auto -> cpu: " + why;
    return Backend::Cpu;
}

}  // namespace voxwave
