// The multi-frontal IGA solver (issue 6) against closed forms and against the sparse direct
// baseline on the same assembled matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "iga/iga_solver.hpp"
#include "iga/iga_space.hpp"
#include "iga/multifrontal_cpu.hpp"
#include "iga/multifrontal_tree.hpp"
#include "iga/sparse_baseline.hpp"

using namespace voxwave;
using namespace voxwave::iga;

namespace {
IgaParams cpu_params(int p, int N, IgaProblemKind kind, bool parallel = true) {
    IgaParams q;
    q.degree = p;
    q.elements = N;
    q.problem = kind;
    q.backend = Backend::Cpu;
    q.parallel = parallel;
    q.grid = 21;
    return q;
}
}  // namespace

TEST(IgaSolver, SeedProblemReproducesX2ForEveryDegree) {
    for (int p = 1; p <= 5; ++p) {
        const IgaResult r = solve_iga(cpu_params(p, 8, IgaProblemKind::Seed));
        // u = x2 is in the space: its coefficients are the Greville abscissae of x2.
        const BSplineBasis1D b(p, 8);
        const int n = b.size();
        double worst = 0;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(r.coefficients[i + n * j] - b.greville(j)));
        EXPECT_LT(worst, 1e-12) << "p " << p;
        double worst_sample = 0;
        for (std::size_t k = 0; k < r.u.size(); ++k) worst_sample = std::max(worst_sample, std::abs(r.u[k] - r.y[k]));
        EXPECT_LT(worst_sample, 1e-12) << "p " << p;
        EXPECT_LT(r.l2_error, 1e-12) << "p " << p;
    }
}

TEST(IgaSolver, MultifrontalEqualsSparseDirectSolve) {
    for (int p = 1; p <= 4; ++p)
        for (IgaProblemKind kind : {IgaProblemKind::Seed, IgaProblemKind::Manufactured}) {
            const IgaResult r = solve_iga(cpu_params(p, 16, kind));
            ASSERT_GE(r.baseline_max_difference, 0.0);
            EXPECT_LT(r.baseline_max_difference, 1e-12)
                << "p " << p << " " << to_string(kind) << " vs " << r.baseline_solver;
        }
}

TEST(IgaSolver, SequentialAndParallelAgree) {
    const IgaSpace s = make_iga_space(3, 32);
    const IgaLoad load = iga_load(s, IgaProblemKind::Manufactured);
    const FrontTree t = build_front_tree(s);
    const std::vector<double> a = multifrontal_solve_cpu(s, t, load, false);
    const std::vector<double> b = multifrontal_solve_cpu(s, t, load, true);
    double diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff = std::max(diff, std::abs(a[i] - b[i]));
    EXPECT_LT(diff, 1e-13);
}

TEST(IgaSolver, L2ConvergenceRateIsPPlusOne) {
    for (int p = 1; p <= 4; ++p) {
        const int N1 = p == 1 ? 32 : 16;
        const double e1 = solve_iga(cpu_params(p, N1, IgaProblemKind::Manufactured)).l2_error;
        const double e2 = solve_iga(cpu_params(p, 2 * N1, IgaProblemKind::Manufactured)).l2_error;
        const double rate = std::log2(e1 / e2);
        EXPECT_NEAR(rate, p + 1, 0.2) << "p " << p << ": errors " << e1 << " " << e2;
    }
}

TEST(IgaTree, FrontSizesMatchTheSeedForLinearSplines) {
    // Seed, p = 1: four 4x4 element matrices merge into 9x9 with one unknown eliminated; four
    // 8x8 Schur complements merge into 21x21 with five eliminated (interior patches).
    const IgaSpace s = make_iga_space(1, 16);
    const FrontTree t = build_front_tree(s);
    ASSERT_EQ(t.levels.size(), 5u);
    const FrontLevel& l1 = t.levels[1];
    const int n1 = 3 + l1.nodes_per_side * 3;  // an interior 2x2 patch
    EXPECT_EQ(l1.size[n1], 9);
    EXPECT_EQ(l1.elim[n1], 1);
    const FrontLevel& l2 = t.levels[2];
    const int n2 = 1 + l2.nodes_per_side * 1;
    EXPECT_EQ(l2.size[n2], 21);
    EXPECT_EQ(l2.elim[n2], 5);
    // Root: the cross i = 8 (j = 1..15, Dirichlet rows excluded) and j = 8 (i = 0..16).
    EXPECT_EQ(t.levels.back().size[0], 15 + 17 - 1);
    EXPECT_EQ(t.levels.back().elim[0], t.levels.back().size[0]);
}

TEST(IgaTree, EveryFreeUnknownIsEliminatedExactlyOnce) {
    for (int p = 1; p <= 4; ++p) {
        const IgaSpace s = make_iga_space(p, 16);
        const FrontTree t = build_front_tree(s);
        std::vector<int> count(s.dof_count(), 0);
        for (const FrontLevel& l : t.levels)
            for (int i = 0; i < l.count(); ++i)
                for (int q = 0; q < l.elim[i]; ++q) ++count[l.dofs[l.dof_begin[i] + q]];
        for (int g = 0; g < s.dof_count(); ++g) EXPECT_EQ(count[g], s.is_dirichlet(g) ? 0 : 1) << "p " << p;
        // Seed, Observation 1: the top problem grows like N^(1/2) p (here about 2 (N + p) p).
        EXPECT_LE(t.levels.back().size[0], 2 * s.n * p);
        EXPECT_GE(t.levels.back().size[0], (s.n - 2) * p);
    }
}

