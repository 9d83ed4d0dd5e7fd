#include "probe/delay_law.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace voxwave {

std::vector<double> probe_element_offsets(int elements, double pitch) {
    std::vector<double> x(std::size_t(std::max(elements, 0)));
    for (std::size_t e = 0; e < x.size(); ++e) x[e] = (double(e) - 0.5 * double(elements - 1)) * pitch;
    return x;
}

std::vector<double> delay_law_delays(const DelayLawSpec& law, const std::vector<double>& offsets, double velocity) {
    std::vector<double> d(offsets.size(), 0.0);
    const double angle = law.angle * std::numbers::pi / 180.0;
    if (law.type == "custom") {
        d = law.delays;
    } else if (law.type == "steer") {
        for (std::size_t e = 0; e < d.size(); ++e) d[e] = offsets[e] * std::sin(angle) / velocity;
    } else if (law.type == "focus") {
        const double fx = law.depth * std::tan(angle), fz = law.depth;
        for (std::size_t e = 0; e < d.size(); ++e) d[e] = -std::hypot(fx - offsets[e], fz) / velocity;
    }
    if (!d.empty() && law.type != "custom") {
        const double first = *std::min_element(d.begin(), d.end());
        for (double& v : d) v -= first;
    }
    return d;
}

}  // namespace voxwave
