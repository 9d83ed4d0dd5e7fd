// Solid shapes that paint a material into the voxel grid, and the random-aggregate generator.
// All geometry is in metres so a scene can be voxelised at any spacing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace voxwave {

using Vec3 = std::array<double, 3>;

struct BoxShape {
    Vec3 min{0, 0, 0}, max{0, 0, 0};
    bool operator==(const BoxShape&) const = default;
};

// A finite circular cylinder: `center` is the middle of the axis segment, `axis` any non-zero
// direction (normalised on use), `length` the full length along it.
struct CylinderShape {
    Vec3 center{0, 0, 0}, axis{0, 0, 1};
    double radius = 0, length = 0;
    bool operator==(const CylinderShape&) const = default;
};

struct SphereShape {
    Vec3 center{0, 0, 0};
    double radius = 0;
    bool operator==(const SphereShape&) const = default;
};

// Concrete-style random aggregate: non-overlapping spheres with radii uniform in
// [radius_min, radius_max], placed inside [min, max] until `fraction` of that box's volume is
// filled or placement stalls. Deterministic for a given seed (std::mt19937_64).
// A flat box (min z == max z, a 2D scene's) holds disks: centres in that plane, `fraction` of
// its area.
// A flat box (min z == max z, a 2D scene's) holds disks: centres in that plane, `fraction` of
// its area.
struct AggregateShape {
    Vec3 min{0, 0, 0}, max{0, 0, 0};
    double fraction = 0.3;
    double radius_min = 0, radius_max = 0;
    std::uint64_t seed = 1;
    bool operator==(const AggregateShape&) const = default;
};

struct TriangleMesh;  // model/stl_surface.hpp

// A closed triangulated surface read from an STL file (ASCII or binary): the elements whose
// centres it encloses (ray parity) take the material. The file's coordinates are multiplied by
// `scale` and moved by `translate` (metres). `mesh` is that surface in metres, loaded when the
// scene is read (load_stl_surface); equality compares the file and the placement only.
struct StlShape {
    std::string file;  // as written in the scene (relative paths are relative to the scene file)
    double scale = 1;
    Vec3 translate{0, 0, 0};
    std::shared_ptr<const TriangleMesh> mesh;
    bool operator==(const StlShape& o) const { return file == o.file && scale == o.scale && translate == o.translate; }
};

struct Shape {
    std::string material;  // a scene material name or "void"
    std::variant<BoxShape, CylinderShape, SphereShape, AggregateShape, StlShape> geometry;
    bool operator==(const Shape&) const = default;
};

// True when point p lies inside (closed set) the box / cylinder / sphere.
bool contains(const BoxShape& s, const Vec3& p);
bool contains(const CylinderShape& s, const Vec3& p);
bool contains(const SphereShape& s, const Vec3& p);

// The spheres an AggregateShape stands for (same seed, same spheres, on every machine).
// Radii are drawn first until their volume reaches the target, then placed largest first,
// each at uniformly random centres until it overlaps nothing; placement stops early (below the
// target fraction) after kAggregateMaxAttempts consecutive failures for one sphere.
// Throws InputError("", FIELD, reason) for invalid parameters (see validate_shape).
std::vector<SphereShape> generate_aggregate(const AggregateShape& a);

inline constexpr std::size_t kAggregateMaxSpheres = 1'000'000;
inline constexpr int kAggregateMaxAttempts = 200'000;

// How many spheres the aggregate asks for (cheap: no placement). Throws InputError("",
// "radius_min", ...) above kAggregateMaxSpheres, which would take minutes and gigabytes.
std::size_t aggregate_sphere_count(const AggregateShape& a);

// Geometry checks (the material name is the scene's business): finite numbers, max > min,
// radius/length > 0, non-zero axis, aggregate fraction in (0, 0.74], 0 < radius_min <=
// radius_max, 2 radius_max no larger than the box, and at most kAggregateMaxSpheres spheres.
// Throws InputError(file, FIELD, reason), FIELD prefixed with `field` ("shapes[1].radius").
// dimensions 2 (a 2D scene): boxes and aggregates are checked in x and y only (their z is 0).
void validate_shape(const Shape& s, const std::string& file, const std::string& field, int dimensions = 3);
// Whether an aggregate holds disks in the plane z = min z (a 2D scene's) rather than spheres.
inline bool aggregate_is_flat(const AggregateShape& a) { return a.min[2] == a.max[2]; }

}  // namespace voxwave
