#include "iga/multifrontal_cpu.hpp"

#include <omp.h>

#include <Eigen/Dense>
#include <chrono>
#include <string>

#include "core/errors.hpp"
#include "iga/dense_partial_cholesky.hpp"

namespace voxwave::iga {

namespace {
std::size_t sz(std::int64_t v) { return static_cast<std::size_t>(v); }
using Mat = Eigen::MatrixXd;
using MapMat = Eigen::Map<Mat>;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What a node keeps: the top k rows [L W y] (k x (m + 1)) for the backward pass, and the
// Schur block [S c] ((m - k) x (m - k + 1)) until its parent has taken it.
struct NodeStore {
    Mat factor, schur;
};

// Eliminates the first k unknowns of the front F (m x (m + 1)); false if A11 is not SPD.
bool eliminate(MapMat F, int k, bool threaded, NodeStore& out) {
    const int m = static_cast<int>(F.rows()), r = m - k;
    if (!partial_cholesky_front(F.data(), m, k, threaded)) return false;
    out.factor = F.topRows(k);
    out.schur = F.bottomRightCorner(r, r + 1);
    return true;
}

void backward(const FrontLevel& l, int node, const NodeStore& st, std::vector<double>& x) {
    const int m = l.size[sz(node)], k = l.elim[sz(node)], r = m - k;
    if (k == 0) return;
    const int* dofs = &l.dofs[sz(l.dof_begin[sz(node)])];
    Eigen::VectorXd x2(r);
    for (int q = 0; q < r; ++q) x2[q] = x[sz(dofs[k + q])];
    Eigen::VectorXd t = st.factor.col(m);
    if (r > 0) t.noalias() -= st.factor.middleCols(k, r) * x2;
    st.factor.leftCols(k).triangularView<Eigen::Lower>().transpose().solveInPlace(t);
    for (int q = 0; q < k; ++q) x[sz(dofs[q])] = t[q];
}
}  // namespace

void fill_leaf_front(const IgaSpace& s, const FrontLevel& leaves, int leaf, const std::vector<double>& rhs,
                     double* front) {
    const int p1 = s.p + 1, m = leaves.size[sz(leaf)];
    const int ex = leaf % s.N, ey = leaf / s.N;
    const std::size_t bx = sz(std::int64_t(ex) * p1 * p1), by = sz(std::int64_t(ey) * p1 * p1);
    const int* local = &leaves.local[sz(leaves.dof_begin[sz(leaf)])];
    const int* dofs = &leaves.dofs[sz(leaves.dof_begin[sz(leaf)])];
    for (int c = 0; c < m; ++c)
        for (int r = 0; r < m; ++r)
            front[sz(std::int64_t(c) * m + r)] =
                iga_element_stiffness(&s.k1[bx], &s.m1[bx], &s.k1[by], &s.m1[by], p1, local[r], local[c]);
    for (int r = 0; r < m; ++r) {
        const int g = dofs[r];
        const bool owner = iga_owner_element(s, g % s.n) == ex && iga_owner_element(s, g / s.n) == ey;
        front[sz(std::int64_t(m) * m + r)] = owner ? rhs[sz(g)] : 0.0;
    }
}

std::vector<double> multifrontal_solve_cpu(const IgaSpace& s, const FrontTree& t, const IgaLoad& load, bool parallel,
                                           MultifrontalTimings* timings, const ProgressFn& progress) {
    const int threads = parallel ? omp_get_max_threads() : 1;
    const int eigen_threads_before = Eigen::nbThreads();
    const int levels = static_cast<int>(t.levels.size());
    std::vector<std::vector<NodeStore>> store(sz(levels));
    auto check_progress = [&](int done, int total) {
        if (progress && !progress(done, total)) {
            Eigen::setNbThreads(eigen_threads_before);
            throw Cancelled{};
        }
    };
    bool singular = false;
    const auto t0 = std::chrono::steady_clock::now();
    for (int L = 0; L < levels; ++L) {
        const FrontLevel& l = t.levels[sz(L)];
        store[sz(L)].resize(sz(l.count()));
        // Many fronts: one thread each. Few big fronts (near the root): threads inside each front.
        const bool across = parallel && l.count() >= 2 * threads;
        Eigen::setNbThreads(1);  // the block loops own the threads; Eigen's GEMM inside stays serial
        auto process = [&](int node) {
            const int m = l.size[sz(node)];
            std::vector<double> buf(sz(std::int64_t(m) * (m + 1)), 0.0);
            if (L == 0) {
                fill_leaf_front(s, l, node, load.rhs, buf.data());
            } else {
                const FrontLevel& below = t.levels[sz(L - 1)];
                for (int c = 0; c < 4; ++c) {
                    const int kid = l.children[sz(4 * node + c)];
                    Mat& S = store[sz(L - 1)][sz(kid)].schur;
                    const int* map = &l.map[sz(l.map_begin[sz(4 * node + c)])];
                    const int r = below.size[sz(kid)] - below.elim[sz(kid)];
                    for (int j = 0; j <= r; ++j) {
                        const std::int64_t col = j < r ? map[j] : m;
                        for (int i = 0; i < r; ++i) buf[sz(col * m + map[i])] += S(i, j);
                    }
                    S.resize(0, 0);
                }
            }
            // No exception may leave an OpenMP loop: remember the failure, throw after it.
            if (!eliminate(MapMat(buf.data(), m, m + 1), l.elim[sz(node)], parallel && !across, store[sz(L)][sz(node)]))
#pragma omp atomic write
                singular = true;
        };
        if (across) {
#pragma omp parallel for schedule(dynamic, 4)
            for (int node = 0; node < l.count(); ++node) process(node);
        } else {
            for (int node = 0; node < l.count(); ++node) process(node);
        }
        if (singular) {
            Eigen::setNbThreads(eigen_threads_before);
            throw RuntimeError("multi-frontal: a front of level " + std::to_string(L) + " is not positive definite");
        }
        check_progress(L + 1, 2 * levels);
    }
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<double> x = load.dirichlet;
    for (int L = levels - 1; L >= 0; --L) {
        const FrontLevel& l = t.levels[sz(L)];
        const bool across = parallel && l.count() >= 2 * threads;
        if (across) {
#pragma omp parallel for schedule(dynamic, 16)
            for (int node = 0; node < l.count(); ++node) backward(l, node, store[sz(L)][sz(node)], x);
        } else {
            for (int node = 0; node < l.count(); ++node) backward(l, node, store[sz(L)][sz(node)], x);
        }
        check_progress(2 * levels - L, 2 * levels);
    }
    Eigen::setNbThreads(eigen_threads_before);
    if (timings) {
        timings->factor_seconds = std::chrono::duration<double>(t1 - t0).count();
        timings->solve_seconds = seconds_since(t1);
        timings->threads = threads;
    }
    return x;
}

}  // namespace voxwave::iga
