// Element matrices of VFEM and OVFEM: symmetry, rigid-body modes, patch test, mass, and VFEM
// against an independently written trilinear 2x2x2 Gauss integration.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>

#include "wave/voxel_element_matrix.hpp"

using namespace voxwave;

namespace {

const Material kConcrete{"concrete", 2400, 4000, 2450, "#9a9a9a", ""};
constexpr double kDs = 0.002;

// Local node coordinates in the order of docs/architecture.md#wave-numerics.
const int kR[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                      {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

// Textbook isoparametric hexahedron: B (6 x 24, Voigt, engineering shear) at each of the
// 2x2x2 Gauss points, D from lambda and mu, K = sum B^t D B det(J). Written without reference
// to the moment kernel on purpose.
ElementMatrix trilinear_gauss_stiffness(double ds, double lambda, double mu) {
    Eigen::Matrix<double, 6, 6> D = Eigen::Matrix<double, 6, 6>::Zero();
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) D(i, j) = lambda;
        D(i, i) = lambda + 2 * mu;
        D(i + 3, i + 3) = mu;
    }
    const double g = 1.0 / std::sqrt(3.0);
    const double jac = ds / 2.0;  // dx/dr
    ElementMatrix K = ElementMatrix::Zero();
    for (int q = 0; q < 8; ++q) {
        const double r[3] = {kR[q][0] * g, kR[q][1] * g, kR[q][2] * g};
        Eigen::Matrix<double, 6, 24> B = Eigen::Matrix<double, 6, 24>::Zero();
        for (int a = 0; a < 8; ++a) {
            double dN[3];
            for (int d = 0; d < 3; ++d) {
                double v = kR[a][d] / 8.0;
                for (int e = 0; e < 3; ++e)
                    if (e != d) v *= (1.0 + kR[a][e] * r[e]);
                dN[d] = v / jac;
            }
            B(0, 3 * a + 0) = dN[0];
            B(1, 3 * a + 1) = dN[1];
            B(2, 3 * a + 2) = dN[2];
            B(3, 3 * a + 0) = dN[1];  // gamma_xy
            B(3, 3 * a + 1) = dN[0];
            B(4, 3 * a + 1) = dN[2];  // gamma_yz
            B(4, 3 * a + 2) = dN[1];
            B(5, 3 * a + 0) = dN[2];  // gamma_xz
            B(5, 3 * a + 2) = dN[0];
        }
        K += B.transpose() * D * B * (jac * jac * jac);
    }
    return K;
}

class ElementMatrixTest : public ::testing::TestWithParam<ElementMethod> {};

TEST_P(ElementMatrixTest, SymmetricWithExactlySixRigidBodyModes) {
    const ElementMatrix K = voxel_element_stiffness(GetParam(), kDs, kConcrete);
    const double scale = K.cwiseAbs().maxCoeff();
    EXPECT_LT((K - K.transpose()).cwiseAbs().maxCoeff(), 1e-14 * scale);
    Eigen::SelfAdjointEigenSolver<ElementMatrix> eig(K);
    const auto ev = eig.eigenvalues();
    // Zero to round-off (1e-12 of the largest) and clearly positive otherwise.
    int zeros = 0;
    for (int i = 0; i < 24; ++i) {
        if (std::abs(ev(i)) < 1e-12 * ev(23)) ++zeros;
        EXPECT_GT(ev(i), -1e-12 * ev(23));
    }
    EXPECT_EQ(zeros, 6);
    EXPECT_GT(ev(6), 1e-3 * ev(23));  // the 7th eigenvalue is a real deformation mode
}

TEST_P(ElementMatrixTest, RigidRotationsAndTranslationsCostNothing) {
    const ElementMatrix K = voxel_element_stiffness(GetParam(), kDs, kConcrete);
    const double scale = K.cwiseAbs().maxCoeff() * kDs;
    for (int mode = 0; mode < 6; ++mode) {
        Eigen::Matrix<double, 24, 1> u;
        for (int a = 0; a < 8; ++a) {
            const double x[3] = {kR[a][0] * kDs / 2, kR[a][1] * kDs / 2, kR[a][2] * kDs / 2};
            Eigen::Vector3d v = Eigen::Vector3d::Zero();
            if (mode < 3)
                v(mode) = kDs;
            else {
                Eigen::Vector3d w = Eigen::Vector3d::Zero();
                w(mode - 3) = 1.0;
                v = w.cross(Eigen::Vector3d(x[0], x[1], x[2]));
            }
            u.segment<3>(3 * a) = v;
        }
        EXPECT_LT((K * u).cwiseAbs().maxCoeff(), 1e-13 * scale) << "mode " << mode;
    }
}

TEST_P(ElementMatrixTest, UniformStrainEnergyIsExact) {
    // u = E x for a symmetric strain E: strain energy must be V/2 E:C:E exactly for both methods.
    const double lambda = kConcrete.lame_lambda(), mu = kConcrete.shear_modulus();
    const ElementMatrix K = voxel_element_stiffness(GetParam(), kDs, kConcrete);
    const double E[3][3] = {{1e-4, 2e-5, -3e-5}, {2e-5, -5e-5, 4e-5}, {-3e-5, 4e-5, 7e-5}};
    Eigen::Matrix<double, 24, 1> u;
    for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i) {
            u(3 * a + i) = 0;
            for (int j = 0; j < 3; ++j) u(3 * a + i) += E[i][j] * kR[a][j] * kDs / 2;
        }
    const double tr = E[0][0] + E[1][1] + E[2][2];
    double ece = lambda * tr * tr;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) ece += 2 * mu * E[i][j] * E[i][j];
    const double expected = 0.5 * kDs * kDs * kDs * ece;
    EXPECT_NEAR(0.5 * u.dot(K * u), expected, 1e-12 * expected);
}

