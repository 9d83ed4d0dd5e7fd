#include "poisson/condition_number.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <cmath>

#include "core/errors.hpp"

namespace voxwave::poisson {

ExtremeEigenvalues lanczos_extremes(const LinearOperator& op, int n, int steps) {
    steps = std::min(steps, n);
    Eigen::VectorXd q(n), q_prev = Eigen::VectorXd::Zero(n), w(n);
    // A deterministic start vector with components in every eigen-direction.
    for (int i = 0; i < n; ++i) q[i] = 1.0 + 0.5 * std::sin(1.7 * i + 0.3);
    q.normalize();
    std::vector<double> alpha, beta;
    double b = 0;
    for (int k = 0; k < steps; ++k) {
        op(q, w);
        const double a = q.dot(w);
        alpha.push_back(a);
        w -= a * q + b * q_prev;
        b = w.norm();
        if (b < 1e-14 * std::abs(a)) break;
        beta.push_back(b);
        q_prev = q;
        q = w / b;
    }
    const int m = static_cast<int>(alpha.size());
    Eigen::VectorXd d = Eigen::Map<Eigen::VectorXd>(alpha.data(), m);
    Eigen::VectorXd e = Eigen::VectorXd::Zero(std::max(m - 1, 0));
    for (int i = 0; i + 1 < m; ++i) e[i] = beta[i];
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es;
    es.computeFromTridiagonal(d, e, Eigen::EigenvaluesOnly);
    return {es.eigenvalues().minCoeff(), es.eigenvalues().maxCoeff()};
}

double condition_number_sparse(const SparseMatrixd& A, int steps) {
    const int n = static_cast<int>(A.rows());
    if (n <= 1500) return condition_number_dense(Eigen::MatrixXd(A));
    const double lmax =
        lanczos_extremes([&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = A * x; }, n, steps).max;
    Eigen::SimplicialLDLT<SparseMatrixd> chol(A);
    if (chol.info() != Eigen::Success) throw RuntimeError("condition number: matrix is not positive definite");
    // The largest eigenvalue of A^-1 is well separated (smooth lowest mode): few steps suffice.
    const double inv_max =
        lanczos_extremes([&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = chol.solve(x); }, n, 60).max;
    return lmax * inv_max;
}

double condition_number_dense(const Eigen::MatrixXd& A) {
    const int n = static_cast<int>(A.rows());
    if (n == 0) return 1;
    if (n <= 1500) {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(A, Eigen::EigenvaluesOnly);
        return es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();
    }
    const auto ext =
        lanczos_extremes([&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y.noalias() = A * x; }, n, 300);
    return ext.max / ext.min;
}

}  // namespace voxwave::poisson
