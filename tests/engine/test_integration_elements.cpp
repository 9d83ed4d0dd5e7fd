// Element integration lab (issue 7, seeds 001 and 003): shape-function counts, quadrature,
// and the properties every element matrix must have. Oracles: seed 001's Table 1, closed-form
// integrals, the VFEM voxel stiffness (engine/wave) and an independent B^T D B written here.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <set>
#include <vector>

#include "integration/element_batch.hpp"
#include "integration/integrate_cpu.hpp"
#include "integration/quadrature.hpp"
#include "integration/reference_tables.hpp"
#include "wave/voxel_element_matrix.hpp"

using namespace voxwave::integration;
using Matrix = Eigen::MatrixXd;

namespace {

Matrix element_matrix(ElementType type, int p, const ProblemCoefficients& c, double distortion,
                      CpuAlgorithm alg = CpuAlgorithm::Plain, HexRule rule = HexRule::Full) {
    const ReferenceTables t = make_reference_tables(type, p, rule);
    const ElementBatch b = make_element_batch(type, 1, 0.01, distortion);
    const int n = c.equations * t.nsh;
    std::vector<double> k(std::size_t(n) * n);
    if (alg == CpuAlgorithm::Plain)
        integrate_element_plain(t, c, b.element(0), k.data());
    else
        integrate_element_sumfact(t, c, b.element(0), k.data());
    return Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(k.data(), n, n);
}

// Eigenvalues |lambda| below 1e-13 of the largest count as zero. Measured: rigid-body
// eigenvalues sit at 1e-16 relative; the smallest non-zero one is 5e-6 (hex p = 10) and 5e-10
// (prism p = 7, whose triangle bubbles are small), so the gap test asks for 1e-11.
int zero_eigenvalues(const Matrix& k, double* gap = nullptr) {
    const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Matrix>(k, Eigen::EigenvaluesOnly).eigenvalues();
    const double top = ev.cwiseAbs().maxCoeff();
    int zeros = 0;
    double smallest_nonzero = top;
    for (int i = 0; i < ev.size(); ++i) {
        if (std::abs(ev[i]) < 1e-13 * top)
            ++zeros;
        else
            smallest_nonzero = std::min(smallest_nonzero, std::abs(ev[i]));
    }
    if (gap) *gap = smallest_nonzero / top;
    return zeros;
}

double relative_asymmetry(const Matrix& k) {
    return (k - k.transpose()).cwiseAbs().maxCoeff() / k.cwiseAbs().maxCoeff();
}

const ProblemCoefficients kSteel = elasticity_coefficients(1.15e11, 7.7e10);

}  // namespace

TEST(IntegrationHex, DofCountsMatchSeed001Table1) {
    const int table1[10] = {24, 60, 96, 150, 222, 315, 432, 576, 750, 957};
    for (int p = 1; p <= 10; ++p) {
        const auto modes = hex_modes(p);
        EXPECT_EQ(3 * hex_shape_count(p), table1[p - 1]) << "p = " << p;
        EXPECT_EQ(3 * int(modes.size()), table1[p - 1]) << "p = " << p;
        const std::set<std::array<int, 3>> distinct(modes.begin(), modes.end());
        EXPECT_EQ(distinct.size(), modes.size()) << "p = " << p;
    }
    // Interior modes only from p = 6 (seed 001): p = 6 adds exactly one (2,2,2).
    EXPECT_EQ(hex_shape_count(6) - hex_shape_count(5), 12 + 18 + 1);
}

TEST(IntegrationHex, PointsPerDirectionFollowEq7) {
    // Seed 001 Table 3: n_G = 8, 8, 64, 125, 343 for p = 1..5.
    const int table3[5] = {8, 8, 64, 125, 343};
    for (int p = 1; p <= 5; ++p) {
        const int n = hex_points_per_direction(p, HexRule::PaperEq7);
        EXPECT_EQ(n * n * n, table3[p - 1]) << "p = " << p;
    }
    // The default rule differs only where eq. 7 under-integrates (p = 2).
    for (int p = 1; p <= 10; ++p)
        EXPECT_EQ(hex_points_per_direction(p, HexRule::Full),
                  p == 2 ? 3 : hex_points_per_direction(p, HexRule::PaperEq7));
}

