// Turning a scene's geometry into a voxel grid at any spacing.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "model/voxel_grid.hpp"
#include "scene/scene.hpp"

namespace voxwave {

// Element counts n = max(1, round(size / spacing)). Order of painting: background, then the
// painted voxels file (resampled nearest-neighbour from its own spacing, id 0 kept as void),
// then shapes in order (later shapes win), then the probes' wedges (probe_wedge_block). An element takes a shape's
// material when its centre lies inside the shape. spacing <= 0 uses scene.grid.spacing.
VoxelGrid rasterise(const Scene& scene, double spacing = 0);

// The elements of `grid` whose centres lie inside `shape` (an aggregate: inside any of its
// spheres), sorted: what rasterise paints for it. Throws InputError for invalid aggregates.
std::vector<std::size_t> shape_elements(const VoxelGrid& grid, const Shape& shape);

// Element counts of the grid at `spacing`: max(1, round(size / spacing)) per axis. Throws
// InputError("", "grid.spacing", reason) for a spacing outside the run rules' range
// (check_spacing) or more than kMaxElements elements (three displacement arrays alone would
// then exceed 150 GB).
std::array<int, 3> element_counts(const GridSpec& grid, double spacing);
inline constexpr std::size_t kMaxElements = std::size_t(1) << 31;

}  // namespace voxwave
