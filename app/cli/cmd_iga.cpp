// `voxwave-cli iga`: the isogeometric multi-frontal solver of seed 004 on one problem; writes
// the solution sampled on a grid of [0,1]^2 and the run's numbers to HDF5.
#include <cstdio>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"
#include "iga/iga_solver.hpp"

namespace voxwave::cli {
namespace {
struct IgaOptions {
    int degree = 2, elements = 16, grid = 101;
    std::string problem = "seed", backend = "auto", out;
    bool sequential = false, no_baseline = false, quiet = false;
};

int run(const IgaOptions& o) {
    iga::IgaParams p;
    p.degree = o.degree;
    p.elements = o.elements;
    p.problem = iga::parse_iga_problem(o.problem);
    p.backend = parse_backend(o.backend, "--backend");
    p.parallel = !o.sequential;
    p.baseline = !o.no_baseline;
    p.grid = o.grid;
    check_output_path(o.out);
    const iga::IgaResult r = iga::solve_iga(p, terminal_progress("iga", o.quiet));
    finish_progress();
    iga::write_iga_h5(o.out, r);
    if (!o.quiet) {
        std::printf("iga %s: p = %d, N = %d x %d elements, %lld unknowns (%lld free), largest front %d\n",
                    iga::to_string(p.problem), p.degree, p.elements, p.elements, static_cast<long long>(r.dofs),
                    static_cast<long long>(r.free_dofs), r.max_front);
        const std::string threads =
            r.backend == "cpu" ? ", " + std::to_string(r.threads) + (r.threads == 1 ? " thread" : " threads") : "";
        std::printf("multi-frontal (%s%s%s%s): factor %.4g s, solve %.4g s; L2 error %.3e\n", r.backend.c_str(),
                    r.backend_note.empty() ? "" : ", ", r.backend_note.c_str(), threads.c_str(), r.factor_seconds,
                    r.solve_seconds, r.l2_error);
        if (r.baseline_max_difference >= 0)
            std::printf("baseline %s: analyse %.4g s, factor %.4g s, solve %.4g s; max |difference| %.2e\n",
                        r.baseline_solver.c_str(), r.baseline_analyse_seconds, r.baseline_factor_seconds,
                        r.baseline_solve_seconds, r.baseline_max_difference);
        std::printf("wrote %s\n", o.out.c_str());
    }
    return kOk;
}
}  // namespace

std::function<int()> add_iga_command(CLI::App& app) {
    auto o = std::make_shared<IgaOptions>();
    CLI::App* c = app.add_subcommand(
        "iga", "Isogeometric B-spline Laplace problem on [0,1]^2 solved by the multi-frontal direct solver (seed 004)");
    c->add_option("--degree,-p", o->degree, "B-spline degree p >= 1 (continuity C^(p-1))")->required();
    c->add_option("--elements,-N", o->elements, "Elements per side N (a power of two, 2..8192)")->required();
    c->add_option("--problem", o->problem, "seed (u = x2) | manufactured (u = cos(pi x1) sin(pi x2))")->required();
    c->add_option("--backend", o->backend, "auto | cpu | cuda (default auto)");
    c->add_option("--out,-o", o->out, "Output HDF5 file (/samples/x, /samples/y, /samples/u)")->required();
    c->add_option("--grid", o->grid, "Samples per side of [0,1]^2 (default 101)");
    c->add_flag("--sequential", o->sequential, "CPU: one thread (default: OpenMP over the fronts of a level)");
    c->add_flag("--no-baseline", o->no_baseline, "Skip the sparse direct baseline solve");
    c->add_flag("--quiet,-q", o->quiet, "No progress bar, no summary");
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
