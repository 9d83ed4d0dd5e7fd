// Seed 002: grids, hierarchical basis, prehandling and the three-step direct solver on the CPU.
// Oracles: the paper's Table 2 (counts, coarse kappa), stiffness matrices assembled directly in
// the hierarchical basis, and a sparse Cholesky solution of the nodal system.
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cmath>

#include "core/errors.hpp"
#include "poisson/direct_solver.hpp"
#include "poisson/hierarchical_basis.hpp"
#include "poisson/poisson_assembly.hpp"
#include "poisson/poisson_tables.hpp"
#include "poisson/prehandling.hpp"

using namespace voxwave::poisson;

namespace {

struct System {
    PoissonMesh mesh;
    std::vector<int> dof;
    int N = 0;
    SparseMatrixd A;
};

System make_system(PoissonGrid grid, int level) {
    System s;
    s.mesh = refined_poisson_mesh(grid, level);
    s.dof = interior_dofs(s.mesh, &s.N);
    s.A = assemble_stiffness(s.mesh, s.dof, s.N);
    return s;
}

// Stiffness of the hierarchical basis assembled directly: on every fine cell, the gradient of
// each hierarchical function is the gradient of its own level's hat on the ancestor cell of that
// level (cell e of level L descends from cell e >> 2 (L - l) of level l). No interpolation used.
Eigen::MatrixXd hierarchical_stiffness_direct(const System& s, int base) {
    const PoissonMesh& m = s.mesh;
    const int L = m.level;
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(s.N, s.N);
    const double g = 0.5 / std::sqrt(3.0);
    const double gauss[2] = {0.5 - g, 0.5 + g};
    for (std::size_t e = 0; e < m.fine_cells().size(); ++e) {
        const auto& fc = m.fine_cells()[e];
        // Quadrature points of the fine cell (P1: gradients are constant, one point will do).
        std::vector<std::array<double, 3>> pts;  // x, y, weight
        if (m.vertices_per_cell == 3) {
            const auto &a = m.xy[fc[0]], &b = m.xy[fc[1]], &c = m.xy[fc[2]];
            const double area = 0.5 * std::abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
            pts.push_back({(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, area});
        } else {
            const auto &a = m.xy[fc[0]], &c = m.xy[fc[2]];
            const double hx = c[0] - a[0], hy = c[1] - a[1];
            for (double r : gauss)
                for (double t : gauss) pts.push_back({a[0] + r * hx, a[1] + t * hy, 0.25 * hx * hy});
        }
        for (const auto& pt : pts) {
            std::vector<std::pair<int, std::array<double, 2>>> grads;
            for (int l = base; l <= L; ++l) {
                const auto& ac = m.cells[l][e >> (2 * (L - l))];
                for (int v = 0; v < m.vertices_per_cell; ++v) {
                    const int node = ac[v];
                    if (s.dof[node] < 0 || std::max(m.node_level[node], base) != l) continue;
                    std::array<double, 2> grad{};
                    if (m.vertices_per_cell == 3) {
                        const auto &p0 = m.xy[ac[v]], &p1 = m.xy[ac[(v + 1) % 3]], &p2 = m.xy[ac[(v + 2) % 3]];
                        const double det = (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p1[1] - p0[1]) * (p2[0] - p0[0]);
                        grad = {(p1[1] - p2[1]) / det, (p2[0] - p1[0]) / det};
                    } else {
                        const auto &lo = m.xy[ac[0]], &hi = m.xy[ac[2]];
                        const double hx = hi[0] - lo[0], hy = hi[1] - lo[1];
                        const double r = (pt[0] - lo[0]) / hx, t = (pt[1] - lo[1]) / hy;
                        const double sr = v == 1 || v == 2 ? 1 : -1, st = v >= 2 ? 1 : -1;
                        const double fr = v == 1 || v == 2 ? r : 1 - r, ft = v >= 2 ? t : 1 - t;
                        grad = {sr * ft / hx, fr * st / hy};
                    }
                    grads.emplace_back(s.dof[node], grad);
                }
            }
            for (const auto& [i, gi] : grads)
                for (const auto& [j, gj] : grads) H(i, j) += pt[2] * (gi[0] * gj[0] + gi[1] * gj[1]);
        }
    }
    return H;
}

double relative_difference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).norm() / b.norm(); }

}  // namespace

