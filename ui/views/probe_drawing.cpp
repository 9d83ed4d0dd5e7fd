#include "views/probe_drawing.hpp"

#include <cmath>
#include <numbers>

#include "probe/delay_law.hpp"

namespace voxwave::ui {

namespace {

Vec3 unit(const Vec3& v) {
    const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return n > 0 ? Vec3{v[0] / n, v[1] / n, v[2] / n} : Vec3{0, 0, 0};
}

Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

Vec3 at(const Vec3& c, const Vec3& u, double a, const Vec3& v, double b) {
    return {c[0] + a * u[0] + b * v[0], c[1] + a * u[1] + b * v[1], c[2] + a * u[2] + b * v[2]};
}

std::array<Vec3, 4> rect(const Vec3& c, const Vec3& u, double half_u, const Vec3& v, double half_v) {
    return {at(c, u, -half_u, v, -half_v), at(c, u, half_u, v, -half_v), at(c, u, half_u, v, half_v),
            at(c, u, -half_u, v, half_v)};
}

}  // namespace

double probe_beam_angle(const ProbeSpec& probe, double wedge_velocity, double velocity) {
    const auto& law = probe.delay_law;
    if (law.type == "steer" || law.type == "focus") return law.angle;
    if (law.type == "none" && probe.wedge) {
        if (!(wedge_velocity > 0) || !(velocity > 0)) return probe.wedge->angle;
        const double s = velocity / wedge_velocity * std::sin(probe.wedge->angle * std::numbers::pi / 180);
        return std::abs(s) < 1 ? std::asin(s) * 180 / std::numbers::pi : 90.0;
    }
    return 0;
}

ProbeDrawing probe_drawing(const ProbeSpec& probe, double wedge_velocity, double velocity) {
    ProbeDrawing d;
    const Vec3 n = unit(probe.normal);
    Vec3 u = unit(probe.array_axis);
    if (u == Vec3{0, 0, 0}) u = {1, 0, 0};
    const Vec3 v = unit(cross(n, u));
    const double lift = probe.wedge ? probe.wedge->height : 0;
    d.face_center = at(probe.center, n, -lift, u, 0);
    d.along = u;
    d.across = v;
    if (probe.is_array()) {
        const std::vector<double> x = probe_element_offsets(probe.elements, probe.pitch);
        for (double xe : x)
            d.elements.push_back(
                rect(at(d.face_center, u, xe, v, 0), u, 0.5 * probe.element_width, v, 0.5 * probe.elevation));
        const double half = x.empty() ? 0 : 0.5 * ((x.back() - x.front()) + probe.element_width);
        const auto r = rect(d.face_center, u, half, v, 0.5 * probe.elevation);
        d.outline.assign(r.begin(), r.end());
    } else if (probe.shape == "rect") {
        const auto r = rect(d.face_center, u, 0.5 * probe.width, v, 0.5 * probe.length);
        d.elements.push_back(r);
        d.outline.assign(r.begin(), r.end());
    } else {
        const double rad = 0.5 * probe.diameter;
        d.elements.push_back(rect(d.face_center, u, rad, v, rad));
        for (int k = 0; k < 32; ++k) {
            const double a = 2 * std::numbers::pi * k / 32;
            d.outline.push_back(at(d.face_center, u, rad * std::cos(a), v, rad * std::sin(a)));
        }
    }
    d.beam_angle = probe_beam_angle(probe, wedge_velocity, velocity);
    const double t = d.beam_angle * std::numbers::pi / 180;
    d.beam = unit(at({0, 0, 0}, n, std::cos(t), u, std::sin(t)));
    return d;
}

}  // namespace voxwave::ui