TEST(IgaSolver, BadParametersAreInputErrors) {
    auto field_of = [](const IgaParams& q) -> std::string {
        try {
            solve_iga(q);
        } catch (const InputError& e) {
            return e.field();
        }
        return "no error";
    };
    EXPECT_EQ(field_of(cpu_params(0, 8, IgaProblemKind::Seed)), "--degree");
    EXPECT_EQ(field_of(cpu_params(-2, 8, IgaProblemKind::Seed)), "--degree");
    EXPECT_EQ(field_of(cpu_params(2, 12, IgaProblemKind::Seed)), "--elements");
    EXPECT_EQ(field_of(cpu_params(2, 1, IgaProblemKind::Seed)), "--elements");
    EXPECT_EQ(field_of(cpu_params(2, 0, IgaProblemKind::Seed)), "--elements");
    EXPECT_THROW(parse_iga_problem("poisson"), InputError);
    EXPECT_THROW(parse_backend("gpu"), InputError);
    try {
        parse_iga_problem("poisson");
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown problem 'poisson'"), std::string::npos) << e.what();
    }
}

#include <Eigen/Dense>
#include <random>

#include "iga/dense_partial_cholesky.hpp"

TEST(IgaDenseFront, BlockedPartialCholeskyMatchesTheSchurComplement) {
    // Random SPD front of several blocks: [S c] against A22 - A21 A11^-1 A12 from a plain solve.
    const int m = 300, k = 200, r = m - k;
    std::mt19937 gen(6);
    std::uniform_real_distribution<double> u(-1, 1);
    Eigen::MatrixXd B(m, m);
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i) B(i, j) = u(gen);
    Eigen::MatrixXd F(m, m + 1);
    F.leftCols(m) = B * B.transpose() + m * Eigen::MatrixXd::Identity(m, m);
    for (int i = 0; i < m; ++i) F(i, m) = u(gen);
    const Eigen::MatrixXd A = F;
    const Eigen::MatrixXd X = A.topLeftCorner(k, k).llt().solve(A.topRightCorner(k, r + 1));
    const Eigen::MatrixXd expected = A.bottomRightCorner(r, r + 1) - A.block(k, 0, r, k) * X;
    for (bool threaded : {false, true}) {
        Eigen::MatrixXd G = A;
        ASSERT_TRUE(partial_cholesky_front(G.data(), m, k, threaded));
        EXPECT_LT((G.bottomRightCorner(r, r + 1) - expected).cwiseAbs().maxCoeff(), 1e-12 * m);
        // The top rows solve the eliminated block: L^T x1 = y - W x2 for any x2.
        const Eigen::VectorXd x2 = Eigen::VectorXd::LinSpaced(r, -1, 1);
        Eigen::VectorXd t = G.col(m).head(k) - G.block(0, k, k, r) * x2;
        G.topLeftCorner(k, k).triangularView<Eigen::Lower>().transpose().solveInPlace(t);
        const Eigen::VectorXd ref = A.topLeftCorner(k, k).llt().solve(A.col(m).head(k) - A.block(0, k, k, r) * x2);
        EXPECT_LT((t - ref).cwiseAbs().maxCoeff(), 1e-12);
    }
    Eigen::MatrixXd bad = A;
    bad(150, 150) = -1e6;  // not positive definite
    EXPECT_FALSE(partial_cholesky_front(bad.data(), m, k, false));
}

TEST(IgaTree, FrontBytesEstimateMatchesBuiltTrees) {
    for (int p : {1, 3})
        for (int N : {128, 256}) {
            const FrontTree t = build_front_tree(make_iga_space(p, N));
            double bytes = 0;
            for (const FrontLevel& l : t.levels)
                for (int m : l.size) bytes += 8.0 * m * (m + 1);
            // Boundary patches have smaller fronts: an overestimate on small meshes.
            const double ratio = estimated_front_bytes(p, N) / bytes;
            EXPECT_GT(ratio, 0.85) << "p " << p << " N " << N;
            EXPECT_LT(ratio, 1.4) << "p " << p << " N " << N;
        }
    // N = 8192, p = 8 would need terabytes: refused before anything is allocated.
    EXPECT_THROW(check_multifrontal_fits_in_memory(8, 8192), InputError);
    EXPECT_NO_THROW(check_multifrontal_fits_in_memory(2, 64));
}

#include "core/device.hpp"

TEST(IgaSolver, AutoBackendFallsBackToTheCpuAndSaysWhy) {
    std::string why;
    if (!cuda_devices(&why).empty()) GTEST_SKIP() << "a CUDA device is present";
    IgaParams q = cpu_params(2, 8, IgaProblemKind::Seed);
    q.backend = Backend::Auto;
    const IgaResult r = solve_iga(q);
    EXPECT_EQ(r.backend, "cpu");
    EXPECT_NE(r.backend_note.find("backend auto -> cpu"), std::string::npos) << r.backend_note;
    q.backend = Backend::Cuda;
    try {
        solve_iga(q);
        ADD_FAILURE() << "cuda without a device must be refused";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "--backend");
    }
}