TEST(PoissonGrid, FlowAroundSquareCountsMatchTable2) {
    // Seed 002 Table 2: N and element counts for L = 0..8.
    const long long N[] = {7, 42, 196, 840, 3472, 14112, 56896, 228480, 915712};
    for (int L = 0; L <= 8; ++L) {
        EXPECT_EQ(interior_node_count(PoissonGrid::FlowAroundSquare, L), N[L]) << L;
        EXPECT_EQ(cell_count(PoissonGrid::FlowAroundSquare, L), 28LL << (2 * L));
    }
    for (int L = 0; L <= 4; ++L) {
        System s = make_system(PoissonGrid::FlowAroundSquare, L);
        EXPECT_EQ(s.N, N[L]) << L;
        EXPECT_EQ(static_cast<long long>(s.mesh.fine_cells().size()), 28LL << (2 * L));
    }
    // L = 0: no two interior nodes share an edge (NNZ/N = 1.00) and kappa = 7.5 / 4 (Table 2: 1.88).
    System s = make_system(PoissonGrid::FlowAroundSquare, 0);
    EXPECT_EQ(s.A.nonZeros(), 7);
    const Eigen::VectorXd d = Eigen::MatrixXd(s.A).diagonal();
    EXPECT_NEAR(d.maxCoeff() / d.minCoeff(), 1.875, 1e-12);
    // NNZ/N of Table 2 counts the numerically nonzero entries: couplings across an edge whose two
    // opposite angles are right angles vanish (cot 90 = 0).
    const double table2_nnz[] = {1.00, 4.43, 5.53, 5.89, 6.03};
    for (int L = 1; L <= 4; ++L) {
        SparseMatrixd A = make_system(PoissonGrid::FlowAroundSquare, L).A;
        A.prune(1e-12, 1.0);
        EXPECT_NEAR(double(A.nonZeros()) / double(N[L]), table2_nnz[L], 0.005) << L;
    }
}

TEST(PoissonPrehandling, HierarchicalStiffnessEqualsDirectAssemblyQ1) {
    const System s = make_system(PoissonGrid::UnitSquare, 4);
    for (int base : {0, 2}) {
        const SparseMatrixd S = hierarchical_transform(s.mesh, s.dof, s.N, base);
        const Eigen::MatrixXd StAS = Eigen::MatrixXd(SparseMatrixd(S.transpose() * s.A) * S);
        EXPECT_LT(relative_difference(StAS, hierarchical_stiffness_direct(s, base)), 1e-13) << base;
    }
}

TEST(PoissonPrehandling, HierarchicalStiffnessEqualsDirectAssemblyP1) {
    const System s = make_system(PoissonGrid::FlowAroundSquare, 3);
    for (int base : {0, 1}) {
        const SparseMatrixd S = hierarchical_transform(s.mesh, s.dof, s.N, base);
        const Eigen::MatrixXd StAS = Eigen::MatrixXd(SparseMatrixd(S.transpose() * s.A) * S);
        EXPECT_LT(relative_difference(StAS, hierarchical_stiffness_direct(s, base)), 1e-13) << base;
    }
}

