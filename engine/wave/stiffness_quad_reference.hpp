// FP128 (IEEE binary128, 112 fraction bits) reference of the voxel stiffness product K u: the
// accuracy yardstick of seed 000 Table 3 (`voxwave-cli table3`) and of the TCOVFEM tests.
// Plain element-by-element assembly with voxel_element_force<Quad>; the material constants
// (lambda = rho (vp^2 - 2 vs^2), mu = rho vs^2) and the mode scales are evaluated in FP128 from
// the double inputs, so the only roundings are FP128 ones (2^-113 relative each).
// CPU only (GCC/Clang on x86-64: __float128 arithmetic is software, ~50x slower than FP64).
#pragma once

#include <vector>

#include "model/material.hpp"
#include "model/voxel_grid.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

__extension__ typedef __float128 Quad;

// y = K u for SoA u [component * node_count + node] (void elements contribute nothing).
// OpenMP over element z-planes in even/odd phases: the summation order, hence the result, does
// not depend on the thread count.
std::vector<Quad> stiffness_times_quad(const VoxelGrid& grid, const std::vector<Material>& materials,
                                       ElementMethod method, const std::vector<double>& u);

// The mode scales of mode_scales() evaluated in FP128.
void quad_mode_scales(ElementMethod method, double ds, Quad out[3]);

}  // namespace voxwave
