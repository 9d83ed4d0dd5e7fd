// Fuzz target: the painted-voxel HDF5 reader (read_voxels_h5) on arbitrary file bytes.
#include <cmath>
#include <cstdint>

#include "fuzz_input.hpp"
#include "scene/scene_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = voxwave::fuzz::input_as_file(data, size, ".h5");
    return voxwave::fuzz::expect_input_errors_only([&] {
        voxwave::VoxelGrid g = voxwave::read_voxels_h5(path, "/model/material_ids");
        // What the reader promises about a grid it returns.
        if (g.ids.size() != g.element_count() || g.n[0] <= 0 || g.n[1] <= 0 || g.n[2] <= 0) __builtin_trap();
        if (!std::isfinite(g.spacing) || g.spacing <= 0) __builtin_trap();
        for (double o : g.origin)
            if (!std::isfinite(o)) __builtin_trap();
    });
}
