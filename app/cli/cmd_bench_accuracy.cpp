// `voxwave-cli bench-accuracy`: the Stokes point-force problem (wave/point_force_solution.hpp)
// for VFEM, OVFEM and SEM p = 2..4 on refining grids: the error of seed 000 eq. 18 against the
// closed form, the node count and the run's time (whole run and time loop alone), and for each
// method the time it needs to reach a target error (log-log interpolation between the two runs
// around it). A benchmark: nothing here fails on a number.
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "wave/point_force_solution.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

namespace voxwave::cli {
namespace {
struct AccuracyOptions {
    std::vector<std::string> methods{"vfem", "ovfem", "sem2", "sem3", "sem4"};
    std::vector<int> divisions;       // spacings 8 mm / k; empty: per method until --budget
    std::vector<double> spacings_mm;  // explicit spacings (mm at scale 1), instead of divisions; 16 mm / k
    double dt_ns = 0;                 // one fixed time step for every run; 0: 0.9 of each run's limit
    std::string backend = "cpu", precision = "fp64", out;
    double budget = 60;                 // seconds: stop refining a method after a run longer than this
    std::vector<double> targets{1e-4};  // the errors whose time to reach is reported
    double scale = 1.0;                 // every length and time times this (tests: a smaller problem)
    bool quiet = false;
    bool warm_up = false;  // each method's first spacing run once, unrecorded, before its rows
    std::string command_line;
};

struct Case {
    Method method;
    int order;
    std::string label;
};

Case parse_case(const std::string& s) {
    if (s == "vfem" || s == "ovfem" || s == "tcovfem") return {parse_method(s, "--methods"), 0, s};
    if (s.size() == 4 && s.rfind("sem", 0) == 0 && sem_order_allowed(s[3] - '0')) return {Method::Sem, s[3] - '0', s};
    throw InputError("", "--methods", "unknown method '" + s + "' (expected vfem, ovfem, tcovfem, sem2, sem3 or sem4)");
}

struct Row {
    std::string label;
    // seconds: the whole run (engine set-up and time loop); loop_seconds: the time loop alone.
    double ds = 0, err = 0, seconds = 0, loop_seconds = 0, cpu_seconds = 0, dt = 0;
    std::size_t nodes = 0;
    std::int64_t steps = 0;
};

// The receivers sit at multiples of 8 mm from the source: voxel corners of every spacing 8 mm / k
// and, for even sem orders (whose element midpoints are GLL nodes), GLL nodes of 16 mm / k. A
// spacing typed with a few digits (5.333 for 16 / 3) is read as the 16 mm / k within 0.1 % of it,
// so the receivers land exactly on their nodes.
double snap_to_receiver_spacing(double ds, double base_ds) {
    for (int k = 1; k <= 256; ++k)
        if (std::abs(ds - 2 * base_ds / k) < 1e-3 * ds) return 2 * base_ds / k;
    return ds;
}

// The time to reach Err `target` from a method's rows: log-log interpolation of `seconds` between
// the coarsest run at or below the target and the finest run above it (the two runs around it in
// error), so the wall and loop clocks are read between the same two runs.
std::string time_to_reach(const std::vector<Row>& rows, const std::string& label, double target, double Row::*seconds) {
    const Row* below = nullptr;
    const Row* above = nullptr;
    for (const Row& r : rows) {
        if (r.label != label) continue;
        if (r.err <= target && (!below || r.err > below->err)) below = &r;
        if (r.err > target && (!above || r.err < above->err)) above = &r;
    }
    char text[96];
    if (below && above) {
        const double x = std::log(target / above->err) / std::log(below->err / above->err);
        std::snprintf(text, sizeof text, "%.4g s",
                      std::exp(std::log(above->*seconds) + x * std::log(below->*seconds / above->*seconds)));
    } else if (below) {
        std::snprintf(text, sizeof text, "at most %.4g s", below->*seconds);
    } else {
        return "not reached";
    }
    return text;
}

int run(const AccuracyOptions& o) {
    const Backend backend = parse_backend(o.backend, "--backend");
    const Precision precision = parse_precision(o.precision, "--precision");
    if (!(o.budget > 0)) throw InputError("", "--budget", "must be positive");
    if (o.targets.empty()) throw InputError("", "--target", "needs at least one error");
    for (double t : o.targets)
        if (!(t > 0)) throw InputError("", "--target", "must be positive");
    if (!(o.scale > 0) || o.scale > 1) throw InputError("", "--scale", "must be in (0, 1]");
    for (int k : o.divisions)
        if (k < 1 || k > 64) throw InputError("", "--divisions", "each k must be in 1..64 (spacing 8 mm / k)");
    for (double mm : o.spacings_mm)
        if (!(mm >= 0.25 && mm <= 40)) throw InputError("", "--spacings", "each spacing must be in 0.25..40 mm");
    if (!o.spacings_mm.empty() && !o.divisions.empty())
        throw InputError("", "--spacings", "give either --spacings or --divisions, not both");
    if (!(o.dt_ns >= 0)) throw InputError("", "--dt", "must be positive (ns), or 0 for 0.9 of the stable limit");
    std::vector<Case> cases;
    for (const auto& m : o.methods) cases.push_back(parse_case(m));
    if (!o.out.empty()) check_output_path(o.out);
    const PointForceProblem prob = scaled_point_force_problem(o.scale);
    const double base_ds = 8e-3 * o.scale;

    std::vector<Row> rows;
    std::string backend_used;
    for (const Case& c : cases) {
        std::vector<double> spacings;
        for (double mm : o.spacings_mm) spacings.push_back(snap_to_receiver_spacing(1e-3 * mm * o.scale, base_ds));
        for (int k : o.divisions) spacings.push_back(base_ds / k);
        if (spacings.empty())
            for (int k = c.method == Method::Sem ? 1 : 2; k <= 64; ++k) spacings.push_back(base_ds / k);
        const bool refine_until_budget = o.divisions.empty() && o.spacings_mm.empty();
        bool warmed_up = false;  // --warm-up: once a method, before its first row
        for (double ds : spacings) {
            Scene s = point_force_scene(prob, c.method, ds, c.order == 0 ? kSemMaxOrder : c.order, precision);
            s.run.backend = backend;
            s.run.dt = 1e-9 * o.dt_ns * o.scale;
            validate_scene(s, "bench-accuracy");
            const WaveProblem p = build_wave_problem(s, "bench-accuracy");
            std::vector<std::string> names;
            std::vector<std::array<double, 3>> snapped;
            for (const ReceiverPoint& rp : p.receivers) {
                names.push_back(rp.name);
                snapped.push_back(rp.snapped);
            }
            if (const std::string off = point_force_receiver_off_node(prob, ds, names, snapped); !off.empty())
                throw InputError("", o.spacings_mm.empty() ? "--divisions" : "--spacings",
                                 format_number(ds * 1e3 / o.scale) + " mm puts receiver '" + off +
                                     "' off the nodes of " + c.label +
                                     " (they are nodes at 8 mm / k for every method, 16 mm / k for sem2 "
                                     "and sem4)");
            if (!o.quiet)
                std::fprintf(stderr, "%s ds = %.4g mm: %zu nodes, %lld steps...\n", c.label.c_str(), ds * 1e3,
                             p.node_count(), static_cast<long long>(p.steps));
            // The warm-up: no recorded run then carries the process's first launches of the
            // method's kernels (on CUDA about 1 % of a run of a few milliseconds).
            if (o.warm_up && !warmed_up) {
                run_wave(p, ProgressFn{});
                warmed_up = true;
            }
            std::string note;
            const double cpu0 = process_cpu_seconds();
            const Result r = run_wave(p, terminal_progress(c.label, o.quiet), &note);
            const double cpu = process_cpu_seconds() - cpu0;
            finish_progress();
            backend_used = note;
            // The engine's set-up (tables, uploads) and release (frees) are timed apart from its
            // time loop; the loop ends with the receivers' last samples copied back, so a CUDA loop
            // time is the device's.
            const double loop = std::max(0.0, r.wall_seconds - r.setup_seconds);
            Row row{c.label, ds, point_force_error(prob, r), r.wall_seconds, loop, cpu, p.dt, p.node_count(), p.steps};
            if (!o.quiet) std::fprintf(stderr, "  Err %.3e in %.2f s (time loop %.2f s)\n", row.err, row.seconds, loop);
            rows.push_back(row);
            const double finest_target = *std::min_element(o.targets.begin(), o.targets.end());
            if (refine_until_budget && (row.seconds > o.budget || row.err < 0.1 * finest_target)) break;
        }
    }

    std::ostringstream md;
    md << "## Stokes point-force accuracy, " << utc_timestamp() << "\n\n";
    md << "- machine: " << cpu_model() << ", " << omp_get_max_threads() << " OpenMP threads (host " << host_name()
       << "); " << backend_used << "\n";
    md << "- command: `" << o.command_line << "`\n";
    md << "- problem: rho " << prob.material.density << " kg/m^3, vp " << prob.material.vp << ", vs "
       << prob.material.vs << " m/s, Ricker " << prob.frequency * 1e-3 << " kHz along z at the centre of a "
       << prob.side * 1e3 << " mm cube, 4 receivers off the axes " << 37.5 * o.scale << "-" << 46.6 * o.scale
       << " mm away, " << prob.duration * 1e6
       << " us (until the first reflection); Err: seed 000 eq. 18 against "
          "the closed form; time: wall of the whole run (engine set-up and time loop) and of the time loop alone "
          "(loop), CPU of the whole run (all threads), precision "
       << to_string(precision)
       << (o.warm_up ? "; each method's first spacing run once before its rows, unrecorded (--warm-up)" : "") << "\n\n";
    md << "| method | ds (mm) | nodes | dt (ns) | steps | Err | wall (s) | loop (s) | CPU (s) | node-steps per wall s "
          "|\n"
          "|---|---|---|---|---|---|---|---|---|---|\n";
    char line[256];
    for (const Row& r : rows) {
        // Four significant digits of each clock: a small SEM run's loop is a few milliseconds.
        std::snprintf(line, sizeof line, "| %s | %.4g | %zu | %.2f | %lld | %.3e | %.4g | %.4g | %.4g | %.3g |\n",
                      r.label.c_str(), r.ds * 1e3, r.nodes, r.dt * 1e9, static_cast<long long>(r.steps), r.err,
                      r.seconds, r.loop_seconds, r.cpu_seconds, double(r.nodes) * double(r.steps) / r.seconds);
        md << line;
    }
    for (double target : o.targets) {
        md << "\nTime to reach Err " << target
           << " (log-log interpolation between the two runs around it; at most: the coarsest run already reaches "
              "it), wall and time loop:\n\n";
        for (const Case& c : cases)
            md << "- " << c.label << ": wall " << time_to_reach(rows, c.label, target, &Row::seconds) << ", loop "
               << time_to_reach(rows, c.label, target, &Row::loop_seconds) << "\n";
    }
    print_and_append(md.str(), o.out);
    return kOk;
}
}  // namespace

std::function<int()> add_bench_accuracy_command(CLI::App& app) {
    auto o = std::make_shared<AccuracyOptions>();
    CLI::App* c = app.add_subcommand(
        "bench-accuracy", "Error against the closed form and time of VFEM, OVFEM and SEM on the Stokes problem");
    c->add_option("--methods", o->methods, "vfem ovfem tcovfem sem2 sem3 sem4 (default all but tcovfem)");
    c->add_option("--divisions", o->divisions,
                  "Spacings 8 mm / k for these k (default: k = 2, 3, ... (1, 2, ... for sem) until --budget)");
    c->add_option("--spacings", o->spacings_mm,
                  "Explicit spacings in mm instead of --divisions. The receivers must be nodes: 8 mm / k for every "
                  "method, 16 mm / k for sem2 and sem4 (their element midpoints are GLL nodes); a value within 0.1 % "
                  "of 16 mm / k is read as it (5.333 for 16 / 3)");
    c->add_option("--dt", o->dt_ns,
                  "One time step (ns) for every run, so that refining shows the spatial error alone (default 0: 0.9 "
                  "of each run's stable limit)");
    c->add_option("--budget", o->budget, "Stop refining a method after a run longer than this (s, default 60)");
    c->add_option("--target", o->targets, "The errors whose time to reach is reported (default 1e-4)");
    c->add_option("--backend", o->backend, "cpu | cuda | auto (default cpu)");
    c->add_option("--precision", o->precision, "fp64 | fp32 (default fp64)");
    c->add_option("--scale", o->scale, "Shrink the problem by this factor, lengths and times (default 1)");
    c->add_option("--out,-o", o->out, "Append the markdown table to this file");
    c->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
    c->add_flag("--warm-up", o->warm_up,
                "Run each method's first spacing once, unrecorded, before its rows, so that no recorded run carries "
                "the process's first launches of the method's kernels");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli bench-accuracy", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