TEST_P(ElementMatrixTest, MassIsRhoTimesVolume) {
    const auto m = voxel_element_mass(kDs, kConcrete.density);
    // Each of the 3 components carries the full element mass.
    EXPECT_DOUBLE_EQ(m.sum() / 3.0, kConcrete.density * kDs * kDs * kDs);
    EXPECT_DOUBLE_EQ(m(0), kConcrete.density * kDs * kDs * kDs / 8.0);
}

INSTANTIATE_TEST_SUITE_P(BothMethods, ElementMatrixTest, ::testing::Values(ElementMethod::Vfem, ElementMethod::Ovfem),
                         [](const auto& case_info) {
                             return case_info.param == ElementMethod::Vfem ? "vfem" : "ovfem";
                         });

TEST(VfemElement, EqualsIndependentTrilinearGaussIntegration) {
    for (const Material& m : {kConcrete, Material{"steel", 7850, 5900, 3200, "#4a6fa5", ""}}) {
        const ElementMatrix K = voxel_element_stiffness(ElementMethod::Vfem, kDs, m);
        const ElementMatrix R = trilinear_gauss_stiffness(kDs, m.lame_lambda(), m.shear_modulus());
        EXPECT_LT((K - R).cwiseAbs().maxCoeff(), 1e-13 * R.cwiseAbs().maxCoeff()) << m.name;
    }
}

TEST(OvfemElement, DiffersFromVfemOnlyInHigherModes) {
    // Both share the constant-strain part; OVFEM weights the linear / bilinear strain modes by
    // (3/2)^2 and (9/4)^2 (quadrant vs bilinear weights), so it is stiffer: K_o - K_v is
    // positive semi-definite and non-zero.
    const ElementMatrix Kv = voxel_element_stiffness(ElementMethod::Vfem, kDs, kConcrete);
    const ElementMatrix Ko = voxel_element_stiffness(ElementMethod::Ovfem, kDs, kConcrete);
    Eigen::SelfAdjointEigenSolver<ElementMatrix> eig(Ko - Kv);
    EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-12 * Ko.norm());
    EXPECT_GT(eig.eigenvalues().maxCoeff(), 0.1 * Kv.norm() / 24);
}

}  // namespace