TEST(PoissonPrehandling, BlockStructureAndSimilarityClasses) {
    const System s = make_system(PoissonGrid::FlowAroundSquare, 3);
    const PrehandledPoisson p = prehandle(s.mesh, 1, s.A, s.dof);
    const BlockCounts c = block_counts(PoissonGrid::FlowAroundSquare, 3, 1);
    EXPECT_EQ(p.nC, c.nC);
    EXPECT_EQ(p.nE, c.nE);
    EXPECT_EQ(p.nI, c.nI);
    ASSERT_EQ(p.classes.size(), 3u);
    EXPECT_EQ(p.classes[0].shape, "isosceles right");
    EXPECT_EQ(p.classes[1].shape, "scalene");
    EXPECT_EQ(p.classes[2].shape, "isosceles obtuse");
    EXPECT_EQ(p.classes[0].cells, 48);  // 3/7 of the 112 macro cells of level 1
    EXPECT_EQ(p.classes[1].cells, 32);  // 2/7
    EXPECT_EQ(p.classes[2].cells, 32);  // 2/7, of two sizes
    EXPECT_LT(p.class_mismatch, 1e-13);
    EXPECT_LT(p.coarse_interior_coupling, 1e-13);
    EXPECT_LT(p.cell_coupling, 1e-13);
    // The coarse block of A' is the identity; A' = L^-1 A~ L^-T exactly.
    const SparseMatrixd Ap = prehandled_matrix(p);
    const Eigen::MatrixXd Apd(Ap);
    EXPECT_LT((Apd.topLeftCorner(p.nC, p.nC) - Eigen::MatrixXd::Identity(p.nC, p.nC)).norm(), 1e-12);
    // Pi^-1 is the E block of A'^-1 (the Schur complement identity behind eq. 4).
    const Eigen::MatrixXd Ainv = Apd.inverse();
    EXPECT_LT(relative_difference(Ainv.block(p.nC, p.nC, p.nE, p.nE), p.pi_inverse), 1e-10);
}

TEST(PoissonDirectSolver, Fp64EqualsSparseCholesky) {
    for (auto [grid, L, L0] : {std::tuple{PoissonGrid::FlowAroundSquare, 4, 1},
                               std::tuple{PoissonGrid::UnitSquare, 5, 2}, std::tuple{PoissonGrid::UnitSquare, 4, 0}}) {
        const System s = make_system(grid, L);
        const PrehandledPoisson p = prehandle(s.mesh, L0, s.A, s.dof);
        Eigen::MatrixXd b(s.N, 3);
        b.col(0) = assemble_load(s.mesh, s.dof, s.N, 1);
        b.col(1) = assemble_load(s.mesh, s.dof, s.N, 10);
        b.col(2) = Eigen::VectorXd::LinSpaced(s.N, -1, 2);
        const Eigen::MatrixXd x =
            unprehandle_solution(p, solve_prehandled_cpu(p, PoissonPrecision::Fp64, prehandle_rhs(p, b)));
        Eigen::SimplicialLLT<SparseMatrixd> chol(s.A);
        ASSERT_EQ(chol.info(), Eigen::Success);
        const Eigen::MatrixXd ref = chol.solve(b);
        for (int k = 0; k < 3; ++k)
            EXPECT_LT((x.col(k) - ref.col(k)).norm() / ref.col(k).norm(), 1e-12) << L << " " << L0 << " rhs " << k;
    }
}

TEST(PoissonDirectSolver, LowerPrecisionErrorsFollowTheSeed) {
    // Unit square Q1, L = 8 (N = 65025), L0 = 3: the discretisation error for n = 1 is below
    // FP16's resolution, so FP16 stagnates while FP32 stays on the FP64 curve (seed 002 Fig. 10).
    const System s = make_system(PoissonGrid::UnitSquare, 8);
    const PrehandledPoisson p = prehandle(s.mesh, 3, s.A, s.dof);
    for (int n : {1, 10}) {
        const Eigen::VectorXd u = exact_at_dofs(s.mesh, s.dof, s.N, n);
        Eigen::MatrixXd bp = prehandle_rhs(p, assemble_load(s.mesh, s.dof, s.N, n));
        // The right-hand side is scaled to max 1 so FP16 neither underflows nor overflows.
        const double scale = bp.cwiseAbs().maxCoeff();
        bp /= scale;
        auto error = [&](PoissonPrecision prec) {
            const Eigen::VectorXd x = unprehandle_solution(p, solve_prehandled_cpu(p, prec, bp) * scale);
            return (x - u).norm() / u.norm();
        };
        const double e64 = error(PoissonPrecision::Fp64), e32 = error(PoissonPrecision::Fp32),
                     e16 = error(PoissonPrecision::Fp16), etf = error(PoissonPrecision::Tf32);
        // "No difference between the accuracy in single and double precision."
        EXPECT_NEAR(e32, e64, 0.01 * e64) << n;
        if (n == 1) {
            EXPECT_LT(e64, 5e-5);
            EXPECT_LT(etf, 1e-3);
            EXPECT_LT(e16, 1e-3);
            // "stagnates at approximately 2 x 10^-4": near 1e-4, well above the FP64 error.
            EXPECT_GT(e16, 3e-5);
            EXPECT_GT(e16, 3 * e64);
        } else {
            // The oscillating solution: FP16 about as accurate as FP64 (the discretisation error dominates;
            // measured 1.45e-3 against 1.26e-3).
            EXPECT_NEAR(e16, e64, 0.25 * e64);
        }
    }
}

