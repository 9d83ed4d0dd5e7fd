// Fuzz target: the imaging readers (read_array_acquisition_h5, read_image_h5) on arbitrary file
// bytes: either refuses with an InputError or returns what its checks promise.
#include <cmath>
#include <cstdint>

#include "fuzz_input.hpp"
#include "wave/array_acquisition.hpp"
#include "wave/tfm_imaging.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = voxwave::fuzz::input_as_file(data, size, ".h5");
    const int acquisition = voxwave::fuzz::expect_input_errors_only([&] {
        const voxwave::ArrayAcquisition a = voxwave::read_array_acquisition_h5(path);
        // The shapes and the frame the imaging code indexes by without checking again.
        if (a.data.size() != a.n_tx * a.n_rx * a.sample_count() || a.element_positions.size() != a.n_rx)
            __builtin_trap();
        if (a.sample_count() < 2 || !(a.dt() > 0)) __builtin_trap();
        if (std::fabs(a.normal[0] * a.normal[0] + a.normal[1] * a.normal[1] + a.normal[2] * a.normal[2] - 1) > 1e-9)
            __builtin_trap();
    });
    const int image = voxwave::fuzz::expect_input_errors_only([&] {
        const voxwave::Image im = voxwave::read_image_h5(path);
        if (im.values.size() != im.n_depth() * im.n_lateral() || im.lateral.empty() || im.depth.empty())
            __builtin_trap();
    });
    return acquisition | image;
}
