// Fuzz target: the result-file reader (read_result_h5) on arbitrary file bytes.
#include <cstdint>

#include "fuzz_input.hpp"
#include "scene/result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = voxwave::fuzz::input_as_file(data, size, ".h5");
    return voxwave::fuzz::expect_input_errors_only([&] {
        voxwave::Result r = voxwave::read_result_h5(path);
        // The shapes the reader checked, which every consumer indexes by.
        const std::size_t n = r.receiver_count(), nt = r.sample_count();
        if (r.components != 2 && r.components != 3) __builtin_trap();
        const std::size_t nc = std::size_t(r.components);
        if (r.receiver_positions.size() != n || r.displacement.size() != n * nt * nc) __builtin_trap();
        if (!r.velocity.empty() && r.velocity.size() != n * nt * nc) __builtin_trap();
    });
}
