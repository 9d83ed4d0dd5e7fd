#include "probe/delay_law.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

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

namespace {

// The minimum of a convex function on [a, b] by golden-section search.
template <class F>
double convex_minimum(F&& f, double a, double b) {
    const double r = 0.5 * (std::sqrt(5.0) - 1);
    double c = b - r * (b - a), d = a + r * (b - a), fc = f(c), fd = f(d);
    for (int i = 0; i < 200 && b - a > 1e-15 * (std::abs(a) + std::abs(b) + 1e-9); ++i) {
        if (fc < fd) {
            b = d, d = c, fd = fc;
            c = b - r * (b - a), fc = f(c);
        } else {
            a = c, c = d, fc = fd;
            d = a + r * (b - a), fd = f(d);
        }
    }
    return std::min(fc, fd);
}

}  // namespace

std::vector<double> wedge_delay_law_delays(const DelayLawSpec& law, double wedge_angle,
                                           const std::vector<double>& offsets, const std::vector<double>& heights,
                                           double wedge_velocity, double velocity) {
    const double c1 = wedge_velocity, c2 = velocity;
    const double angle = law.angle * std::numbers::pi / 180.0;
    std::vector<double> t(offsets.size(), 0.0);
    if (law.type == "steer" && c1 * std::abs(std::sin(angle)) / c2 >= 1)
        throw std::invalid_argument("no ray in the wedge refracts to that angle");
    for (std::size_t e = 0; e < t.size(); ++e) {
        const double x = offsets[e], h = heights[e];
        if (law.type == "steer") {
            // Convex in xi; the minimum lies at x + h tan(incidence), within reach of this bracket
            // for any incidence below 89.9 degrees.
            const double reach = 1e3 * (h + 1e-6);
            t[e] = convex_minimum([&](double xi) { return std::hypot(xi - x, h) / c1 - xi * std::sin(angle) / c2; },
                                  x - reach, x + reach);
        } else if (law.type == "focus") {
            const double fx = law.depth * std::tan(angle), fz = law.depth;
            // The ray crosses the interface between the element and the focus.
            t[e] = convex_minimum([&](double xi) { return std::hypot(xi - x, h) / c1 + std::hypot(fx - xi, fz) / c2; },
                                  std::min(x, fx), std::max(x, fx));
        } else {
            const double a = wedge_angle * std::numbers::pi / 180.0;
            t[e] = -(x * std::sin(a) - h * std::cos(a)) / c1;
        }
    }
    std::vector<double> d(t.size(), 0.0);
    if (t.empty()) return d;
    const double latest = *std::max_element(t.begin(), t.end());
    for (std::size_t e = 0; e < t.size(); ++e) d[e] = latest - t[e];
    return d;
}

}  // namespace voxwave
