// `voxwave-cli poisson`: seed 002's prehandled direct Poisson solver. One solve (grid, levels,
// precision, K right-hand sides, backend) written to HDF5, and/or the paper's Tables 2, 3, 4
// and the Fig. 10 accuracy experiment printed as markdown (appended to --report).
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/backend.hpp"
#include "core/errors.hpp"
#include "poisson/direct_solver_cuda.hpp"
#include "poisson/poisson_run.hpp"
#include "poisson/poisson_tables.hpp"
#include "poisson/prehandling.hpp"

namespace voxwave::cli {
namespace {

using namespace voxwave::poisson;

struct PoissonOptions {
    std::string grid = "flow-around-square", precision = "fp64", backend = "auto", out, report;
    int level = 5, coarse_level = 1, rhs = 1, solution = 1, repetitions = 3, max_level = 5, min_level = 5,
        perf_rhs = 256;
    std::vector<std::string> tables;
    bool baselines = false, quiet = false;
};

std::string fmt(double v, const char* f = "%.2f") {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// Seed 002's own numbers, printed beside ours.
const double kPaperKappa[] = {1.88, 10.01, 54.51, 257.68, 1097.00, 4473.84, 17994.22, 72085.43, 288459.71};
const double kPaperNnz[] = {1.00, 4.43, 5.53, 5.89, 6.03, 6.09, 6.12, 6.13, 6.14};
// Table 3 (L = 6..8, L0 = 0..4): NNZ(B)/N and FLOP/N^1.5; Table 4: kappa(Pi), kappa(C_1..3).
const double kPaperB[3][5] = {
    {0.05, 1.45, 8.47, 31.49, 110.21}, {0.02, 0.74, 4.35, 16.72, 63.59}, {0.01, 0.37, 2.21, 8.57, 33.70}};
const double kPaperFlops[3][5] = {
    {32.21, 10.55, 15.39, 50.82, 152.05}, {66.02, 17.38, 10.90, 29.43, 102.25}, {134.23, 33.61, 11.57, 17.01, 58.65}};
const double kPaperT4[3][5][4] = {{{44.25, 36.98, 52.48, 82.26},
                                   {58.61, 23.81, 33.02, 45.94},
                                   {45.71, 13.57, 18.04, 23.21},
                                   {27.96, 6.58, 8.67, 9.44},
                                   {16.76, 2.09, 2.40, 2.51}},
                                  {{61.05, 53.14, 76.08, 121.93},
                                   {82.63, 36.98, 52.48, 82.26},
                                   {68.97, 23.81, 33.02, 45.94},
                                   {48.92, 13.57, 18.04, 23.21},
                                   {28.48, 6.58, 8.67, 9.44}},
                                  {{80.83, 72.25, 104.02, 168.20},
                                   {111.16, 53.14, 76.08, 121.93},
                                   {97.35, 36.98, 52.48, 82.26},
                                   {74.08, 23.81, 33.02, 45.94},
                                   {0, 13.57, 18.04, 23.21}}};

std::string table2(const PoissonOptions& o, PoissonGrid grid) {
    std::ostringstream md;
    md << "## Table 2 (" << poisson_grid_name(grid) << "): grid sizes and kappa(A_FEM)\n\n";
    md << "| L | N | elements | NNZ(A)/N | kappa(A) | paper NNZ/N | paper kappa |\n|---|---|---|---|---|---|---|\n";
    for (int L = 0; L <= o.max_level; ++L) {
        if (interior_node_count(grid, L) == 0) continue;  // the unit square's level 0
        const Table2Row r = table2_row(grid, L);
        const bool paper = grid == PoissonGrid::FlowAroundSquare && L <= 8;
        md << "| " << L << " | " << r.N << " | " << r.elements << " | " << fmt(r.nnz_per_N) << " | " << fmt(r.kappa)
           << " | " << (paper ? fmt(kPaperNnz[L]) : "-") << " | " << (paper ? fmt(kPaperKappa[L]) : "-") << " |\n";
    }
    md << "\nkappa by Lanczos (lambda_max on A, lambda_min on A^-1 through a sparse Cholesky factor; exact "
          "eigenvalues up to N = 1500). NNZ counts numerically nonzero entries.\n";
    return md.str();
}

std::vector<int> table_levels(const PoissonOptions& o) {
    std::vector<int> levels;
    for (int L = 6; L <= std::max(6, o.max_level); ++L) levels.push_back(L);
    return levels;
}

std::string table3(const PoissonOptions& o, PoissonGrid grid) {
    std::ostringstream md;
    md << "## Table 3 (" << poisson_grid_name(grid) << "): blocks, storage and operations of the direct solver\n\n";
    md << "| L | L0 | C | E | I | NNZ(Pi^-1)/N | NNZ(C^-1)/N | NNZ(B)/N | NNZ(D)/N | sum NNZ/N | FLOP/N^1.5 | "
          "paper NNZ(B)/N | paper FLOP/N^1.5 |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (int L : table_levels(o))
        for (int L0 = 0; L0 <= 4 && L0 <= L; ++L0) {
            const Table3Row r = table3_row(grid, L, L0);
            const bool paper = grid == PoissonGrid::FlowAroundSquare && L <= 8;
            md << "| " << L << " | " << L0 << " | " << r.nC << " | " << r.nE << " | " << r.nI << " | "
               << fmt(r.pi_inverse_per_N) << " | " << fmt(r.c_inverse_per_N) << " | " << fmt(r.B_per_N) << " | "
               << fmt(r.D_per_N) << " | " << fmt(r.total_per_N) << " | " << fmt(r.flops_per_N32) << " | "
               << (paper ? fmt(kPaperB[L - 6][L0]) : "-") << " | " << (paper ? fmt(kPaperFlops[L - 6][L0]) : "-")
               << " |\n";
        }
    md << "\nFLOP: 2|E|^2 (Pi^-1) + 2 x 2 cells n^2 (C^-1 twice) + 4 NNZ(B) + 4 NNZ(D) per right-hand side.\n";
    return md.str();
}

std::string table4(const PoissonOptions& o, PoissonGrid grid) {
    std::ostringstream md;
    md << "## Table 4 (" << poisson_grid_name(grid) << "): condition numbers of Pi and the C_i\n\n";
    md << "| L | L0 | kappa(Pi) | kappa(C_i) (class) | paper kappa(Pi) | paper kappa(C_1, C_2, C_3) |\n"
          "|---|---|---|---|---|---|\n";
    for (int L : table_levels(o))
        for (int L0 = 0; L0 <= 4 && L0 < L; ++L0) {
            const Table4Row r = table4_row(grid, L, L0);
            std::string cs;
            for (std::size_t c = 0; c < r.kappa_c.size(); ++c)
                cs += (c ? ", " : "") + fmt(r.kappa_c[c]) + " (" + r.class_shapes[c] + ")";
            const bool paper = grid == PoissonGrid::FlowAroundSquare && L <= 8;
            std::string pc = "-", pp = "-";
            if (paper) {
                const double* t = kPaperT4[L - 6][L0];
                pp = t[0] > 0 ? fmt(t[0]) : "-";
                pc = fmt(t[1]) + ", " + fmt(t[2]) + ", " + fmt(t[3]);
            }
            md << "| " << L << " | " << L0 << " | " << fmt(r.kappa_pi) << " | " << cs << " | " << pp << " | " << pc
               << " |\n";
        }
    md << "\nkappa(Pi) by Lanczos on Pi^-1 = (A'^-1)_EE (both ends of its spectrum); kappa(C_i) by Lanczos on "
          "C_i^-1 (exact eigenvalues up to 1500 unknowns).\n";
    return md.str();
}

std::string fig10(const PoissonOptions& o, PoissonGrid grid, bool cuda) {
    std::ostringstream md;
    md << "## Fig. 10 (" << poisson_grid_name(grid) << "): relative error against eq. 7 (Euclidean norm at the "
       << "nodes)\n\n";
    md << "Solver on "
       << (cuda ? "the GPU (cuBLAS; FP16 and TF32 on Tensor Cores)"
                : "the CPU (lower precisions "
                  "emulated exactly: rounded "
                  "storage, FP32 accumulation)")
       << "; L0 = the coarse level with the fewest operations.\n\n";
    md << "| L | L0 | N | n | FP64 | FP32 | TF32 | FP16 |\n|---|---|---|---|---|---|---|---|\n";
    const std::vector<PoissonPrecision> precs = {PoissonPrecision::Fp64, PoissonPrecision::Fp32, PoissonPrecision::Tf32,
                                                 PoissonPrecision::Fp16};
    for (int L = 1; L <= o.max_level; ++L) {
        const int L0 = best_coarse_level(grid, L);
        const auto rows = accuracy_rows(grid, L, L0, {1, 10}, precs, cuda);
        for (int n : {1, 10}) {
            md << "| " << L << " | " << L0 << " | " << interior_node_count(grid, L) << " | " << n;
            for (PoissonPrecision pr : precs)
                for (const auto& r : rows)
                    if (r.n == n && r.precision == pr) md << " | " << fmt(r.relative_error, "%.3e");
            md << " |\n";
        }
    }
    return md.str();
}

std::string performance(const PoissonOptions& o, PoissonGrid grid, bool cuda, const std::string& note) {
    std::ostringstream md;
    md << "## Fig. " << (grid == PoissonGrid::FlowAroundSquare ? "6" : "7") << " (" << poisson_grid_name(grid)
       << "): performance of the direct solver, one and " << o.perf_rhs << " right-hand sides\n\n";
    md << "- " << note << "\n- solve = steps 4-6 on data already in place (median of " << o.repetitions
       << (cuda ? ", CUDA events" : "") << "); setup = FP64 prehandling incl. Pi^-1"
       << (cuda ? " (cuSOLVER potrf/potri)" : "") << " or the baseline's factorisation\n"
       << "- baselines run on the CPU of this machine: "
       << (cholmod_built() ? "CHOLMOD" : "CHOLMOD not built, Eigen SimplicialLLT")
       << " and Jacobi-CG to 1e-8 (one right-hand side)\n\n";
    md << "| L | L0 | N | K | solver | setup s | solve ms | GFLOP/s | MDof/s | rel. error (n=1) |\n"
          "|---|---|---|---|---|---|---|---|---|---|\n";
    const std::vector<PoissonPrecision> precs = {PoissonPrecision::Fp64, PoissonPrecision::Fp32, PoissonPrecision::Tf32,
                                                 PoissonPrecision::Fp16};
    for (int L = std::min(o.max_level, o.min_level); L <= o.max_level; ++L) {
        const int L0 = best_coarse_level(grid, L);
        for (const PerformanceRow& r :
             performance_rows(grid, L, L0, precs, {1, o.perf_rhs}, cuda, o.repetitions, o.baselines))
            md << "| " << r.level << " | " << r.coarse_level << " | " << r.N << " | " << r.rhs << " | " << r.solver
               << (r.iterations ? " (" + std::to_string(r.iterations) + " it.)" : "") << " | "
               << fmt(r.setup_seconds, "%.3f") << " | " << fmt(r.solve_seconds * 1e3, "%.3f") << " | "
               << (r.gflops > 0 ? fmt(r.gflops, "%.1f") : "-") << " | " << fmt(r.mdofs, "%.1f") << " | "
               << fmt(r.relative_error, "%.3e") << " |\n";
    }
    return md.str();
}

std::string run_summary(const PoissonResult& r) {
    std::ostringstream md;
    const PoissonParams& p = r.params;
    md << "## poisson: " << poisson_grid_name(p.grid) << " L = " << p.level << ", L0 = " << p.coarse_level << ", "
       << poisson_precision_name(p.precision) << ", " << p.rhs << " right-hand side(s), " << r.backend << "\n\n";
    md << "- " << r.backend_note << "\n";
    md << "- N = " << r.N << " (C " << r.nC << ", E " << r.nE << ", I " << r.nI << "), " << r.classes
       << " class(es) of similar macro cells\n";
    md << "- relative error against eq. 7 (n = " << p.solution << "): " << fmt(r.relative_error, "%.3e")
       << " (max over the right-hand sides " << fmt(r.max_relative_error, "%.3e") << ")\n";
    md << "- solve (steps 4-6, median of " << p.repetitions << "): " << fmt(r.timings.solve * 1e3, "%.3f") << " ms, "
       << fmt(r.gflops, "%.1f") << " GFLOP/s, " << fmt(r.mdofs, "%.1f") << " MDof/s (" << fmt(r.flops_per_rhs, "%.4g")
       << " FLOP per right-hand side)\n";
    md << "- assembly " << fmt(r.timings.assembly, "%.3f") << " s, FP64 prehandling "
       << fmt(r.timings.prehandling, "%.3f") << " s, transforms b' = L^-1 P S^T b and back (CPU) "
       << fmt(r.timings.transforms, "%.3f") << " s, upload " << fmt(r.timings.upload, "%.3f") << " s\n";
    if (!r.baselines.empty()) {
        md << "\n| solver | setup s | solve s | MDof/s (solve) | MDof/s (setup + solve) | iterations | rel. diff to "
              "direct |\n|---|---|---|---|---|---|---|\n";
        const double nk = double(r.N) * p.rhs / 1e6;
        md << "| direct (" << poisson_precision_name(p.precision) << ", " << r.backend << ") | "
           << fmt(r.timings.prehandling, "%.3f") << " | " << fmt(r.timings.solve, "%.4f") << " | "
           << fmt(r.mdofs, "%.1f") << " | " << fmt(nk / (r.timings.prehandling + r.timings.solve), "%.2f")
           << " | - | 0 |\n";
        for (std::size_t i = 0; i < r.baselines.size(); ++i) {
            const auto& b = r.baselines[i];
            md << "| " << b.method << " | " << fmt(b.setup_seconds, "%.3f") << " | " << fmt(b.solve_seconds, "%.4f")
               << " | " << fmt(nk / b.solve_seconds, "%.1f") << " | "
               << fmt(nk / (b.setup_seconds + b.solve_seconds), "%.2f") << " | "
               << (b.iterations ? std::to_string(b.iterations) : "-") << " | " << fmt(r.baseline_errors[i], "%.2e")
               << " |\n";
        }
    }
    return md.str();
}

int run(const PoissonOptions& o) {
    const PoissonGrid grid = parse_poisson_grid(o.grid);
    PoissonParams p;
    p.grid = grid;
    p.level = o.level;
    p.coarse_level = o.coarse_level;
    p.precision = parse_poisson_precision(o.precision);
    p.rhs = o.rhs;
    p.backend = parse_backend(o.backend, "--backend");
    p.solution = o.solution;
    p.repetitions = o.repetitions;
    p.baselines = o.baselines;
    for (const std::string& t : o.tables)
        if (t != "2" && t != "3" && t != "4" && t != "fig10" && t != "perf" && t != "all")
            throw InputError("", "--table", "unknown table '" + t + "' (expected 2, 3, 4, fig10, perf or all)");
    if (o.perf_rhs < 1 || o.perf_rhs > 65535) throw InputError("", "--perf-rhs", "must lie in 1 .. 65535");
    if (o.max_level < 0 || o.max_level > 9) throw InputError("", "--max-level", "must lie in 0 .. 9");
    if (o.tables.empty() && o.out.empty()) throw InputError("", "--out", "required (or ask for --table)");
    const bool solve = !o.out.empty();
    if (solve) {
        validate_poisson_params(p);
        check_output_path(o.out);
    }
    if (!o.report.empty()) check_output_path(o.report);

    std::string md;
    if (solve) {
        const PoissonResult r = run_poisson(p, terminal_progress("poisson", o.quiet));
        finish_progress();
        write_poisson_h5(r, o.out);
        md += run_summary(r) + "- written: " + o.out + "\n\n";
    }
    auto want = [&](const char* t) {
        for (const std::string& s : o.tables)
            if (s == t || s == "all") return true;
        return false;
    };
    std::string note;
    const bool cuda = resolve_backend(p.backend, note) == Backend::Cuda;
    if (want("2")) md += table2(o, grid) + "\n";
    if (want("3")) md += table3(o, grid) + "\n";
    if (want("4")) md += table4(o, grid) + "\n";
    if (want("fig10")) md += fig10(o, grid, cuda) + "\n";
    if (want("perf")) md += performance(o, grid, cuda, note) + "\n";
    if (o.quiet && o.report.empty()) return kOk;
    print_and_append(md, o.report);
    return kOk;
}

}  // namespace

std::function<int()> add_poisson_command(CLI::App& app) {
    auto o = std::make_shared<PoissonOptions>();
    CLI::App* c = app.add_subcommand(
        "poisson", "Seed 002: prehandled direct Poisson solver in lower precision (CPU and CUDA), and its tables");
    c->add_option("--grid", o->grid, "unit-square (Q1) | flow-around-square (P1, default)");
    c->add_option("--level", o->level, "Fine grid level L (default 5)");
    c->add_option("--coarse-level", o->coarse_level, "Coarse grid level L0 <= L (default 1)");
    c->add_option("--precision", o->precision, "fp64 | fp32 | tf32 | fp16 (default fp64)");
    c->add_option("--rhs", o->rhs, "Number K of right-hand sides solved together (default 1)");
    c->add_option("--backend", o->backend, "auto | cpu | cuda (default auto)");
    c->add_option("--solution", o->solution, "n of the exact solution, eq. 7 (default 1)");
    c->add_option("--repetitions", o->repetitions, "Timed solves, the median is reported (default 3)");
    c->add_flag("--baselines", o->baselines, "Also solve with sparse Cholesky (CHOLMOD) and CG, with MDof/s");
    c->add_option("--out,-o", o->out, "Write /nodes, /solution and the figures to this HDF5 file");
    c->add_option("--table", o->tables,
                  "Print seed 002's table: 2, 3, 4, fig10, perf (Fig. 6/7 with baselines) or all (repeatable)");
    c->add_option("--perf-rhs", o->perf_rhs, "Right-hand sides of the many-rhs rows of --table perf (default 256)");
    c->add_option("--min-level", o->min_level, "Smallest level of --table perf (default 5)");
    c->add_option("--max-level", o->max_level, "Largest level in the tables (default 5; 3 and 4 use L = 6..)");
    c->add_option("--report", o->report, "Append the markdown to this file");
    c->add_flag("--quiet,-q", o->quiet, "No progress bar; nothing on stdout unless --report is given");
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
