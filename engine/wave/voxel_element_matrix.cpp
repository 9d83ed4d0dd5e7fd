#include "wave/voxel_element_matrix.hpp"

#include <Eigen/Eigenvalues>

namespace voxwave {

ElementMatrix voxel_element_stiffness(ElementMethod method, double ds, double lambda, double mu) {
    const ModeScales s = mode_scales(method, ds);
    ElementMatrix k;
    double u[24], f[24];
    for (int j = 0; j < 24; ++j) {
        for (int i = 0; i < 24; ++i) u[i] = (i == j) ? 1.0 : 0.0;
        voxel_element_force(u, lambda, mu, s.constant, s.linear, s.bilinear, f);
        for (int i = 0; i < 24; ++i) k(i, j) = f[i];
    }
    return k;
}

Eigen::Matrix<double, 24, 1> voxel_element_mass(double ds, double density) {
    return Eigen::Matrix<double, 24, 1>::Constant(density * ds * ds * ds / 8.0);
}

double voxel_element_max_omega2(ElementMethod method, double ds, const Material& m) {
    const ElementMatrix k = voxel_element_stiffness(method, ds, m);
    Eigen::SelfAdjointEigenSolver<ElementMatrix> eig(k, Eigen::EigenvaluesOnly);
    return eig.eigenvalues().maxCoeff() / (m.density * ds * ds * ds / 8.0);
}

}  // namespace voxwave
