// The CUDA direct Poisson solver (seed 002) against the CPU solver, its oracle: FP64 to 1e-12;
// FP32, TF32 and FP16 against the CPU's emulation of the same rounding, and against the exact
// solution of eq. 7; one and many right-hand sides.
#include <gtest/gtest.h>

#include <string>

#include "core/device.hpp"
#include "poisson/direct_solver_cuda.hpp"
#include "poisson/poisson_assembly.hpp"
#include "poisson/prehandling.hpp"
#include "poisson/sparse_baselines.hpp"

using namespace voxwave::poisson;

namespace {

bool have_cuda() {
    std::string why;
    return voxwave::cuda_compiled() && !voxwave::cuda_devices(&why).empty();
}

struct Case {
    PoissonMesh mesh;
    std::vector<int> dof;
    int N = 0;
    PrehandledPoisson p;
    Eigen::MatrixXd b_prehandled;  // scaled to max 1 per column
    Eigen::VectorXd scale;
    Eigen::MatrixXd exact;
};

Case make_case(PoissonGrid grid, int L, int L0, int K) {
    Case c;
    c.mesh = refined_poisson_mesh(grid, L);
    c.dof = interior_dofs(c.mesh, &c.N);
    const SparseMatrixd A = assemble_stiffness(c.mesh, c.dof, c.N);
    c.p = prehandle(c.mesh, L0, A, c.dof);
    Eigen::MatrixXd b(c.N, K);
    c.exact.resize(c.N, K);
    for (int k = 0; k < K; ++k) {
        b.col(k) = assemble_load(c.mesh, c.dof, c.N, 1 + k % 10);
        c.exact.col(k) = exact_at_dofs(c.mesh, c.dof, c.N, 1 + k % 10);
    }
    c.b_prehandled = prehandle_rhs(c.p, b);
    c.scale.resize(K);
    for (int k = 0; k < K; ++k) {
        c.scale[k] = c.b_prehandled.col(k).cwiseAbs().maxCoeff();
        c.b_prehandled.col(k) /= c.scale[k];
    }
    return c;
}

double solution_error(const Case& c, Eigen::MatrixXd xp, int k) {
    for (int j = 0; j < xp.cols(); ++j) xp.col(j) *= c.scale[j];
    const Eigen::MatrixXd x = unprehandle_solution(c.p, xp);
    return (x.col(k) - c.exact.col(k)).norm() / c.exact.col(k).norm();
}

}  // namespace

TEST(PoissonCuda, MatchesCpuInEveryPrecisionOneAndManyRhs) {
    if (!have_cuda()) GTEST_SKIP() << "no CUDA device";
    for (auto [grid, L, L0] :
         {std::tuple{PoissonGrid::FlowAroundSquare, 5, 1}, std::tuple{PoissonGrid::UnitSquare, 7, 3}}) {
        for (int K : {1, 24}) {
            const Case c = make_case(grid, L, L0, K);
            for (PoissonPrecision prec :
                 {PoissonPrecision::Fp64, PoissonPrecision::Fp32, PoissonPrecision::Tf32, PoissonPrecision::Fp16}) {
                const Eigen::MatrixXd cpu = solve_prehandled_cpu(c.p, prec, c.b_prehandled);
                CudaPoissonSolver gpu_solver(c.p, prec);
                const Eigen::MatrixXd gpu = gpu_solver.solve(c.b_prehandled);
                ASSERT_EQ(gpu.rows(), cpu.rows());
                ASSERT_EQ(gpu.cols(), cpu.cols());
                const double diff = (gpu - cpu).norm() / cpu.norm();
                const double tol = prec == PoissonPrecision::Fp64   ? 1e-12
                                   : prec == PoissonPrecision::Fp32 ? 1e-5
                                                                    : 1e-2;
                EXPECT_LT(diff, tol) << poisson_precision_name(prec) << " L=" << L << " K=" << K;
                // And the physics: the same error against eq. 7 as the CPU, within the format's noise.
                // TF32 and FP16: cuBLAS may round differently from the emulation (ties, accumulation order).
                const bool lower = prec == PoissonPrecision::Fp16 || prec == PoissonPrecision::Tf32;
                const double e_gpu = solution_error(c, gpu, 0), e_cpu = solution_error(c, cpu, 0);
                EXPECT_NEAR(e_gpu, e_cpu, lower ? 0.3 * e_cpu + 2e-4 : 0.02 * e_cpu)
                    << poisson_precision_name(prec) << " L=" << L << " K=" << K;
                EXPECT_GT(gpu_solver.median_solve_seconds(2), 0.0);
            }
        }
    }
}

// The GPU sparse baseline (cuSOLVER sparse Cholesky) equals the CPU sparse Cholesky on the
// same nodal system to 1e-10 relative, for two right-hand sides.
TEST(PoissonCuda, CusolverSparseBaselineEqualsTheCpuSparseCholesky) {
    if (!have_cuda()) GTEST_SKIP() << "no CUDA device";
    PoissonMesh mesh = refined_poisson_mesh(PoissonGrid::FlowAroundSquare, 4);
    int N = 0;
    const std::vector<int> dof = interior_dofs(mesh, &N);
    const SparseMatrixd A = assemble_stiffness(mesh, dof, N);
    Eigen::MatrixXd b(N, 2);
    b.col(0) = assemble_load(mesh, dof, N, 1);
    b.col(1) = assemble_load(mesh, dof, N, 10);
    const BaselineResult cpu = solve_sparse_cholesky(A, b);
    const BaselineResult gpu = solve_sparse_cholesky_cusolver(A, b);
    for (int k = 0; k < 2; ++k) EXPECT_LT((gpu.x.col(k) - cpu.x.col(k)).norm() / cpu.x.col(k).norm(), 1e-10) << k;
    EXPECT_GT(gpu.solve_seconds, 0.0);
    EXPECT_NE(gpu.method.find("cuSOLVER"), std::string::npos);
}
