// The IGA capability's public entry point (issue 6), for the CLI and the GUI's Solvers tab:
// one call with a parameter struct and a progress callback, one result struct back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/progress.hpp"
#include "iga/iga_problem.hpp"

namespace voxwave::iga {

struct IgaParams {
    int degree = 2;     // p >= 1
    int elements = 16;  // N per side, a power of two (2 .. 8192)
    IgaProblemKind problem = IgaProblemKind::Seed;
    Backend backend = Backend::Auto;
    bool parallel = true;  // CPU: OpenMP over the fronts of a level; false: one thread
    bool baseline = true;  // also solve the assembled system with the sparse direct baseline
    int grid = 101;        // samples per side of [0,1]^2
};

struct IgaResult {
    IgaParams params;
    std::string backend;       // "cpu" or "cuda" (what ran)
    std::string backend_note;  // why auto chose it, or the device name
    std::int64_t dofs = 0, free_dofs = 0;
    int levels = 0, max_front = 0, threads = 1;
    double factor_flops = 0;
    // Samples on grid x grid points, row-major [j * grid + i] at (x_i, y_j).
    std::vector<double> x, y, u;
    std::vector<double> coefficients;  // n^2 B-spline coefficients, i + n j
    double l2_error = 0;               // || u_h - u ||_L2
    double setup_seconds = 0;          // space, load, elimination tree (host)
    double factor_seconds = 0, solve_seconds = 0;
    double device_setup_seconds = 0;  // CUDA: allocations and uploads
    // The sparse direct baseline on the same assembled matrix (when params.baseline).
    std::string baseline_solver;
    double baseline_assemble_seconds = 0, baseline_analyse_seconds = 0, baseline_factor_seconds = 0,
           baseline_solve_seconds = 0;
    double baseline_max_difference = -1;  // max |x_mf - x_sparse| / max |x_sparse|; -1 when not run
};

// Validates (InputError naming the field), solves, samples, measures the error. `progress`
// gets (done, total) of the solve (CPU: tree levels up and down; CUDA: start and end) and may
// cancel (Cancelled is thrown). Safe to call from a worker thread.
IgaResult solve_iga(const IgaParams& params, const ProgressFn& progress = {});

// Writes an IGA result (format "voxwave-iga", version 1) atomically: /samples/x, /samples/y,
// /samples/u (grid x grid) and the root attributes the README lists.
void write_iga_h5(const std::string& path, const IgaResult& r);

}  // namespace voxwave::iga
