#include "wave/plane_strain_element_matrix.hpp"

#include <Eigen/Eigenvalues>

namespace voxwave {

PlaneElementMatrix plane_strain_element_stiffness(ElementMethod method, double lambda, double mu) {
    const PlaneModeScales s = plane_strain_mode_scales(method);
    PlaneElementMatrix k;
    double u[8], f[8];
    for (int j = 0; j < 8; ++j) {
        for (int i = 0; i < 8; ++i) u[i] = (i == j) ? 1.0 : 0.0;
        plane_strain_element_force(u, lambda, mu, s.constant, s.linear, f);
        for (int i = 0; i < 8; ++i) k(i, j) = f[i];
    }
    return k;
}

double plane_strain_element_max_omega2(ElementMethod method, double ds, const Material& m) {
    const PlaneElementMatrix k = plane_strain_element_stiffness(method, m);
    Eigen::SelfAdjointEigenSolver<PlaneElementMatrix> eig(k, Eigen::EigenvaluesOnly);
    return eig.eigenvalues().maxCoeff() / plane_strain_node_mass_share(ds, m.density);
}

}  // namespace voxwave
