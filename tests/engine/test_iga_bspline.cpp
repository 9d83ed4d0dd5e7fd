// B-spline basis and Gauss quadrature of engine/iga (issue 6): closed-form properties.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "iga/bspline_basis.hpp"
#include "iga/gauss_legendre.hpp"
#include "iga/iga_space.hpp"

using namespace voxwave;
using namespace voxwave::iga;

TEST(IgaBSpline, PartitionOfUnityAndNonNegativity) {
    for (int p = 1; p <= 5; ++p)
        for (int N : {1, 3, 8}) {
            const BSplineBasis1D b(p, N);
            for (int k = 0; k <= 200; ++k) {
                const double x = k / 200.0;
                double sum = 0;
                for (int i = 0; i < b.size(); ++i) {
                    const double v = b.value(i, x);
                    EXPECT_GE(v, -1e-15) << "p " << p << " i " << i << " x " << x;
                    sum += v;
                }
                EXPECT_NEAR(sum, 1.0, 1e-14) << "p " << p << " N " << N << " x " << x;
            }
        }
}

TEST(IgaBSpline, DerivativesMatchFiniteDifferences) {
    const double h = 1e-6;
    for (int p = 1; p <= 5; ++p) {
        const BSplineBasis1D b(p, 5);
        for (double x : {0.013, 0.17, 0.33, 0.5, 0.61, 0.95}) {
            const int s = b.find_span(x);
            std::vector<double> d(2 * (p + 1));
            b.evaluate(s, x, 1, d.data());
            for (int a = 0; a <= p; ++a) {
                const int i = s - p + a;
                const double fd = (b.value(i, x + h) - b.value(i, x - h)) / (2 * h);
                EXPECT_NEAR(d[p + 1 + a], fd, 1e-6 * std::max(1.0, std::abs(fd))) << "p " << p << " x " << x;
                EXPECT_DOUBLE_EQ(d[a], b.value(i, x));
            }
        }
    }
}

TEST(IgaBSpline, SecondDerivativeOfQuadraticsIsPiecewiseConstant) {
    // p = 2 on one element: N = (1-x)^2, 2x(1-x), x^2; second derivatives 2, -4, 2.
    const BSplineBasis1D b(2, 1);
    std::vector<double> d(9);
    b.evaluate(2, 0.3, 2, d.data());
    EXPECT_NEAR(d[0], 0.49, 1e-15);
    EXPECT_NEAR(d[1], 0.42, 1e-15);
    EXPECT_NEAR(d[2], 0.09, 1e-15);
    EXPECT_NEAR(d[6], 2.0, 1e-13);
    EXPECT_NEAR(d[7], -4.0, 1e-13);
    EXPECT_NEAR(d[8], 2.0, 1e-13);
}

TEST(IgaBSpline, KnotSpanLookupEdges) {
    for (int p = 1; p <= 4; ++p) {
        const int N = 7;
        const BSplineBasis1D b(p, N);
        EXPECT_EQ(b.find_span(0.0), p);
        EXPECT_EQ(b.find_span(1.0), b.size() - 1);  // the right end belongs to the last span
        EXPECT_EQ(b.find_span(std::nextafter(1.0, 0.0)), b.size() - 1);
        for (int k = 1; k < N; ++k) {
            const double knot = b.knots()[p + k];
            EXPECT_EQ(b.find_span(knot), p + k) << "a knot starts its span";
            EXPECT_EQ(b.find_span(std::nextafter(knot, 0.0)), p + k - 1);
            EXPECT_EQ(b.find_span(std::nextafter(knot, 1.0)), p + k);
        }
        EXPECT_THROW(b.find_span(-1e-12), InputError);
        EXPECT_THROW(b.find_span(1.0 + 1e-12), InputError);
        EXPECT_THROW(b.find_span(std::nan("")), InputError);
    }
}

TEST(IgaBSpline, GrevilleReproducesLinearFunctions) {
    const BSplineBasis1D b(3, 6);
    for (double x : {0.0, 0.21, 0.5, 0.77, 1.0}) {
        double u = 0;
        for (int i = 0; i < b.size(); ++i) u += b.greville(i) * b.value(i, x);
        EXPECT_NEAR(u, x, 1e-15);
    }
}

TEST(IgaBSpline, BadDegreeOrElementsAreInputErrors) {
    EXPECT_THROW(BSplineBasis1D(0, 4), InputError);
    EXPECT_THROW(BSplineBasis1D(2, 0), InputError);
}

TEST(IgaGauss, IntegratesPolynomialsOfDegree2nMinus1Exactly) {
    for (int n = 1; n <= 8; ++n) {
        const GaussRule g = gauss_legendre_unit(n);
        for (int d = 0; d <= 2 * n - 1; ++d) {
            double sum = 0;
            for (int q = 0; q < n; ++q) sum += g.weights[q] * std::pow(g.points[q], d);
            EXPECT_NEAR(sum, 1.0 / (d + 1), 1e-15) << "n " << n << " degree " << d;
        }
    }
}

TEST(IgaSpace, ElementStiffnessIsSymmetricWithZeroRowSums) {
    // Constants are in the kernel of the Laplacian and B-splines sum to one: every row sums to 0.
    for (int p = 1; p <= 4; ++p) {
        const IgaSpace s = make_iga_space(p, 4);
        const int ne = (p + 1) * (p + 1);
        for (int e : {0, 1, 3}) {
            const std::vector<double> k = iga_element_matrix(s, e, 3 - e);
            for (int a = 0; a < ne; ++a) {
                double row = 0;
                for (int b = 0; b < ne; ++b) {
                    row += k[a * ne + b];
                    EXPECT_NEAR(k[a * ne + b], k[b * ne + a], 1e-15);
                }
                EXPECT_NEAR(row, 0.0, 1e-14);
                EXPECT_GT(k[a * ne + a], 0.0);
            }
        }
    }
}

#include "iga/iga_cost.hpp"

TEST(IgaCost, FittedExponentOfAPowerLaw) {
    const std::vector<double> x{16, 64, 256, 1024};
    std::vector<double> y;
    for (double v : x) y.push_back(3.0 * std::pow(v, 1.5));
    EXPECT_NEAR(fitted_exponent(x, y), 1.5, 1e-12);
    EXPECT_TRUE(std::isnan(fitted_exponent({4.0}, {2.0})));
}