TEST(PoissonPrehandling, BadLevelsGiveClearErrors) {
    try {
        check_poisson_levels(PoissonGrid::UnitSquare, 3, 4);
        FAIL();
    } catch (const voxwave::InputError& e) {
        EXPECT_EQ(e.field(), "--coarse-level");
    }
    try {
        check_poisson_levels(PoissonGrid::FlowAroundSquare, 11, 0);
        FAIL();
    } catch (const voxwave::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("beyond memory"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_poisson_grid("circle"), voxwave::InputError);
    EXPECT_THROW(parse_poisson_precision("fp8"), voxwave::InputError);
    EXPECT_NO_THROW(check_poisson_levels(PoissonGrid::FlowAroundSquare, 6, 1));
}

TEST(PoissonTables, BlockCountsMatchTable3) {
    // Seed 002 Table 3: |C|, |E|, |I| for (L, L0) = (6..8, 0..4), from the closed-form counts.
    const long long expected[3][5][3] = {
        {{7, 2205, 54684}, {42, 4774, 52080}, {196, 9660, 47040}, {840, 18424, 37632}, {3472, 31920, 21504}},
        {{7, 4445, 224028}, {42, 9702, 218736}, {196, 19964, 208320}, {840, 39480, 188160}, {3472, 74480, 150528}},
        {{7, 8925, 906780}, {42, 19558, 896112}, {196, 40572, 874944}, {840, 81592, 833280}, {3472, 159600, 752640}}};
    for (int L = 6; L <= 8; ++L)
        for (int L0 = 0; L0 <= 4; ++L0) {
            const BlockCounts c = block_counts(PoissonGrid::FlowAroundSquare, L, L0);
            EXPECT_EQ(c.nC, expected[L - 6][L0][0]) << L << " " << L0;
            EXPECT_EQ(c.nE, expected[L - 6][L0][1]) << L << " " << L0;
            EXPECT_EQ(c.nI, expected[L - 6][L0][2]) << L << " " << L0;
        }
    // The paper's optimal coarse levels (bold in Table 3): L0 = 1 for L = 6, 2 for L = 7 and 8.
    EXPECT_EQ(best_coarse_level(PoissonGrid::FlowAroundSquare, 6), 1);
    EXPECT_EQ(best_coarse_level(PoissonGrid::FlowAroundSquare, 7), 2);
    EXPECT_EQ(best_coarse_level(PoissonGrid::FlowAroundSquare, 8), 2);
}

TEST(PoissonTables, SimilarityBlocksMatchTable4) {
    // kappa(C_i) depends on L - L0 only: Table 4's rows L - L0 = 2 and 3 (C_1 isosceles right,
    // C_2 scalene, C_3 isosceles obtuse), computed here at L = 4.
    const double expected[2][3] = {{2.09, 2.40, 2.51}, {6.58, 8.67, 9.44}};
    for (int d = 2; d <= 3; ++d) {
        const Table4Row r = table4_row(PoissonGrid::FlowAroundSquare, 4, 4 - d);
        ASSERT_EQ(r.kappa_c.size(), 3u);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(r.kappa_c[c], expected[d - 2][c], 0.006) << d << " " << c;
        EXPECT_GT(r.kappa_pi, 1.0);
        EXPECT_LT(r.kappa_pi, 100.0);  // well conditioned, as the FP16 solver needs
    }
}
