#include "scene/rasterise.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "model/stl_surface.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"

namespace voxwave {
namespace {

struct Bounds {
    Vec3 lo, hi;
};

Bounds bounds(const BoxShape& s) { return {s.min, s.max}; }

Bounds bounds(const SphereShape& s) {
    return {{s.center[0] - s.radius, s.center[1] - s.radius, s.center[2] - s.radius},
            {s.center[0] + s.radius, s.center[1] + s.radius, s.center[2] + s.radius}};
}

Bounds bounds(const CylinderShape& s) {
    double len = std::sqrt(s.axis[0] * s.axis[0] + s.axis[1] * s.axis[1] + s.axis[2] * s.axis[2]);
    Bounds b;
    for (int a = 0; a < 3; ++a) {
        double u = len > 0 ? s.axis[a] / len : 0;
        // Half the axis segment projected on axis a, plus the reach of the end discs along a.
        double half = 0.5 * s.length * std::fabs(u) + s.radius * std::sqrt(std::max(0.0, 1.0 - u * u));
        b.lo[a] = s.center[a] - half;
        b.hi[a] = s.center[a] + half;
    }
    return b;
}

// Visits the elements whose centres lie in a shape.
class ElementVisitor {
public:
    // plane: a 2D scene's one-layer grid, whose elements stand for the plane z = origin z (so a
    // sphere paints its full disk there).
    explicit ElementVisitor(const VoxelGrid& g, bool plane = false) : g_(g), centre_z_(plane ? 0.0 : 0.5) {}

    // Visits only the elements whose centres can lie in the shape's bounding box; contains()
    // decides, so the range may be generous by one element on each side.
    template <class S, class F>
    void for_each_inside(const S& shape, F&& visit) const {
        Bounds b = bounds(shape);
        std::array<int, 3> lo{}, hi{};
        for (int a = 0; a < 3; ++a) {
            double first = std::floor((b.lo[a] - g_.origin[a]) / g_.spacing - 0.5);
            double last = std::ceil((b.hi[a] - g_.origin[a]) / g_.spacing - 0.5);
            lo[a] = static_cast<int>(std::clamp(first, 0.0, double(g_.n[a])));
            hi[a] = static_cast<int>(std::clamp(last, -1.0, double(g_.n[a] - 1)));
        }
        for (int k = lo[2]; k <= hi[2]; ++k)
            for (int j = lo[1]; j <= hi[1]; ++j)
                for (int i = lo[0]; i <= hi[0]; ++i)
                    if (contains(shape, centre(i, j, k))) visit(g_.element_index(i, j, k));
    }

    Vec3 centre(int i, int j, int k) const {
        return {g_.origin[0] + (i + 0.5) * g_.spacing, g_.origin[1] + (j + 0.5) * g_.spacing,
                g_.origin[2] + (k + centre_z_) * g_.spacing};
    }

private:
    const VoxelGrid& g_;
    double centre_z_;
};

class Painter : public ElementVisitor {
public:
    Painter(VoxelGrid& g, bool plane) : ElementVisitor(g, plane), ids_(g.ids) {}
    template <class S>
    void paint(const S& shape, MaterialId id) {
        for_each_inside(shape, [&](std::size_t e) { ids_[e] = id; });
    }

private:
    std::vector<MaterialId>& ids_;
};

// The elements an STL shape encloses; a shape built without its surface (in code) loads it here.
std::vector<std::size_t> stl_elements(const VoxelGrid& g, const StlShape& s, const std::string& base_dir) {
    if (s.mesh) return elements_inside_surface(g, *s.mesh);
    return elements_inside_surface(g, *load_stl_surface(resolve_path(base_dir, s.file), s.scale, s.translate));
}

MaterialId id_of(const Scene& scene, const std::string& name, const std::string& field) {
    try {
        return static_cast<MaterialId>(scene.material_id(name));
    } catch (const InputError& e) {
        throw InputError("", field, e.reason());
    }
}

void paint_voxels_file(const Scene& scene, VoxelGrid& g, const Painter& painter) {
    const std::string path = resolve_path(scene.base_dir, scene.voxels->file);
    const std::string& dataset = scene.voxels->dataset;
    VoxelGrid painted = read_voxels_h5(path, dataset);
    MaterialId highest = painted.ids.empty() ? 0 : *std::max_element(painted.ids.begin(), painted.ids.end());
    if (highest > scene.materials.size())
        throw InputError(path, dataset,
                         "material id " + std::to_string(highest) + " but the scene has " +
                             std::to_string(scene.materials.size()) + " materials");
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                Vec3 c = painter.centre(i, j, k);
                std::array<int, 3> p{};
                bool inside = true;
                for (int a = 0; a < 3 && inside; ++a) {
                    double q = std::floor((c[a] - painted.origin[a]) / painted.spacing);
                    inside = q >= 0 && q < painted.n[a];
                    p[a] = inside ? static_cast<int>(q) : 0;
                }
                if (inside) g.ids[g.element_index(i, j, k)] = painted.at(p[0], p[1], p[2]);
            }
}

}  // namespace