TEST(IntegrationQuadrature, GaussExactUpToDesignedDegree) {
    for (int n = 1; n <= 14; ++n) {
        std::vector<double> x, w;
        gauss_legendre(n, x, w);
        for (int k = 0; k <= 2 * n; ++k) {
            double s = 0;
            for (int i = 0; i < n; ++i) s += w[i] * std::pow(x[i], k);
            const double exact = k % 2 ? 0.0 : 2.0 / (k + 1);
            if (k <= 2 * n - 1)
                EXPECT_NEAR(s, exact, 1e-14) << "n = " << n << " k = " << k;
            else
                EXPECT_GT(std::abs(s - exact), 1e-11) << "degree 2n must not be exact, n = " << n;
        }
    }
}

TEST(IntegrationQuadrature, HexRuleIntegratesTensorMonomials) {
    for (int p : {1, 4, 10}) {
        const QuadratureRule q = hex_rule(p, HexRule::Full);
        const int d = 2 * q.points_1d - 1;
        for (int a : {0, d - 1, d})
            for (int b : {1, d - 1})
                for (int c : {0, d - 1}) {
                    double s = 0;
                    for (std::size_t i = 0; i < q.weights.size(); ++i)
                        s += q.weights[i] * std::pow(q.points[i][0], a) * std::pow(q.points[i][1], b) *
                             std::pow(q.points[i][2], c);
                    auto one = [](int k) { return k % 2 ? 0.0 : 2.0 / (k + 1); };
                    EXPECT_NEAR(s, one(a) * one(b) * one(c), 1e-13) << p << " " << a << " " << b << " " << c;
                }
    }
}

TEST(IntegrationQuadrature, PrismRuleExactForDegree2pOnTriangle) {
    auto fact = [](int k) { return std::tgamma(k + 1.0); };
    for (int p = 2; p <= 7; ++p) {
        const QuadratureRule q = prism_rule(p);
        EXPECT_EQ(int(q.weights.size()), (p + 1) * (p + 1) * (p + 1));
        for (int a = 0; a <= 2 * p; ++a)
            for (int b = 0; a + b <= 2 * p; ++b)
                for (int c : {0, 2 * p, 2 * p + 1}) {
                    double s = 0;
                    for (std::size_t i = 0; i < q.weights.size(); ++i)
                        s += q.weights[i] * std::pow(q.points[i][0], a) * std::pow(q.points[i][1], b) *
                             std::pow(q.points[i][2], c);
                    // integral over the triangle of xi1^a xi2^b = a! b! / (a + b + 2)!
                    const double exact = fact(a) * fact(b) / fact(a + b + 2) * (c % 2 ? 0.0 : 2.0 / (c + 1));
                    EXPECT_NEAR(s, exact, 1e-14) << "p = " << p << " a = " << a << " b = " << b << " c = " << c;
                }
    }
}

TEST(IntegrationHex, LinearElementEqualsTrilinearVoxelStiffness) {
    // An undistorted cube of side 0.01 m: p = 1 must be the VFEM voxel element (2x2x2 Gauss).
    const double lambda = 1.15e11, mu = 7.7e10, ds = 0.01;
    const Matrix k = element_matrix(ElementType::Hexahedron, 1, elasticity_coefficients(lambda, mu), 0.0);
    const voxwave::ElementMatrix vfem = voxwave::voxel_element_stiffness(voxwave::ElementMethod::Vfem, ds, lambda, mu);
    EXPECT_LT((k - vfem).cwiseAbs().maxCoeff() / vfem.cwiseAbs().maxCoeff(), 1e-13);
}

