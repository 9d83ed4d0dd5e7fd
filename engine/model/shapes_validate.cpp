#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "model/shapes.hpp"

namespace voxwave {
namespace {

class Checker {
public:
    Checker(const std::string& file, const std::string& field, int dimensions)
        : file_(file), field_(field), dimensions_(dimensions) {}
    int dimensions() const { return dimensions_; }

    std::string at(const char* key) const { return field_.empty() ? std::string(key) : field_ + "." + key; }
    InputError error(const char* key, const std::string& reason) const { return {file_, at(key), reason}; }

    void finite(const char* key, const Vec3& v) const {
        for (double x : v)
            if (!std::isfinite(x)) throw error(key, "must be finite numbers");
    }
    void positive(const char* key, double v) const {
        if (!std::isfinite(v)) throw error(key, "must be a finite number");
        if (v <= 0) throw error(key, "must be > 0 (got " + format_number(v) + ")");
    }
    void min_below_max(const Vec3& lo, const Vec3& hi) const {
        finite("min", lo);
        finite("max", hi);
        static const char* axes = "xyz";
        for (int a = 0; a < dimensions_; ++a)
            if (!(hi[a] > lo[a]))
                throw error("max", std::string("must be greater than min in every component (") + axes[a] + ": " +
                                       format_number(hi[a]) + " <= " + format_number(lo[a]) + ")");
    }

private:
    const std::string& file_;
    const std::string& field_;
    int dimensions_;
};

void check(const BoxShape& s, const Checker& c) { c.min_below_max(s.min, s.max); }

void check(const SphereShape& s, const Checker& c) {
    c.finite("center", s.center);
    c.positive("radius", s.radius);
}

void check(const CylinderShape& s, const Checker& c) {
    c.finite("center", s.center);
    c.finite("axis", s.axis);
    if (s.axis[0] == 0 && s.axis[1] == 0 && s.axis[2] == 0) throw c.error("axis", "must not be zero");
    c.positive("radius", s.radius);
    c.positive("length", s.length);
}

void check(const AggregateShape& s, const Checker& c) {
    c.min_below_max(s.min, s.max);
    if (!std::isfinite(s.fraction) || !(s.fraction > 0 && s.fraction <= 0.74))
        throw c.error("fraction",
                      "must be in (0, 0.74], the densest sphere packing (got " + format_number(s.fraction) + ")");
    c.positive("radius_min", s.radius_min);
    c.positive("radius_max", s.radius_max);
    if (s.radius_max < s.radius_min)
        throw c.error("radius_max", "must be >= radius_min (got " + format_number(s.radius_max) + " < " +
                                        format_number(s.radius_min) + ")");
    double smallest = std::min(s.max[0] - s.min[0], s.max[1] - s.min[1]);
    if (c.dimensions() == 3) smallest = std::min(smallest, s.max[2] - s.min[2]);
    if (2 * s.radius_max > smallest)
        throw c.error("radius_max", "spheres of radius " + format_number(s.radius_max) +
                                        " do not fit in the box (smallest side " + format_number(smallest) + ")");
    try {
        aggregate_sphere_count(s);
    } catch (const InputError& e) {
        throw c.error("radius_min", e.reason());
    }
}

void check(const StlShape& s, const Checker& c) {
    if (s.file.empty()) throw c.error("file", "must name an STL file");
    c.positive("scale", s.scale);
    c.finite("translate", s.translate);
}

}  // namespace

void validate_shape(const Shape& s, const std::string& file, const std::string& field, int dimensions) {
    Checker c(file, field, dimensions);
    std::visit([&](const auto& g) { check(g, c); }, s.geometry);
}

}  // namespace voxwave
