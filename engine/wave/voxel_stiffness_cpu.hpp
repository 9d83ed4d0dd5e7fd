// Element-by-element stiffness product f = K u over the whole voxel grid, on the CPU, and the
// time step that fuses the central-difference update into the same sweep (step_fused).
//
// Layout (why): displacements are structure-of-arrays, one array per component over the
// x-fastest node numbering, so the 8 corners of the elements of one x-row are 4 contiguous
// node rows: loads are unit-stride and W elements of a row go through the element kernel per
// SIMD instruction. apply() sends a row's element forces through a small per-thread buffer
// into f (element_rows.hpp); step_fused() keeps the forces of the two node planes an element
// plane touches in a per-thread ring and updates a node plane as soon as it is complete.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "model/material.hpp"
#include "model/voxel_grid.hpp"
#include "wave/central_difference.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

// Per-node factors of the central-difference update u+ = (2u - (1 - h) u- - dt^2/m f) / (1 + h)
// (time_stepper_cpu.hpp states the scheme). inv_one_plus_h and one_minus_h hold one value per
// node, or a single value when uniform. central_difference_node (central_difference.hpp) applies
// them at one node.
template <class Real>
struct CentralDifference {
    const Real* dt2_inv_mass = nullptr;
    const Real* inv_one_plus_h = nullptr;
    const Real* one_minus_h = nullptr;
    bool uniform = true;
};

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

    // One time step with the update fused into the plane sweep: u_prev (u-) is overwritten in
    // place by u+ = (2u - (1 - h) u- - dt^2/m K w) / (1 + h), w = u + b (u - u-), without
    // sources. f never goes to memory: a node plane's force is complete once the sweep has
    // passed the element plane above it, and is used there from a per-thread ring of two
    // planes. Planes go in fixed chunks of kPlanesPerChunk; the two partial forces of a node
    // plane shared by two chunks go to boundary buffers and are summed (lower chunk's first)
    // after a barrier, so results do not depend on the thread count. Not reentrant (the
    // buffers are members): one step at a time per object.
    void step_fused(const std::array<const Real*, 3>& u, const std::array<Real*, 3>& u_prev, Real b,
                    const CentralDifference<Real>& update) const;
    // Bytes step_fused must move per step between the caches and memory: u, u-, dt^2/m read
    // and u+ written once per node (+ the per-node h factors with a sponge), 1 B material id
    // per element, the boundary partial forces written and read once, and u, u- of the
    // boundary node planes read a second time by their update after the barrier.
    double fused_step_bytes(bool sponge) const;

    // Bytes of step_fused's buffers now allocated (boundary partials, per-thread rings).
    std::size_t buffer_bytes() const { return (boundary_.size() + scratch_.size()) * sizeof(Real); }

    static constexpr int kPlanesPerChunk = 16;

    const VoxelGrid& grid() const { return grid_; }
    ElementMethod method() const { return method_; }

private:
    template <bool Damped>
    void apply_plane(int k, const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev, Real b,
                     const std::array<Real*, 3>& f, Real* rowbuf) const;

    template <bool Damped>
    void step_fused_impl(const std::array<const Real*, 3>& u, const std::array<Real*, 3>& u_prev, Real b,
                         const CentralDifference<Real>& update) const;

    const VoxelGrid& grid_;
    ElementMethod method_;
    ModeScales scales_;
    std::array<Real, 256> lambda_{};  // by material id
    std::array<Real, 256> mu_{};
    // step_fused's boundary partial forces and per-thread rings, kept between steps (zero
    // padding lanes must stay zero).
    mutable std::vector<Real> boundary_, scratch_;
};

extern template class VoxelStiffnessCpu<double>;
extern template class VoxelStiffnessCpu<float>;

}  // namespace voxwave
