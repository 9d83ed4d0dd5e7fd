// Dense 8x8 matrices of the plane-strain square element, built from the kernel the time loop
// uses (plane_strain_element_kernel.hpp), per unit thickness.
#pragma once

#include <Eigen/Dense>

#include "model/material.hpp"
#include "wave/plane_strain_element_kernel.hpp"

namespace voxwave {

using PlaneElementMatrix = Eigen::Matrix<double, 8, 8>;

// K_e column by column: K_e e_j via plane_strain_element_force (N/m per m of thickness).
PlaneElementMatrix plane_strain_element_stiffness(ElementMethod method, double lambda, double mu);
inline PlaneElementMatrix plane_strain_element_stiffness(ElementMethod method, const Material& m) {
    return plane_strain_element_stiffness(method, m.lame_lambda(), m.shear_modulus());
}
// Lumped mass per unit thickness: rho ds^2 / 4 for every dof.
inline double plane_strain_node_mass_share(double ds, double density) { return density * ds * ds / 4.0; }

// Largest eigenvalue of M_e^-1 K_e (Irons' bound on omega_max^2 of the assembled model).
double plane_strain_element_max_omega2(ElementMethod method, double ds, const Material& m);

}  // namespace voxwave
