// The histogram's quantile (host side of the device reduction).
#include "wave/slice_staging.hpp"

#include <algorithm>
#include <cmath>

namespace voxwave {

float staged_level_from_histogram(const std::uint32_t* bins, std::uint32_t count, float max_abs, double quantile) {
    if (count == 0 || !(max_abs > 0)) return 0.0f;
    // Ascending rank as abs_quantile picks it; ascending magnitude is descending bin index.
    const std::uint64_t rank = std::uint64_t(std::clamp(quantile, 0.0, 1.0) * double(count - 1));
    if (rank + 1 == count) return max_abs;
    std::uint64_t below = 0;
    for (int b = kStagingBins - 1; b >= 0; --b) {
        if (bins[b] == 0) continue;
        if (below + bins[b] > rank) {
            // Bin b holds |v| / max in [2^-(b+1)/n, 2^-b/n); place the rank's value inside it
            // geometrically, as if the bin's values were spread evenly in log scale.
            const double f = (double(rank - below) + 0.5) / double(bins[b]);
            const double e = -(double(b) + 1.0 - f) / kStagingBinsPerOctave;
            return float(std::min<double>(max_abs, max_abs * std::exp2(e)));
        }
        below += bins[b];
    }
    return max_abs;
}

}  // namespace voxwave
