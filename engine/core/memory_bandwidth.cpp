#include "core/memory_bandwidth.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace voxwave {

double measure_copy_bandwidth_gbs(std::size_t bytes_per_array, int repeats) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(bytes_per_array / sizeof(double));
    std::vector<double> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
    // First touch in parallel so pages land where the threads run.
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        a[i] = double(i);
        b[i] = 0.0;
    }
    std::vector<double> rates;
    for (int r = 0; r < repeats + 1; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const double* __restrict src = a.data();
        double* __restrict dst = b.data();
#pragma omp parallel for simd schedule(static)
        for (std::ptrdiff_t i = 0; i < n; ++i) dst[i] = src[i];
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (r > 0) rates.push_back(2.0 * double(n) * sizeof(double) / s / 1e9);  // first run is warm-up
    }
    std::nth_element(rates.begin(), rates.begin() + rates.size() / 2, rates.end());
    return rates[rates.size() / 2] + 0.0 * b[static_cast<std::size_t>(n / 2)];
}

}  // namespace voxwave
