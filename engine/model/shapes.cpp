#include "model/shapes.hpp"

#include <cmath>

namespace voxwave {

bool contains(const BoxShape& s, const Vec3& p) {
    for (int a = 0; a < 3; ++a)
        if (p[a] < s.min[a] || p[a] > s.max[a]) return false;
    return true;
}

bool contains(const CylinderShape& s, const Vec3& p) {
    double len = std::sqrt(s.axis[0] * s.axis[0] + s.axis[1] * s.axis[1] + s.axis[2] * s.axis[2]);
    if (!(len > 0)) return false;
    Vec3 d{p[0] - s.center[0], p[1] - s.center[1], p[2] - s.center[2]};
    double t = (d[0] * s.axis[0] + d[1] * s.axis[1] + d[2] * s.axis[2]) / len;
    if (std::fabs(t) > 0.5 * s.length) return false;
    double radial2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - t * t;
    return radial2 <= s.radius * s.radius;
}

bool contains(const SphereShape& s, const Vec3& p) {
    double dx = p[0] - s.center[0], dy = p[1] - s.center[1], dz = p[2] - s.center[2];
    return dx * dx + dy * dy + dz * dz <= s.radius * s.radius;
}

}  // namespace voxwave
