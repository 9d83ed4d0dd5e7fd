#include "wave/probe_overlay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/errors.hpp"
#include "probe/delay_law.hpp"
#include "probe/probe_footprint.hpp"

namespace voxwave {
namespace {

constexpr double kDegree = std::numbers::pi / 180;

Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

Vec3 along(const Vec3& p, const Vec3& d, double s) { return {p[0] + s * d[0], p[1] + s * d[1], p[2] + s * d[2]}; }

// The rectangle centred on c, half-sizes ha along u and hb along v.
std::vector<Vec3> rectangle(const Vec3& c, const Vec3& u, double ha, const Vec3& v, double hb) {
    constexpr int kCorners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    std::vector<Vec3> r;
    for (const auto& s : kCorners) r.push_back(along(along(c, u, s[0] * ha), v, s[1] * hb));
    return r;
}

// How far from p along the unit d the ray stays in the grid's box (0 when p is outside).
double distance_to_exit(const VoxelGrid& g, const Vec3& p, const Vec3& d) {
    double s = std::numeric_limits<double>::infinity();
    for (int a = 0; a < 3; ++a) {
        const double lo = g.origin[std::size_t(a)], hi = lo + g.n[std::size_t(a)] * g.spacing;
        const double x = p[std::size_t(a)], v = d[std::size_t(a)];
        if (v > 1e-12) s = std::min(s, (hi - x) / v);
        if (v < -1e-12) s = std::min(s, (lo - x) / v);
    }
    return std::max(0.0, s);
}

}  // namespace

std::vector<ProbeBeam> probe_beams(const Scene& scene, const VoxelGrid& grid) {
    std::vector<ProbeBeam> out;
    for (std::size_t i = 0; i < scene.probes.size(); ++i) {
        const ProbeSpec& spec = scene.probes[i];
        ProbeFootprint fp;
        try {
            fp = probe_footprint(spec, grid, "scene", "probes[" + std::to_string(i) + "]");
        } catch (const InputError&) {
            continue;
        }
        ProbeBeam b;
        b.name = spec.name;
        b.normal_axis = fp.normal_axis;
        const Vec3 across = cross(fp.normal, fp.axis);
        if (spec.is_array()) {
            for (double x : fp.offsets)
                b.faces.push_back(rectangle(along(fp.center, fp.axis, x), fp.axis, spec.element_width / 2, across,
                                            spec.elevation / 2));
        } else if (spec.shape == "rect") {
            b.faces.push_back(rectangle(fp.center, fp.axis, spec.width / 2, across, spec.length / 2));
        } else {
            std::vector<Vec3> disk;
            constexpr int kSides = 48;
            for (int k = 0; k < kSides; ++k) {
                const double phi = 2 * std::numbers::pi * k / kSides;
                disk.push_back(along(along(fp.center, fp.axis, 0.5 * spec.diameter * std::cos(phi)), across,
                                     0.5 * spec.diameter * std::sin(phi)));
            }
            b.faces.push_back(std::move(disk));
        }
        // The beam leaves the middle of the active aperture.
        const int n = spec.element_count();
        const int first = spec.active_count > 0 ? spec.active_first : 0;
        const int count = spec.active_count > 0 ? spec.active_count : n;
        const double mid =
            spec.is_array()
                ? 0.5 * (fp.offsets[std::size_t(first)] + fp.offsets[std::size_t(std::min(n, first + count) - 1)])
                : 0.0;
        const DelayLawSpec& law = spec.delay_law;
        const bool steered = spec.is_array() && (law.type == "steer" || law.type == "focus");
        double theta = steered ? law.angle * kDegree : 0;
        Vec3 p = along(fp.center, fp.axis, mid);
        b.beam.push_back(p);
        if (spec.wedge && fp.wedge_height > 0) {
            const double c = probe_law_velocity(spec, fp, scene.materials);
            const double c_wedge = fp.material != kVoidId && fp.material <= scene.materials.size()
                                       ? scene.materials[fp.material - 1].vp
                                       : 0;
            if (!(c > 0 && c_wedge > 0)) continue;
            double alpha = 0;
            if (steered) {
                const double s = c_wedge / c * std::sin(theta);
                if (std::abs(s) >= 1) continue;  // no ray reaches that angle (the run refuses it)
                alpha = std::asin(s);
            } else {
                alpha = spec.wedge->angle * kDegree;
                const double s = c / c_wedge * std::sin(alpha);
                if (std::abs(s) >= 1) continue;  // past the critical angle: nothing refracts
                theta = std::asin(s);
            }
            const Vec3 in_wedge = {std::cos(alpha) * fp.normal[0] + std::sin(alpha) * fp.axis[0],
                                   std::cos(alpha) * fp.normal[1] + std::sin(alpha) * fp.axis[1],
                                   std::cos(alpha) * fp.normal[2] + std::sin(alpha) * fp.axis[2]};
            p = along(p, in_wedge, fp.wedge_height / std::cos(alpha));
            b.beam.push_back(p);
        }
        const Vec3 d = {std::cos(theta) * fp.normal[0] + std::sin(theta) * fp.axis[0],
                        std::cos(theta) * fp.normal[1] + std::sin(theta) * fp.axis[1],
                        std::cos(theta) * fp.normal[2] + std::sin(theta) * fp.axis[2]};
        b.focused = spec.is_array() && law.type == "focus" && law.depth > 0 && !(spec.wedge && fp.wedge_height > 0);
        const double length = b.focused ? law.depth / std::cos(theta) : distance_to_exit(grid, p, d);
        b.beam.push_back(along(p, d, length));
        b.angle = theta / kDegree;
        out.push_back(std::move(b));
    }
    return out;
}

std::vector<SliceProbe> slice_probes(const std::vector<ProbeBeam>& beams, const VoxelGrid& g, SlicePlane plane,
                                     int node_plane) {
    const auto [ax_a, ax_b, ax_n] = plane_axes(plane);
    auto at = [&, ax_a = ax_a, ax_b = ax_b](const Vec3& p) {
        return std::array<double, 2>{(p[std::size_t(ax_a)] - g.origin[std::size_t(ax_a)]) / g.spacing,
                                     (p[std::size_t(ax_b)] - g.origin[std::size_t(ax_b)]) / g.spacing};
    };
    // The slice's position along its normal, in node spacings.
    const double slice_at = node_plane;
    std::vector<SliceProbe> out;
    for (const ProbeBeam& b : beams) {
        SliceProbe s;
        s.name = b.name;
        s.focused = b.focused;
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const auto& face : b.faces) {
            s.faces.emplace_back();
            for (const Vec3& p : face) {
                s.faces.back().push_back(at(p));
                const double n = (p[std::size_t(ax_n)] - g.origin[std::size_t(ax_n)]) / g.spacing;
                lo = std::min(lo, n);
                hi = std::max(hi, n);
            }
        }
        // A face across the slice is cut where the slice lies within its extent; a face parallel
        // to it, within half a node spacing of it.
        s.cut = b.normal_axis == ax_n ? std::abs(lo - slice_at) <= 0.5 : slice_at >= lo - 1e-9 && slice_at <= hi + 1e-9;
        for (const Vec3& p : b.beam) s.beam.push_back(at(p));
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace voxwave