TEST(IntegrationHex, DistortedLinearElementEqualsBtDB) {
    // Independent oracle: the textbook B^T D B det J w sum over 2x2x2 Gauss points.
    const double lambda = 2e9, mu = 1e9;
    const Matrix k = element_matrix(ElementType::Hexahedron, 1, elasticity_coefficients(lambda, mu), 0.15);
    const ElementBatch b = make_element_batch(ElementType::Hexahedron, 1, 0.01, 0.15);
    Eigen::Matrix<double, 6, 6> d = Eigen::Matrix<double, 6, 6>::Zero();
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) d(i, j) = lambda;
        d(i, i) += 2 * mu;
        d(3 + i, 3 + i) = mu;
    }
    const double g = 1 / std::sqrt(3.0);
    const int sr[8] = {-1, 1, 1, -1, -1, 1, 1, -1}, ss[8] = {-1, -1, 1, 1, -1, -1, 1, 1},
              st[8] = {-1, -1, -1, -1, 1, 1, 1, 1};
    Matrix ref = Matrix::Zero(24, 24);
    for (int q = 0; q < 8; ++q) {
        const double x[3] = {sr[q] * g, ss[q] * g, st[q] * g};
        Eigen::Matrix<double, 3, 8> dn;  // reference derivatives
        for (int v = 0; v < 8; ++v) {
            const double fr = 1 + sr[v] * x[0], fs = 1 + ss[v] * x[1], ft = 1 + st[v] * x[2];
            dn(0, v) = sr[v] * fs * ft / 8;
            dn(1, v) = fr * ss[v] * ft / 8;
            dn(2, v) = fr * fs * st[v] / 8;
        }
        Eigen::Matrix3d jac = Eigen::Matrix3d::Zero();  // jac(r, c) = d x_c / d xi_r
        for (int v = 0; v < 8; ++v)
            for (int c = 0; c < 3; ++c) jac.col(c) += dn.col(v) * b.element(0)[v * 3 + c];
        const Eigen::Matrix<double, 3, 8> gx = jac.inverse() * dn;
        Eigen::Matrix<double, 6, 24> bm = Eigen::Matrix<double, 6, 24>::Zero();
        for (int v = 0; v < 8; ++v) {
            for (int c = 0; c < 3; ++c) bm(c, 3 * v + c) = gx(c, v);
            bm(3, 3 * v + 0) = gx(1, v), bm(3, 3 * v + 1) = gx(0, v);
            bm(4, 3 * v + 1) = gx(2, v), bm(4, 3 * v + 2) = gx(1, v);
            bm(5, 3 * v + 0) = gx(2, v), bm(5, 3 * v + 2) = gx(0, v);
        }
        ref += bm.transpose() * d * bm * jac.determinant();
    }
    EXPECT_LT((k - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff(), 1e-13);
}

TEST(IntegrationHex, ElasticitySymmetricWithSixRigidModesEveryOrder) {
    // Distorted elements; sum factorisation (checked against the plain algorithm below) for
    // p >= 8 keeps the test fast, the plain algorithm for the rest.
    for (int p = 1; p <= 10; ++p) {
        const Matrix k = element_matrix(ElementType::Hexahedron, p, kSteel, 0.15,
                                        p >= 8 ? CpuAlgorithm::SumFactorisation : CpuAlgorithm::Plain);
        EXPECT_EQ(k.rows(), 3 * hex_shape_count(p));
        EXPECT_LT(relative_asymmetry(k), 1e-13) << "p = " << p;
        double gap = 0;
        EXPECT_EQ(zero_eigenvalues(k, &gap), 6) << "p = " << p;
        EXPECT_GT(gap, 1e-8) << "p = " << p;  // the 7th eigenvalue is clearly not zero
    }
}

