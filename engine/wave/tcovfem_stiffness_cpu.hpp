// TCOVFEM stiffness product f = K w on the CPU: an exact emulation of the INT8 Tensor Core
// algorithm (seed 000 eqs. 9-17; wave/tcovfem_int8.hpp). Every element's off-diagonal part
// A ubar goes through the integer digits (tcovfem_element_force_int: one FP64 -> INT64
// conversion, M 7-bit stages, exact integer products, one FP64 rounding at the end); the
// remaining diagonal 245 (G ds / 384) I of every element is summed per node once
// (D_n = sum over the elements e at node n of 245 G_e ds / 384) and applied in FP64.
//
// Since every integer step is exact, the element forces are the numbers the GPU's Tensor
// Cores produce; this is the CPU oracle of the CUDA kernel and lets TCOVFEM run (slowly) on
// machines without a GPU. Same layout and threading as VoxelStiffnessCpu: SoA arrays, element
// rows along x into a per-thread buffer, whole z-planes per thread in even/odd phases.
#pragma once

#include <array>
#include <vector>

#include "model/material.hpp"
#include "model/voxel_grid.hpp"
#include "wave/tcovfem_int8.hpp"

namespace voxwave {

class TcovfemStiffnessCpu {
public:
    // materials[id - 1] is material id; id 0 is void (no element). stages = M, which the run
    // rules allow (tcovfem_stages_allowed; std::logic_error otherwise: validate_scene refuses
    // other M before a run gets here).
    TcovfemStiffnessCpu(const VoxelGrid& grid, const std::vector<Material>& materials, int stages);

    // f = K w with w = u + b (u - u_prev); u_prev may be null, then w = u. f is overwritten.
    // Arrays are SoA, each of grid.node_count() entries (the VoxelStiffnessCpu<double> contract).
    void apply(const std::array<const double*, 3>& u, const std::array<const double*, 3>& u_prev, double b,
               const std::array<double*, 3>& f) const;

    const VoxelGrid& grid() const { return grid_; }
    int stages() const { return stages_; }
    const TcovfemInt8Matrix& matrix() const { return matrix_; }
    // D_n per node (the FP64 diagonal).
    const std::vector<double>& node_diagonal() const { return diagonal_; }

private:
    template <bool Damped>
    void apply_plane(int k, const std::array<const double*, 3>& u, const std::array<const double*, 3>& u_prev, double b,
                     const std::array<double*, 3>& f, double* rowbuf) const;

    const VoxelGrid& grid_;
    int stages_;
    TcovfemInt8Matrix matrix_;
    std::array<TcovfemMaterialFactors, 256> factors_{};  // by material id; void stays {0, 0}
    std::vector<double> diagonal_;
};

}  // namespace voxwave
