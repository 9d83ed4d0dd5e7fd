#include "iga/dense_partial_cholesky.hpp"

#include <Eigen/Dense>
#include <algorithm>

namespace voxwave::iga {

namespace {
using Mat = Eigen::MatrixXd;
// Block width: big enough for Eigen's GEMM kernels, small enough to spread over 16 threads
// on a front of a few thousand unknowns.
constexpr int kBlock = 96;
int blocks(int n) { return (n + kBlock - 1) / kBlock; }
}  // namespace

bool partial_cholesky_front(double* data, int m, int k, bool threaded) {
    Eigen::Map<Mat> F(data, m, m + 1);
    const int r = m - k;
    if (k == 0) return true;
    // 1. A11 = L L^T: factor a diagonal block, solve the panel below it, update the trailing
    //    lower part (block columns are independent).
    for (int j = 0; j < k; j += kBlock) {
        const int jb = std::min(kBlock, k - j), below = k - j - jb;
        Eigen::Ref<Mat> diag = F.block(j, j, jb, jb);
        Eigen::LLT<Eigen::Ref<Mat>> llt(diag);
        if (llt.info() != Eigen::Success) return false;
        if (below == 0) break;
        const auto L11 = F.block(j, j, jb, jb).triangularView<Eigen::Lower>();
        const int nb = blocks(below);
#pragma omp parallel for schedule(dynamic) if (threaded && nb > 1)
        for (int c = 0; c < nb; ++c) {
            const int r0 = j + jb + c * kBlock, rn = std::min(kBlock, k - r0);
            auto panel = F.block(r0, j, rn, jb);
            L11.transpose().solveInPlace<Eigen::OnTheRight>(panel);
        }
#pragma omp parallel for schedule(dynamic) if (threaded && nb > 1)
        for (int c = 0; c < nb; ++c) {
            const int c0 = j + jb + c * kBlock, cw = std::min(kBlock, k - c0);
            F.block(c0, c0, k - c0, cw).noalias() -= F.block(c0, j, k - c0, jb) * F.block(c0, j, cw, jb).transpose();
        }
    }
    // 2. [W y] = L^-1 [A12 b1]: column blocks are independent.
    const auto L = F.topLeftCorner(k, k).triangularView<Eigen::Lower>();
    const int nc = blocks(r + 1);
#pragma omp parallel for schedule(dynamic) if (threaded && nc > 1)
    for (int c = 0; c < nc; ++c) {
        const int c0 = k + c * kBlock, cw = std::min(kBlock, m + 1 - c0);
        auto cols = F.block(0, c0, k, cw);
        L.solveInPlace(cols);
    }
    if (r == 0) return true;
    // 3. S -= W^T W by block columns of its lower part, mirrored; c -= W^T y.
    const int ns = blocks(r);
#pragma omp parallel for schedule(dynamic) if (threaded && ns > 1)
    for (int c = 0; c < ns; ++c) {
        const int c0 = c * kBlock, cw = std::min(kBlock, r - c0);
        F.block(k + c0, k + c0, r - c0, cw).noalias() -=
            F.block(0, k + c0, k, r - c0).transpose() * F.block(0, k + c0, k, cw);
    }
    auto S = F.block(k, k, r, r);
    S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
    F.col(m).tail(r).noalias() -= F.block(0, k, k, r).transpose() * F.col(m).head(k);
    return true;
}

}  // namespace voxwave::iga
