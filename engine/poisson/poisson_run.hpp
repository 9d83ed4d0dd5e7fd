// One Poisson run as a front end asks for it (CLI `poisson`, a Solvers-tab panel): build the
// grid, prehandle in FP64, solve K right-hand sides of eq. 7 with the direct solver in the
// chosen precision and backend, and measure. Runs on the caller's thread; the panel calls it
// from its worker thread with a ProgressFn that may cancel.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/progress.hpp"
#include "poisson/direct_solver.hpp"
#include "poisson/sparse_baselines.hpp"

namespace voxwave::poisson {

struct PoissonParams {
    PoissonGrid grid = PoissonGrid::FlowAroundSquare;
    int level = 5;
    int coarse_level = 1;
    PoissonPrecision precision = PoissonPrecision::Fp64;
    int rhs = 1;  // K right-hand sides; column k is eq. 7 with n = solution + k % 10
    Backend backend = Backend::Auto;
    int solution = 1;        // n of eq. 7
    int repetitions = 5;     // timed solves (median)
    bool baselines = false;  // also solve with sparse Cholesky and CG
};

struct PoissonTimings {
    double assembly = 0;     // grid, stiffness, loads (s)
    double prehandling = 0;  // S, blocks, C_i^-1, Pi^-1 in FP64 (s)
    double transforms = 0;   // b' = L^-1 P S^T b and back, CPU (s)
    double upload = 0;       // matrices to the GPU (s), 0 on the CPU
    double solve = 0;        // median of the three steps for all K right-hand sides (s)
};

struct PoissonResult {
    PoissonParams params;
    std::string backend;                       // "cpu" | "cuda"
    std::string backend_note;                  // why, and which device
    std::vector<std::array<double, 2>> nodes;  // interior nodes (N)
    Eigen::MatrixXd solution;                  // N x K nodal values
    double relative_error = 0;                 // column 0 against eq. 7 at the nodes, Euclidean norm
    double max_relative_error = 0;             // over the columns
    int N = 0, nC = 0, nE = 0, nI = 0, classes = 0;
    double flops_per_rhs = 0;
    double gflops = 0;  // flops_per_rhs * K / solve time
    double mdofs = 0;   // N * K / solve time / 1e6
    PoissonTimings timings;
    std::vector<BaselineResult> baselines;  // solutions dropped, errors kept in baseline_errors
    std::vector<double> baseline_errors;    // relative difference to the direct solver's column 0
};

// Validates the parameters (InputError naming the option: --level, --coarse-level, --rhs, ...).
void validate_poisson_params(const PoissonParams& params);
PoissonResult run_poisson(const PoissonParams& params, const ProgressFn& progress = {});

// `/nodes` (N x 2), `/solution` (N, or N x K), attributes (grid, levels, precision, backend,
// timings, GFLOP/s, MDof/s, relative_error); written atomically.
void write_poisson_h5(const PoissonResult& r, const std::string& path);

}  // namespace voxwave::poisson
