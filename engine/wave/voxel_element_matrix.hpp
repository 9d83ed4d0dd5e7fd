// Dense 24x24 element matrices of the voxel element, built from the same kernel the time loop
// uses (so what `voxwave-cli element` writes and what the tests check is what runs).
#pragma once

#include <Eigen/Dense>

#include "model/material.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

using ElementMatrix = Eigen::Matrix<double, 24, 24>;

// K_e column by column: K_e e_j via voxel_element_force.
ElementMatrix voxel_element_stiffness(ElementMethod method, double ds, double lambda, double mu);
inline ElementMatrix voxel_element_stiffness(ElementMethod method, double ds, const Material& m) {
    return voxel_element_stiffness(method, ds, m.lame_lambda(), m.shear_modulus());
}
// Lumped (VFEM) or exact-diagonal (OVFEM) mass: rho ds^3 / 8 for every dof.
Eigen::Matrix<double, 24, 1> voxel_element_mass(double ds, double density);

// Largest eigenvalue of M_e^-1 K_e: bounds omega_max^2 of the assembled model (Irons' theorem),
// hence the CFL limit.
double voxel_element_max_omega2(ElementMethod method, double ds, const Material& m);

}  // namespace voxwave
