// Measured memory bandwidth of this machine, the yardstick of the CPU benchmarks.
#pragma once

#include <cstddef>

namespace voxwave {

// STREAM-style copy b[i] = a[i] over `bytes_per_array` with all OpenMP threads; returns the
// median over `repeats` of (bytes read + bytes written) / time, in GB/s (1e9 bytes).
double measure_copy_bandwidth_gbs(std::size_t bytes_per_array = std::size_t(256) << 20, int repeats = 7);

}  // namespace voxwave
