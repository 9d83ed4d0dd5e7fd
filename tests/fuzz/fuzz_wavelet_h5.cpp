// Fuzz target: the sampled-wavelet reader on HDF5 file bytes (load_wavelet_samples, .h5).
#include <cstdint>

#include "fuzz_input.hpp"
#include "scene/wavelet_samples.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = voxwave::fuzz::input_as_file(data, size, ".h5");
    return voxwave::fuzz::expect_input_errors_only(
        [&] { voxwave::fuzz::require_finite_samples(voxwave::load_wavelet_samples(path, "/wavelet")); });
}