std::array<int, 3> element_counts(const GridSpec& grid, double spacing) {
    check_spacing(spacing, "", "grid.spacing");
    std::array<int, 3> n{};
    double total = 1;
    for (int a = 0; a < 3; ++a) {
        double q = std::round(grid.size[a] / spacing);
        if (!std::isfinite(q)) throw InputError("", "grid.size", "must be finite numbers");
        q = std::max(1.0, q);
        total *= q;
        if (total > double(kMaxElements))
            throw InputError(
                "", "grid.spacing",
                "spacing " + format_number(spacing) + " gives more than 2^31 elements; use a coarser spacing");
        n[a] = static_cast<int>(q);
    }
    return n;
}

std::vector<std::size_t> shape_elements(const VoxelGrid& grid, const Shape& shape) {
    const ElementVisitor painter(grid);
    std::vector<std::size_t> out;
    const auto collect = [&](std::size_t e) { out.push_back(e); };
    if (const auto* a = std::get_if<AggregateShape>(&shape.geometry)) {
        for (const SphereShape& sphere : generate_aggregate(*a)) painter.for_each_inside(sphere, collect);
    } else if (const auto* stl = std::get_if<StlShape>(&shape.geometry)) {
        out = stl_elements(grid, *stl, "");
    } else {
        std::visit(
            [&](const auto& geometry) {
                using T = std::decay_t<decltype(geometry)>;
                if constexpr (!std::is_same_v<T, AggregateShape> && !std::is_same_v<T, StlShape>)
                    painter.for_each_inside(geometry, collect);
            },
            shape.geometry);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

VoxelGrid rasterise(const Scene& scene, double spacing) {
    VoxelGrid g;
    g.spacing = spacing > 0 ? spacing : scene.grid.spacing;
    g.n = element_counts(scene.grid, g.spacing);
    g.origin = scene.grid.origin;
    g.ids.assign(g.element_count(), id_of(scene, scene.background, "background"));
    Painter painter(g, scene.grid.plane_strain());

    if (scene.voxels) paint_voxels_file(scene, g, painter);

    for (std::size_t s = 0; s < scene.shapes.size(); ++s) {
        const Shape& shape = scene.shapes[s];
        const std::string field = "shapes[" + std::to_string(s) + "]";
        MaterialId id = id_of(scene, shape.material, field + ".material");
        if (const auto* a = std::get_if<AggregateShape>(&shape.geometry)) {
            std::vector<SphereShape> spheres;
            try {
                spheres = generate_aggregate(*a);
            } catch (const InputError& e) {
                throw e.within(field);
            }
            for (const SphereShape& sphere : spheres) painter.paint(sphere, id);
        } else if (const auto* stl = std::get_if<StlShape>(&shape.geometry)) {
            std::vector<std::size_t> inside;
            try {
                inside = stl_elements(g, *stl, scene.base_dir);
            } catch (const InputError& e) {
                throw InputError("", field + ".file", e.what());
            }
            for (std::size_t e : inside) g.ids[e] = id;
        } else {
            std::visit(
                [&](const auto& geometry) {
                    using T = std::decay_t<decltype(geometry)>;
                    if constexpr (!std::is_same_v<T, AggregateShape> && !std::is_same_v<T, StlShape>)
                        painter.paint(geometry, id);
                },
                shape.geometry);
        }
    }
    // Wedges last: they sit on the specimen, in the void above it.
    for (std::size_t i = 0; i < scene.probes.size(); ++i)
        if (const auto& w = scene.probes[i].wedge)
            painter.paint(probe_wedge_block(scene.probes[i]),
                          id_of(scene, w->material, "probes[" + std::to_string(i) + "].wedge.material"));
    return g;
}

}  // namespace voxwave
