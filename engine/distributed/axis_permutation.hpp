// Turning a wave problem so that its longest axis is z, the axis slabs cut (issue 8: "slabs
// along the longest axis"). The seams are then the smallest planes of the model, so the halo is
// as small as slabs allow, and a z seam's node plane is contiguous.
//
// The turn is a cyclic rotation of the axes (x, y, z) -> (y, z, x) or (z, x, y): a proper rotation,
// under which the isotropic voxel elements and the central-difference update are unchanged, so a
// turned run gives the same traces up to rounding, with the components rotated back at the end.
#pragma once

#include <array>

#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

struct AxisTurn {
    std::array<int, 3> from{0, 1, 2};  // new axis d is old axis from[d]
    bool identity() const { return from[0] == 0 && from[1] == 1 && from[2] == 2; }
};

// The rotation that makes the longest axis (in elements) the last one; identity when z already is
// (ties keep the current order).
AxisTurn longest_axis_last(const VoxelGrid& grid);

// Element planes along the axis the slabs will cut (the longest).
inline int slab_axis_planes(const VoxelGrid& grid) { return grid.n[std::size_t(longest_axis_last(grid).from[2])]; }

// The same problem in turned axes: grid, node arrays, constraints, sources (node, position,
// force direction), receivers and snapshot nodes.
WaveProblem turn_axes(const WaveProblem& problem, const AxisTurn& turn);

// A result computed in turned axes back in the problem's axes (displacement, velocity and
// snapshot components; receiver positions are taken from `original`).
void turn_result_back(Result& result, const AxisTurn& turn, const WaveProblem& original);
// Vectors of [point * 3 + c] in turned components back to the problem's components.
void turn_components_back(std::vector<double>& values, const AxisTurn& turn);

}  // namespace voxwave
