// `voxwave-cli info`: version, build options, devices.
#include <omp.h>

#include <cstdio>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/device.hpp"

namespace voxwave::cli {

std::function<int()> add_info_command(CLI::App& app) {
    app.add_subcommand("info", "Version, build options and the compute devices found");
    return [] {
        std::printf("voxwave %s\n", VOXWAVE_VERSION);
#ifdef NDEBUG
        std::printf("build        release (optimised)\n");
#else
        std::printf("build        debug\n");
#endif
        std::printf("compiler     %s\n", __VERSION__);
        std::printf("cpu threads  %d (OpenMP)\n", omp_get_max_threads());
        std::printf("cuda         %s\n", cuda_compiled() ? "compiled in" : "not compiled");
        std::string why;
        const auto devices = cuda_devices(&why);
        if (devices.empty()) std::printf("devices      none (%s)\n", why.c_str());
        for (const auto& d : devices)
            std::printf("device %d     %s, sm_%d%d, %.1f GiB\n", d.index, d.name.c_str(), d.major, d.minor,
                        d.memory_gib);
        std::printf("assets       %s\n", VOXWAVE_ASSETS_DIR);
        return int(kOk);
    };
}

}  // namespace voxwave::cli
