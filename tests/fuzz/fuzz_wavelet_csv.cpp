// Fuzz target: the sampled-wavelet reader on CSV text (load_wavelet_samples, .csv).
#include <cstdint>

#include "fuzz_input.hpp"
#include "scene/wavelet_samples.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = voxwave::fuzz::input_as_file(data, size, ".csv");
    return voxwave::fuzz::expect_input_errors_only(
        [&] { voxwave::fuzz::require_finite_samples(voxwave::load_wavelet_samples(path, "")); });
}
