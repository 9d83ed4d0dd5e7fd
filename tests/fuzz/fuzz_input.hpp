// Shared by the fuzz targets: the input as a file for the readers that take a path, and the
// one exception a reader may throw on bad input.
#pragma once

#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace voxwave::fuzz {

// The fuzz input written to one file per process and extension (the HDF5 library and the
// wavelet reader's format choice both go by the file name), rewritten for every input.
inline std::string input_as_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("voxwave-fuzz-" + std::to_string(::getpid()) + extension)).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.close();
    if (!out) __builtin_trap();  // the harness itself failed, not the reader
    return path;
}

// Runs one reader call. InputError is the readers' contract for bad input and ends the input
// quietly; any other exception escapes, so libFuzzer and the replay report it as a crash.
template <class Fn>
int expect_input_errors_only(Fn&& fn) {
    try {
        fn();
    } catch (const InputError& e) {
        // The one-line message the CLI prints: a reader must never produce a multi-line one.
        const std::string what = e.what();
        if (what.find('\n') != std::string::npos) __builtin_trap();
        // For triage of a corpus: which inputs are refused, and why.
        static const bool verbose = std::getenv("VOXWAVE_FUZZ_VERBOSE") != nullptr;
        if (verbose) std::fprintf(stderr, "InputError: %s\n", what.c_str());
    }
    return 0;
}

// What load_wavelet_samples promises about samples it returns, whichever the format.
inline void require_finite_samples(const std::vector<double>& samples) {
    if (samples.empty()) __builtin_trap();
    for (double v : samples)
        if (!std::isfinite(v)) __builtin_trap();
}

}  // namespace voxwave::fuzz
