#include "wave/fused_points.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "core/errors.hpp"

namespace voxwave {

bool fused_kernel_takes_points(FusedPoints mode, std::size_t sources, std::size_t receivers) {
    if (mode == FusedPoints::Auto) {
        const char* env = std::getenv("VOXWAVE_FUSED_POINTS");
        if (env && std::strcmp(env, "kernel") == 0)
            mode = FusedPoints::InKernel;
        else if (env && std::strcmp(env, "launch") == 0)
            mode = FusedPoints::AfterKernel;
        else if (env && *env)
            throw InputError("", "VOXWAVE_FUSED_POINTS",
                             std::string("unknown placement '") + env + "' (kernel | launch)");
    }
    if (mode == FusedPoints::Auto) return sources <= kFusedKernelSources && receivers <= kFusedKernelReceivers;
    return mode == FusedPoints::InKernel;
}

}  // namespace voxwave
