#include "poisson/poisson_tables.hpp"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "poisson/condition_number.hpp"
#include "poisson/direct_solver_cuda.hpp"
#include "poisson/prehandling.hpp"
#include "poisson/sparse_baselines.hpp"

namespace voxwave::poisson {

namespace {

struct Built {
    PoissonMesh mesh;
    std::vector<int> dof;
    int N = 0;
    SparseMatrixd A;
};

Built build(PoissonGrid grid, int level) {
    Built b;
    b.mesh = refined_poisson_mesh(grid, level);
    b.dof = interior_dofs(b.mesh, &b.N);
    b.A = assemble_stiffness(b.mesh, b.dof, b.N);
    return b;
}

// Both ends of the spectrum of an SPD matrix's inverse (through a sparse Cholesky factor): for
// the well-conditioned prehandled blocks Lanczos converges at both ends in a few dozen steps.
double kappa_by_inverse(const SparseMatrixd& M, int steps = 150) {
    if (M.rows() <= 1500) return condition_number_dense(Eigen::MatrixXd(M));
    Eigen::SimplicialLDLT<SparseMatrixd> chol(M);
    if (chol.info() != Eigen::Success) throw RuntimeError("table 4: block is not positive definite");
    const auto e = lanczos_extremes([&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = chol.solve(x); },
                                    static_cast<int>(M.rows()), steps);
    return e.max / e.min;
}

}  // namespace

Table2Row table2_row(PoissonGrid grid, int level) {
    Built b = build(grid, level);
    Table2Row r;
    r.level = level;
    r.N = b.N;
    r.elements = static_cast<long long>(b.mesh.fine_cells().size());
    SparseMatrixd pruned = b.A;
    pruned.prune(1e-12 * b.A.coeffs().cwiseAbs().maxCoeff(), 1.0);
    r.nnz_per_N = double(pruned.nonZeros()) / double(b.N);
    r.kappa = condition_number_sparse(b.A);
    return r;
}

Table3Row table3_row(PoissonGrid grid, int level, int coarse_level) {
    Built b = build(grid, level);
    PrehandleOptions o;
    o.build_inverses = false;
    const PrehandledPoisson p = prehandle(b.mesh, coarse_level, b.A, b.dof, o);
    Table3Row r;
    r.level = level;
    r.coarse_level = coarse_level;
    r.N = p.unknowns;
    r.nC = p.nC;
    r.nE = p.nE;
    r.nI = p.nI;
    const double N = double(p.unknowns), n = p.cell_nodes;
    r.pi_inverse_per_N = double(p.nE) * double(p.nE) / N;
    r.c_inverse_per_N = double(p.classes.size()) * n * n / N;
    r.B_per_N = double(p.B.nonZeros()) / N;
    r.D_per_N = double(p.D.nonZeros()) / N;
    r.total_per_N = r.pi_inverse_per_N + r.c_inverse_per_N + r.B_per_N + r.D_per_N;
    r.flops_per_N32 = direct_solve_flops(p) / std::pow(N, 1.5);
    return r;
}

Table4Row table4_row(PoissonGrid grid, int level, int coarse_level) {
    Built b = build(grid, level);
    PrehandleOptions o;
    o.build_inverses = false;
    const PrehandledPoisson p = prehandle(b.mesh, coarse_level, b.A, b.dof, o);
    Table4Row r;
    r.level = level;
    r.coarse_level = coarse_level;
    for (const auto& mc : p.classes) {
        r.class_shapes.push_back(mc.shape);
        r.kappa_c.push_back(mc.block.rows() > 0 ? kappa_by_inverse(mc.block) : 0.0);
    }
    if (p.nE > 0) {
        // Pi^-1 is the E block of A'^-1: Lanczos on x -> (A'^-1 [0; x; 0])_E.
        const SparseMatrixd Ap = prehandled_matrix(p);
        Eigen::SimplicialLDLT<SparseMatrixd> chol(Ap);
        if (chol.info() != Eigen::Success) throw RuntimeError("table 4: A' is not positive definite");
        Eigen::VectorXd full = Eigen::VectorXd::Zero(p.unknowns);
        const auto e = lanczos_extremes(
            [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
                full.setZero();
                full.segment(p.nC, p.nE) = x;
                y = chol.solve(full).segment(p.nC, p.nE);
            },
            p.nE, p.nE <= 1500 ? p.nE : 150);
        r.kappa_pi = e.max / e.min;
    }
    return r;
}

std::vector<AccuracyRow> accuracy_rows(PoissonGrid grid, int level, int coarse_level, const std::vector<int>& ns,
                                       const std::vector<PoissonPrecision>& precisions, bool cuda) {
    Built b = build(grid, level);
    PrehandleOptions options;
    if (cuda) options.spd_inverse = cuda_spd_inverse;
    const PrehandledPoisson p = prehandle(b.mesh, coarse_level, b.A, b.dof, options);
    const int K = static_cast<int>(ns.size());
    Eigen::MatrixXd rhs(b.N, K), exact(b.N, K);
    for (int k = 0; k < K; ++k) {
        rhs.col(k) = assemble_load(b.mesh, b.dof, b.N, ns[k]);
        exact.col(k) = exact_at_dofs(b.mesh, b.dof, b.N, ns[k]);
    }
    Eigen::MatrixXd bp = prehandle_rhs(p, rhs);
    Eigen::VectorXd scale(K);
    for (int k = 0; k < K; ++k) {
        scale[k] = bp.col(k).cwiseAbs().maxCoeff();
        bp.col(k) /= scale[k];
    }
    std::vector<AccuracyRow> rows;
    for (PoissonPrecision prec : precisions) {
        Eigen::MatrixXd xp = cuda ? CudaPoissonSolver(p, prec).solve(bp) : solve_prehandled_cpu(p, prec, bp);
        for (int k = 0; k < K; ++k) xp.col(k) *= scale[k];
        const Eigen::MatrixXd x = unprehandle_solution(p, xp);
        for (int k = 0; k < K; ++k)
            rows.push_back({level, coarse_level, ns[k], prec, cuda ? "cuda" : "cpu",
                            (x.col(k) - exact.col(k)).norm() / exact.col(k).norm()});
    }
    return rows;
}

std::vector<PerformanceRow> performance_rows(PoissonGrid grid, int level, int coarse_level,
                                             const std::vector<PoissonPrecision>& precisions,
                                             const std::vector<int>& rhs_counts, bool cuda, int repetitions,
                                             bool baselines) {
    using Clock = std::chrono::steady_clock;
    Built b = build(grid, level);
    PrehandleOptions options;
    if (cuda) options.spd_inverse = cuda_spd_inverse;
    const auto t0 = Clock::now();
    const PrehandledPoisson p = prehandle(b.mesh, coarse_level, b.A, b.dof, options);
    const double setup = std::chrono::duration<double>(Clock::now() - t0).count();
    const double flops = direct_solve_flops(p);
    const int distinct = 10;
    Eigen::MatrixXd loads(b.N, distinct), exact(b.N, 1);
    for (int k = 0; k < distinct; ++k) loads.col(k) = assemble_load(b.mesh, b.dof, b.N, 1 + k);
    exact.col(0) = exact_at_dofs(b.mesh, b.dof, b.N, 1);
    std::vector<PerformanceRow> rows;
    for (int K : rhs_counts) {
        Eigen::MatrixXd rhs(b.N, K);
        for (int k = 0; k < K; ++k) rhs.col(k) = loads.col(k % distinct);
        Eigen::MatrixXd bp = prehandle_rhs(p, rhs);
        Eigen::VectorXd scale(K);
        for (int k = 0; k < K; ++k) {
            scale[k] = bp.col(k).cwiseAbs().maxCoeff();
            bp.col(k) /= scale[k];
        }
        for (PoissonPrecision prec : precisions) {
            PerformanceRow r;
            r.level = level;
            r.coarse_level = coarse_level;
            r.rhs = K;
            r.N = b.N;
            r.solver = std::string("direct ") + poisson_precision_name(prec) + (cuda ? " (cuda)" : " (cpu)");
            r.setup_seconds = setup;
            Eigen::MatrixXd xp;
            if (cuda) {
                CudaPoissonSolver solver(p, prec);
                xp = solver.solve(bp);
                r.solve_seconds = solver.median_solve_seconds(repetitions);
            } else {
                const CpuPoissonSolver solver(p, prec);
                std::vector<double> t;
                for (int i = 0; i < repetitions; ++i) {
                    const auto s0 = Clock::now();
                    xp = solver.solve(bp);
                    t.push_back(std::chrono::duration<double>(Clock::now() - s0).count());
                }
                std::sort(t.begin(), t.end());
                r.solve_seconds = t[t.size() / 2];
            }
            const Eigen::VectorXd x0 = unprehandle_solution(p, xp.col(0) * scale[0]);
            r.relative_error = (x0 - exact.col(0)).norm() / exact.col(0).norm();
            r.gflops = flops * K / r.solve_seconds / 1e9;
            r.mdofs = double(b.N) * K / r.solve_seconds / 1e6;
            rows.push_back(r);
        }
        if (!baselines) continue;
        // CPU sparse Cholesky, CG, and with CUDA the GPU sparse Cholesky (cuSOLVER).
        for (int which = 0; which < 3; ++which) {
            if (which == 1 && K > 1) continue;             // CG: one right-hand side (K solves cost K times as much)
            if (which == 2 && (!cuda || K > 1)) continue;  // cuSOLVER: one call per right-hand side
            const BaselineResult br = which == 0   ? solve_sparse_cholesky(b.A, rhs)
                                      : which == 1 ? solve_conjugate_gradient(b.A, rhs)
                                                   : solve_sparse_cholesky_cusolver(b.A, rhs);
            PerformanceRow r;
            r.level = level;
            r.coarse_level = coarse_level;
            r.rhs = K;
            r.N = b.N;
            r.solver = br.method + (which == 2 ? " (cuda)" : " (cpu)");
            r.setup_seconds = br.setup_seconds;
            r.solve_seconds = br.solve_seconds;
            r.iterations = br.iterations;
            r.mdofs = double(b.N) * K / br.solve_seconds / 1e6;
            r.relative_error = (br.x.col(0) - exact.col(0)).norm() / exact.col(0).norm();
            rows.push_back(r);
        }
    }
    return rows;
}

int best_coarse_level(PoissonGrid grid, int level) {
    // Operations of the three steps (without the small sparse parts): 2 |E|^2 + 4 cells n^2, plus
    // the coarse grid's two dense triangular solves in the transforms, 2 |C|^2. L0 <= L - 2 so
    // that the macro cells have interior nodes (L0 = L would leave only the coarse Cholesky).
    int best = 0;
    double best_flops = 0;
    for (int l0 = 0; l0 <= std::max(0, level - 2); ++l0) {
        const BlockCounts c = block_counts(grid, level, l0);
        const double f = 2.0 * double(c.nE) * double(c.nE) +
                         4.0 * double(c.macro_cells) * double(c.cell_nodes) * double(c.cell_nodes) +
                         2.0 * double(c.nC) * double(c.nC);
        if (l0 == 0 || f < best_flops) {
            best = l0;
            best_flops = f;
        }
    }
    return best;
}

}  // namespace voxwave::poisson
