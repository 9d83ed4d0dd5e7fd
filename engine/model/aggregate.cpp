#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <unordered_map>

#include "core/errors.hpp"
#include "model/shapes.hpp"

namespace voxwave {
namespace {

// std::uniform_real_distribution is implementation-defined; this conversion (the top 53 bits
// of one engine output) gives the same doubles with every standard library.
class Uniform {
public:
    explicit Uniform(std::uint64_t seed) : engine_(seed) {}
    double operator()() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
    double operator()(double lo, double hi) { return lo + (hi - lo) * (*this)(); }

private:
    std::mt19937_64 engine_;
};

double sphere_volume(double r) { return 4.0 / 3.0 * std::numbers::pi * r * r * r; }
double disk_area(double r) { return std::numbers::pi * r * r; }

std::vector<double> draw_radii(const AggregateShape& a, Uniform& uniform) {
    const bool flat = aggregate_is_flat(a);
    double box_volume = (a.max[0] - a.min[0]) * (a.max[1] - a.min[1]) * (flat ? 1.0 : a.max[2] - a.min[2]);
    double target = a.fraction * box_volume;
    std::vector<double> radii;
    double volume = 0;
    while (volume < target) {
        if (radii.size() >= kAggregateMaxSpheres)
            throw InputError("", "radius_min",
                             "the aggregate needs more than " + std::to_string(kAggregateMaxSpheres) +
                                 " spheres; raise radius_min or lower fraction");
        double r = uniform(a.radius_min, a.radius_max);
        radii.push_back(r);
        volume += flat ? disk_area(r) : sphere_volume(r);
    }
    return radii;
}

// Spheres bucketed by cells of side 2 radius_max: two spheres can only overlap when their
// centres are less than 2 radius_max apart, i.e. in neighbouring cells.
class SphereIndex {
public:
    SphereIndex(const Vec3& origin, double cell) : origin_(origin), cell_(cell) {}

    bool overlaps(const Vec3& c, double r, const std::vector<SphereShape>& placed) const {
        Cell k = cell_of(c);
        for (std::int64_t dz = -1; dz <= 1; ++dz)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dx = -1; dx <= 1; ++dx) {
                    auto it = cells_.find({k.x + dx, k.y + dy, k.z + dz});
                    if (it == cells_.end()) continue;
                    for (std::size_t i : it->second) {
                        const SphereShape& s = placed[i];
                        double ex = c[0] - s.center[0], ey = c[1] - s.center[1], ez = c[2] - s.center[2];
                        double reach = r + s.radius;
                        if (ex * ex + ey * ey + ez * ez < reach * reach) return true;
                    }
                }
        return false;
    }

    void add(const Vec3& c, std::size_t index) { cells_[cell_of(c)].push_back(index); }

private:
    struct Cell {
        std::int64_t x, y, z;
        bool operator==(const Cell&) const = default;
    };
    struct CellHash {
        std::size_t operator()(const Cell& c) const {
            std::uint64_t h = static_cast<std::uint64_t>(c.x) * 0x9E3779B97F4A7C15ull;
            h ^= static_cast<std::uint64_t>(c.y) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
            h ^= static_cast<std::uint64_t>(c.z) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
            return static_cast<std::size_t>(h);
        }
    };

    Cell cell_of(const Vec3& c) const {
        return {static_cast<std::int64_t>(std::floor((c[0] - origin_[0]) / cell_)),
                static_cast<std::int64_t>(std::floor((c[1] - origin_[1]) / cell_)),
                static_cast<std::int64_t>(std::floor((c[2] - origin_[2]) / cell_))};
    }

    Vec3 origin_;
    double cell_;
    std::unordered_map<Cell, std::vector<std::size_t>, CellHash> cells_;
};

}  // namespace

std::size_t aggregate_sphere_count(const AggregateShape& a) {
    Uniform uniform(a.seed);
    return draw_radii(a, uniform).size();
}

std::vector<SphereShape> generate_aggregate(const AggregateShape& a) {
    const bool flat = aggregate_is_flat(a);
    validate_shape(Shape{"", a}, "", "", flat ? 2 : 3);
    Uniform uniform(a.seed);
    std::vector<double> radii = draw_radii(a, uniform);
    // Largest first, as concrete take-and-place generators do: big grains find room while the
    // box is still empty, small ones fill the gaps.
    std::sort(radii.begin(), radii.end(), std::greater<>());

    std::vector<SphereShape> placed;
    placed.reserve(radii.size());
    SphereIndex index(a.min, 2.0 * a.radius_max);
    for (double r : radii) {
        bool done = false;
        for (int attempt = 0; attempt < kAggregateMaxAttempts && !done; ++attempt) {
            Vec3 c{uniform(a.min[0] + r, a.max[0] - r), uniform(a.min[1] + r, a.max[1] - r),
                   flat ? a.min[2] : uniform(a.min[2] + r, a.max[2] - r)};
            if (index.overlaps(c, r, placed)) continue;
            index.add(c, placed.size());
            placed.push_back({c, r});
            done = true;
        }
        if (!done) break;  // jammed: stop rather than spend the attempt budget on every remaining sphere
    }
    return placed;
}

}  // namespace voxwave
