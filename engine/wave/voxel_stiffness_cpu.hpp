// Element-by-element stiffness product f = K u over the whole voxel grid, on the CPU.
//
// Layout (why): displacements are structure-of-arrays, one array per component over the
// x-fastest node numbering, so the 8 corners of the elements of one x-row are 4 contiguous
// node rows: loads are unit-stride and the element loop vectorises. Results of one element
// row go to a small per-thread buffer, then are added to the 4 node rows in unit-stride loops
// (no scatter conflicts inside a vector). Threads take whole z-planes of elements; even and
// odd planes run in two phases so no two threads ever add to the same node.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "model/material.hpp"
#include "model/voxel_grid.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

template <class Real>
class VoxelStiffnessCpu {
public:
    // materials[id - 1] is material id; id 0 is void (no element).
    VoxelStiffnessCpu(const VoxelGrid& grid, const std::vector<Material>& materials, ElementMethod method);

    // f = K w with w = u + b (u - u_prev) (the stiffness-proportional damping term of the
    // time integrator); u_prev may be null, then w = u. f is overwritten. Arrays are SoA,
    // each of grid.node_count() entries.
    void apply(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev, Real b,
               const std::array<Real*, 3>& f) const;

    const VoxelGrid& grid() const { return grid_; }
    ElementMethod method() const { return method_; }

private:
    template <bool Damped>
    void apply_plane(int k, const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev, Real b,
                     const std::array<Real*, 3>& f, Real* rowbuf) const;

    const VoxelGrid& grid_;
    ElementMethod method_;
    ModeScales scales_;
    std::array<Real, 256> lambda_{};  // by material id
    std::array<Real, 256> mu_{};
};

extern template class VoxelStiffnessCpu<double>;
extern template class VoxelStiffnessCpu<float>;

}  // namespace voxwave
