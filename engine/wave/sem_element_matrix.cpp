#include "wave/sem_element_matrix.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <string>

namespace voxwave {

GllTables gll_tables(int order) {
    if (!sem_order_allowed(order)) throw std::logic_error("gll_tables: order " + std::to_string(order));
    const int p = order, n = p + 1;
    GllTables t;
    t.order = p;
    // Legendre P_p and its first two derivatives at x by the three-term recurrence.
    auto legendre = [p](double x, double& v, double& d1, double& d2) {
        double p0 = 1, p1 = x;
        for (int k = 2; k <= p; ++k) {
            const double pk = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
            p0 = p1;
            p1 = pk;
        }
        v = p1;
        // (1 - x^2) P' = p (P_{p-1} - x P_p); (1 - x^2) P'' = 2 x P' - p (p + 1) P.
        d1 = p * (p0 - x * p1) / (1 - x * x);
        d2 = (2 * x * d1 - p * (p + 1) * v) / (1 - x * x);
    };
    t.xi[0] = -1;
    t.xi[p] = 1;
    for (int i = 1; i < p; ++i) {
        // Interior nodes: roots of P_p', started from the Chebyshev-Gauss-Lobatto points.
        double x = -std::cos(M_PI * i / p);
        for (int it = 0; it < 100; ++it) {
            double v, d1, d2;
            legendre(x, v, d1, d2);
            const double dx = d1 / d2;
            x -= dx;
            if (std::abs(dx) < 1e-16) break;
        }
        t.xi[i] = x;
    }
    if (p % 2 == 0) t.xi[p / 2] = 0.0;
    for (int i = 0; i <= p; ++i) {
        double v = 1;
        if (i == 0 || i == p) {
            v = (i == 0 && p % 2) ? -1.0 : 1.0;
        } else {
            double d1, d2;
            legendre(t.xi[i], v, d1, d2);
        }
        t.w[i] = 2.0 / (p * (p + 1) * v * v);
    }
    // Barycentric weights lambda_m = 1 / prod_{j != m} (xi_m - xi_j); l_m'(xi_a) =
    // (lambda_m / lambda_a) / (xi_a - xi_m) off the diagonal, and rows sum to zero.
    double lam[kSemMaxOrder + 1];
    for (int m = 0; m < n; ++m) {
        double prod = 1;
        for (int j = 0; j < n; ++j)
            if (j != m) prod *= t.xi[m] - t.xi[j];
        lam[m] = 1.0 / prod;
    }
    for (int a = 0; a < n; ++a) {
        double diag = 0;
        for (int m = 0; m < n; ++m) {
            if (m == a) continue;
            const double v = (lam[m] / lam[a]) / (t.xi[a] - t.xi[m]);
            t.d[a * n + m] = v;
            diag -= v;
        }
        t.d[a * n + a] = diag;
    }
    return t;
}

void sem_element_force_dynamic(const GllTables& t, double lambda, double mu, double half_ds, const double* u,
                               double* f) {
    double scratch[9 * (kSemMaxOrder + 1) * (kSemMaxOrder + 1) * (kSemMaxOrder + 1)];
    switch (t.order) {
        case 2:
            return sem_element_force<2, double>(t.d, t.w, lambda, mu, half_ds, u, scratch, f);
        case 3:
            return sem_element_force<3, double>(t.d, t.w, lambda, mu, half_ds, u, scratch, f);
        case 4:
            return sem_element_force<4, double>(t.d, t.w, lambda, mu, half_ds, u, scratch, f);
        default:
            throw std::logic_error("sem_element_force_dynamic: order " + std::to_string(t.order));
    }
}

Eigen::MatrixXd sem_element_stiffness(int order, double ds, double lambda, double mu) {
    const GllTables t = gll_tables(order);
    const int n = 3 * (order + 1) * (order + 1) * (order + 1);
    Eigen::MatrixXd k(n, n);
    Eigen::VectorXd u = Eigen::VectorXd::Zero(n), f(n);
    for (int j = 0; j < n; ++j) {
        u.setZero();
        u(j) = 1;
        sem_element_force_dynamic(t, lambda, mu, 0.5 * ds, u.data(), f.data());
        k.col(j) = f;
    }
    return k;
}

Eigen::VectorXd sem_element_mass(int order, double ds, double density) {
    const GllTables t = gll_tables(order);
    const int n1 = order + 1, n3 = n1 * n1 * n1;
    const double j = 0.125 * ds * ds * ds;
    Eigen::VectorXd m(3 * n3);
    for (int c = 0; c < n1; ++c)
        for (int b = 0; b < n1; ++b)
            for (int a = 0; a < n1; ++a)
                for (int i = 0; i < 3; ++i) m(i * n3 + a + n1 * (b + n1 * c)) = density * j * t.w[a] * t.w[b] * t.w[c];
    return m;
}

double sem_element_max_omega2(int order, double ds, const Material& m) {
    const Eigen::MatrixXd k = sem_element_stiffness(order, ds, m.lame_lambda(), m.shear_modulus());
    const Eigen::VectorXd s = sem_element_mass(order, ds, m.density).cwiseSqrt().cwiseInverse();
    const Eigen::MatrixXd a = s.asDiagonal() * k * s.asDiagonal();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (a + a.transpose()), Eigen::EigenvaluesOnly);
    return eig.eigenvalues().maxCoeff();
}

}  // namespace voxwave
