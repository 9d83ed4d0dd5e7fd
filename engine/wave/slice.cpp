#include "wave/slice.hpp"

#include <algorithm>
#include <cmath>

namespace voxwave {

float SliceImage::max_abs() const {
    float m = 0;
    for (float v : values) m = std::max(m, std::abs(v));
    return m;
}

float abs_quantile(const std::vector<const SliceImage*>& slices, double q) {
    std::vector<float> mags;
    for (const SliceImage* s : slices)
        for (float v : s->values)
            if (v != 0.0f) mags.push_back(std::abs(v));
    if (mags.empty()) return 0.0f;
    const auto nth = mags.begin() + std::ptrdiff_t(std::clamp(q, 0.0, 1.0) * double(mags.size() - 1));
    std::nth_element(mags.begin(), nth, mags.end());
    return *nth;
}

}  // namespace voxwave