TEST(IntegrationHex, PaperRuleUnderIntegratesOrderTwo) {
    // Eq. 7 at p = 2: 8 points x 6 strains = rank 48 < 60 - 6: 12 zero-energy modes.
    const Matrix k = element_matrix(ElementType::Hexahedron, 2, kSteel, 0.15, CpuAlgorithm::Plain, HexRule::PaperEq7);
    EXPECT_EQ(zero_eigenvalues(k), 60 - 48);
}

TEST(IntegrationHex, SumFactorisationEqualsPlain) {
    const double b[3] = {1.0, -2.0, 0.5};
    const ProblemCoefficients problems[3] = {kSteel, laplace_coefficients(3.0),
                                             convection_diffusion_coefficients(0.1, b, 2.0)};
    for (const auto& c : problems)
        for (int p = 1; p <= 6; ++p) {
            if (c.problem != voxwave::integration::Problem::Elasticity && p != 4) continue;
            const Matrix plain = element_matrix(ElementType::Hexahedron, p, c, 0.15);
            const Matrix sf = element_matrix(ElementType::Hexahedron, p, c, 0.15, CpuAlgorithm::SumFactorisation);
            EXPECT_LT((plain - sf).cwiseAbs().maxCoeff() / plain.cwiseAbs().maxCoeff(), 1e-13)
                << to_string(c.problem) << " p = " << p;
        }
}

TEST(IntegrationPrism, ShapeCountsAndRigidModes) {
    for (int p = 2; p <= 7; ++p) {
        EXPECT_EQ(prism_shape_count(p), (p + 1) * (p + 1) * (p + 2) / 2);
        const Matrix k = element_matrix(ElementType::Prism, p, kSteel, 0.15);
        EXPECT_LT(relative_asymmetry(k), 1e-13) << "p = " << p;
        double gap = 0;
        EXPECT_EQ(zero_eigenvalues(k, &gap), 6) << "p = " << p;
        EXPECT_GT(gap, 1e-11) << "p = " << p;
    }
}

TEST(IntegrationPrism, LaplaceHasOnlyConstantsInItsKernel) {
    for (int p : {2, 5, 7}) {
        const Matrix k = element_matrix(ElementType::Prism, p, laplace_coefficients(1.0), 0.15);
        EXPECT_LT(relative_asymmetry(k), 1e-13);
        EXPECT_EQ(zero_eigenvalues(k), 1) << "p = " << p;
    }
}

TEST(IntegrationPrism, ConvectionDiffusionAnnihilatesConstantsAndIsNotSymmetric) {
    // Without reaction, K u = 0 for u = 1 (grad 1 = 0); the convection term makes K non-symmetric, and
    // K + K^T = 2 (diffusion) + (b . n boundary term): check only what is exact.
    const double b[3] = {1.0, -2.0, 0.5};
    const Matrix k = element_matrix(ElementType::Prism, 4, convection_diffusion_coefficients(0.1, b, 0.0), 0.15);
    // u = 1: the six vertex functions (triangle l_a times N_0, N_1) sum to one; bubbles get 0.
    Eigen::VectorXd ones = Eigen::VectorXd::Zero(k.rows());
    for (int kz = 0; kz < 2; ++kz)
        for (int a = 0; a < 3; ++a) ones[kz * triangle_shape_count(4) + a] = 1;
    EXPECT_LT((k * ones).cwiseAbs().maxCoeff() / k.cwiseAbs().maxCoeff(), 1e-13);
    EXPECT_GT(relative_asymmetry(k), 1e-3);
    // Reaction c: 1^T K 1 = c |element volume| (the constant is in the space).
    const Matrix kc = element_matrix(ElementType::Prism, 4, convection_diffusion_coefficients(0.1, b, 2.0), 0.0);
    const double volume = 0.5 * 0.01 * 0.01 * 0.01;  // undistorted right prism of side 0.01
    EXPECT_NEAR(ones.dot(kc * ones), 2.0 * volume, 1e-12 * 2.0 * volume);
}
