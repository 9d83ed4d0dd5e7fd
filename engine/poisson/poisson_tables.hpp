// Seed 002's tables for our grids: Table 2 (grid sizes and kappa(A_FEM)), Table 3 (block sizes,
// storage, operations), Table 4 (kappa of Pi and of the C_i) and the accuracy experiment of
// Fig. 10. Rows as plain data; the CLI prints them, a panel can plot them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "poisson/direct_solver.hpp"
#include "poisson/poisson_mesh.hpp"

namespace voxwave::poisson {

struct Table2Row {
    int level = 0;
    long long N = 0, elements = 0;
    double nnz_per_N = 0;  // numerically nonzero entries (|a_ij| > 1e-12 max |a|)
    double kappa = 0;
};
Table2Row table2_row(PoissonGrid grid, int level);

struct Table3Row {
    int level = 0, coarse_level = 0;
    long long N = 0, nC = 0, nE = 0, nI = 0;
    double pi_inverse_per_N = 0, c_inverse_per_N = 0, B_per_N = 0, D_per_N = 0, total_per_N = 0;
    double flops_per_N32 = 0;  // operations of one solve / N^(3/2)
};
Table3Row table3_row(PoissonGrid grid, int level, int coarse_level);

struct Table4Row {
    int level = 0, coarse_level = 0;
    double kappa_pi = 0;
    std::vector<std::string> class_shapes;
    std::vector<double> kappa_c;  // per similarity class (C_1, C_2, C_3 in Table 4's order)
};
Table4Row table4_row(PoissonGrid grid, int level, int coarse_level);

struct AccuracyRow {
    int level = 0, coarse_level = 0, n = 1;
    PoissonPrecision precision = PoissonPrecision::Fp64;
    std::string backend;  // cpu (emulated lower precision) | cuda
    double relative_error = 0;
};
// Fig. 10: relative Euclidean error at the nodes against eq. 7 for each n and precision;
// `cuda` runs the solver on the GPU (preprocessing stays FP64 on the CPU).
std::vector<AccuracyRow> accuracy_rows(PoissonGrid grid, int level, int coarse_level, const std::vector<int>& ns,
                                       const std::vector<PoissonPrecision>& precisions, bool cuda);

// Fig. 6 / 7: GFLOP/s and MDof/s of the three steps for one and many right-hand sides in each
// precision (prehandled once), with the relative error of the first right-hand side.
struct PerformanceRow {
    int level = 0, coarse_level = 0, rhs = 1;
    long long N = 0;
    std::string solver;  // "direct fp16 (cuda)", "CHOLMOD supernodal LLT", ...
    double setup_seconds = 0, solve_seconds = 0, gflops = 0, mdofs = 0, relative_error = 0;
    int iterations = 0;
};
std::vector<PerformanceRow> performance_rows(PoissonGrid grid, int level, int coarse_level,
                                             const std::vector<PoissonPrecision>& precisions,
                                             const std::vector<int>& rhs_counts, bool cuda, int repetitions,
                                             bool baselines);

// The coarse level with the fewest operations for level L (Table 3's bold entries), among 0..L-2.
int best_coarse_level(PoissonGrid grid, int level);

}  // namespace voxwave::poisson
