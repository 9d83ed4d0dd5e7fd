// Dense matrices of one spectral voxel element, built from the same sum-factorised kernel the
// time loop uses (sem_element_kernel.hpp), for the CFL bound, the dispersion analysis and the
// tests. Local order: dof i * (p + 1)^3 + n (component-major, nodes lexicographic, x fastest).
#pragma once

#include <Eigen/Dense>

#include "model/material.hpp"
#include "wave/sem_element_kernel.hpp"

namespace voxwave {

// f = K_e u through sem_element_force for the run-time order (kSemMinOrder..kSemMaxOrder).
void sem_element_force_dynamic(const GllTables& gll, double lambda, double mu, double half_ds, const double* u,
                               double* f);

// K_e column by column (3 (p + 1)^3 square).
Eigen::MatrixXd sem_element_stiffness(int order, double ds, double lambda, double mu);
// The GLL-lumped mass of every dof: rho (ds / 2)^3 w_a w_b w_c.
Eigen::VectorXd sem_element_mass(int order, double ds, double density);

// Largest eigenvalue of M_e^-1 K_e: bounds omega_max^2 of the assembled model (Irons' theorem
// holds for any element-wise lumped diagonal mass), hence the CFL limit.
double sem_element_max_omega2(int order, double ds, const Material& m);

}  // namespace voxwave
