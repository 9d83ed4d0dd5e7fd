// The GPU sparse baseline of the direct Poisson solver: cuSOLVER's sparse Cholesky.
#include "core/sparse_cholesky_cusolver.hpp"
#include "poisson/sparse_baselines.hpp"

namespace voxwave::poisson {

BaselineResult solve_sparse_cholesky_cusolver(const SparseMatrixd& A, const Eigen::MatrixXd& b) {
    // A is symmetric, so its compressed columns are its compressed rows: the CSR cuSOLVER wants.
    SparseMatrixd c = A;
    c.makeCompressed();
    const int n = int(c.rows());
    const std::vector<int> ptr(c.outerIndexPtr(), c.outerIndexPtr() + n + 1);
    const std::vector<int> col(c.innerIndexPtr(), c.innerIndexPtr() + c.nonZeros());
    const std::vector<double> val(c.valuePtr(), c.valuePtr() + c.nonZeros());
    BaselineResult r;
    std::string device;
    r.x.resize(n, b.cols());
    for (Eigen::Index k = 0; k < b.cols(); ++k) {
        const std::vector<double> rhs(b.col(k).data(), b.col(k).data() + n);
        double secs = 0;
        const std::vector<double> x = cusolver_sparse_cholesky_solve(n, ptr, col, val, rhs, &secs, &device);
        r.x.col(k) = Eigen::Map<const Eigen::VectorXd>(x.data(), n);
        r.solve_seconds += secs;
    }
    r.method = "cuSOLVER sparse Cholesky (" + device + ")";
    return r;
}

}  // namespace voxwave::poisson
