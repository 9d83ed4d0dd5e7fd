// Closed triangulated surfaces from STL files (ASCII and binary) and the voxels they enclose
// (docs/architecture.md#files-and-cli, shape type "stl").
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "model/shapes.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave {

struct TriangleMesh {
    std::vector<std::array<Vec3, 3>> triangles;
    Vec3 lo{0, 0, 0}, hi{0, 0, 0};  // bounding box
};

// Reads an STL file: binary (80-byte header, triangle count, 50 bytes a triangle; its size must
// match the count) or ASCII ("solid ... facet normal ... outer loop vertex x y z ... endsolid").
// Throws InputError(path, "", reason) for a missing, empty, truncated or malformed file, a file
// without triangles or with non-finite coordinates.
TriangleMesh read_stl(const std::string& path);

// Refuses a surface that does not enclose a volume: after merging vertices with identical
// coordinates, every edge must be shared by exactly two triangles. Throws InputError(label, "",
// "not a closed surface: N edges are not shared by exactly two triangles (e.g. ...)").
void check_closed_surface(const TriangleMesh& mesh, const std::string& label);

// The surface with every coordinate multiplied by `scale` and moved by `translate`.
TriangleMesh transformed(const TriangleMesh& mesh, double scale, const Vec3& translate);

// read_stl + check_closed_surface + transformed, the loading of a scene's stl shape.
std::shared_ptr<const TriangleMesh> load_stl_surface(const std::string& path, double scale, const Vec3& translate);

// The elements of `grid` whose centres lie inside the closed surface, sorted: a ray along +x
// through each row of element centres counts the triangles it crosses (odd: inside). A row
// through an edge or a vertex counts each crossing once (a shared edge belongs to one of its
// triangles by a fixed tie rule on exactly computed edge functions), so seams never leak.
std::vector<std::size_t> elements_inside_surface(const VoxelGrid& grid, const TriangleMesh& mesh);

}  // namespace voxwave
