// `voxwave-cli bench-boundary`: what an absorbing layer sends back, measured the standard way
// (issue 31): the same run in a box with six absorbing faces and in a box so large that its own
// faces return nothing inside the window; same method, grid and time step, so every difference at
// the receivers is what the layer reflected. Per receiver 20 log10(||u_box - u_ref|| / ||u_ref||)
// over the window, all components (receiver_reflection_db, wave/trace_error.hpp). With --overhead instead: the step
// time of a 10-cell PML on five faces of the paper model against free faces and a sponge of the same thickness
// (`voxwave-cli bench --pml-cells`, `--sponge-cells`).
// Benchmarks are never tests: nothing here asserts a number.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/backend.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "wave/trace_error.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

namespace voxwave::cli {
namespace {

struct Options {
    std::string backend = "cpu", precision = "fp64", out;
    std::vector<std::string> methods{"ovfem"}, types{"pml", "sponge"};
    std::vector<int> cells{5, 10, 20};
    // PML keys to compare (each list empty: the scene's default); the PML rows run every combination.
    std::vector<double> reflection, kappa_max, alpha_max;
    int inner = 30;       // elements from the source to the layer's inner edge
    int reference = 160;  // elements along each edge of the reference box
    double spacing = 0.002, dt = 0.25e-6, window = 70e-6;
    bool overhead = false, quiet = false;
    long long overhead_steps = 0;  // 0: 1000 on CUDA, 20 on the CPU
    std::string command_line;
};

// The issue's receivers, offsets from the source in elements at 2 mm (its millimetres halved),
// so that every box puts them on the same nodes.
struct Offset {
    const char* name;
    int x, y, z;
};
constexpr Offset kReceivers[] = {{"normal", 25, 0, 0},   {"oblique", 22, 0, 13}, {"oblique45", 18, 0, 18},
                                 {"grazing", 25, 0, 22}, {"edge", 24, 24, 0},    {"corner", 22, 22, 22},
                                 {"centre", 0, 0, 0},    {"inner", 10, -10, 5}};
constexpr int kIssueInner = 30;

// An offset of the issue's setup moved with a smaller --inner: scaled by inner / 30 and rounded
// to whole elements (the CI tests' scaled setup, tests/engine/test_pml.cpp, is --inner 8).
int scaled(int offset, int inner) { return int(std::lround(double(offset) * inner / kIssueInner)); }

// A cube of 2 half elements centred on the source node at the origin: concrete, the point force
// along (1,1,1)/sqrt(3), Ricker 100 kHz delayed 15 us, the receivers, free faces.
Scene centred_box(const Options& o, Method method, Precision precision, Backend backend, int half) {
    Scene s;
    const double ds = o.spacing;
    s.grid.size = {2 * half * ds, 2 * half * ds, 2 * half * ds};
    s.grid.spacing = ds;
    s.grid.origin = {-half * ds, -half * ds, -half * ds};
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", "issue 31's setup"}};
    s.background = "concrete";
    s.run.method = method;
    s.run.precision = precision;
    s.run.backend = backend;
    s.run.dt = o.dt;
    s.run.steps = std::int64_t(std::llround(o.window / o.dt));
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 100e3;
    w.delay = 15e-6;
    s.sources.push_back({"S", {0, 0, 0}, {1, 1, 1}, 1.0, w});
    for (const Offset& r : kReceivers)
        s.receivers.push_back(
            {r.name, {scaled(r.x, o.inner) * ds, scaled(r.y, o.inner) * ds, scaled(r.z, o.inner) * ds}});
    return s;
}

// One combination of the PML keys given (absent: the default).
struct PmlKeys {
    std::optional<double> reflection, kappa_max, alpha_max;
    std::string label() const {
        std::string l;
        char v[64];
        for (const auto& [name, value] :
             {std::pair{"R", reflection}, {"kappa_max", kappa_max}, {"alpha_max", alpha_max}})
            if (value) {
                std::snprintf(v, sizeof v, "%s%s %g", l.empty() ? "" : ", ", name, *value);
                l += v;
            }
        return l.empty() ? l : " (" + l + ")";
    }
};

std::vector<PmlKeys> pml_keys(const Options& o) {
    auto or_default = [](const std::vector<double>& v) {
        std::vector<std::optional<double>> out(v.begin(), v.end());
        if (out.empty()) out.push_back(std::nullopt);
        return out;
    };
    std::vector<PmlKeys> keys;
    for (const auto& r : or_default(o.reflection))
        for (const auto& k : or_default(o.kappa_max))
            for (const auto& a : or_default(o.alpha_max)) keys.push_back({r, k, a});
    return keys;
}

// The box with a layer of `cells` elements of `type` on all six faces, its inner edge o.inner
// elements from the source (a PML with the keys `keys`).
Scene layer_box(const Options& o, Method method, Precision precision, Backend backend, int cells,
                const std::string& type, const PmlKeys& keys = {}) {
    Scene s = centred_box(o, method, precision, backend, o.inner + cells);
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-", "z+"};
    s.boundary.absorbing.thickness = cells * o.spacing;
    s.boundary.absorbing.type = type;
    if (type == "pml") {
        s.boundary.absorbing.reflection = keys.reflection;
        s.boundary.absorbing.kappa_max = keys.kappa_max;
        s.boundary.absorbing.alpha_max = keys.alpha_max;
    }
    return s;
}

// The layers of one method's rows: (type, keys) per thickness.
std::vector<std::pair<std::string, PmlKeys>> layer_kinds(const Options& o) {
    std::vector<std::pair<std::string, PmlKeys>> kinds;
    for (const std::string& t : o.types)
        if (t == "pml")
            for (const PmlKeys& k : pml_keys(o)) kinds.push_back({t, k});
        else
            kinds.push_back({t, PmlKeys{}});
    return kinds;
}

std::string machine(Backend backend) {
    if (backend == Backend::Cuda) {
        const auto d = cuda_devices();
        if (!d.empty()) return d.front().name;
    }
    return cpu_model() + " (host " + host_name() + ")";
}

// One run with a line on stderr before and after it, and the terminal bar while it runs.
Result timed_run(const Scene& s, const std::string& what, int index, int total, bool quiet) {
    const WaveProblem p = build_wave_problem(s, what);
    if (!quiet)
        std::fprintf(stderr, "[%d/%d] %s: %zu elements, %lld steps...\n", index, total, what.c_str(),
                     p.grid.element_count(), static_cast<long long>(p.steps));
    const auto t0 = std::chrono::steady_clock::now();
    Result r = run_wave(p, terminal_progress(what, quiet));
    finish_progress();
    if (!quiet)
        std::fprintf(stderr, "[%d/%d] %s: %.1f s\n", index, total, what.c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return r;
}

int run_reflection(const Options& o, Backend backend, const std::string& note) {
    const Precision precision = parse_precision(o.precision, "--precision");
    std::vector<Method> methods;
    for (const std::string& m : o.methods) {
        methods.push_back(parse_method(m, "--methods"));
        if (!precision_allowed(methods.back(), precision))
            throw InputError("", "--precision", m + " has no " + o.precision + " engine");
    }
    for (const std::string& t : o.types)
        if (t != "pml" && t != "sponge")
            throw InputError("", "--types", "unknown type '" + t + "' (expected pml or sponge)");
    // Every scene validated before the first run: a layer or receiver that does not fit is bad
    // input, not a failure an hour in.
    const std::vector<std::pair<std::string, PmlKeys>> kinds = layer_kinds(o);
    for (Method m : methods) {
        validate_scene(centred_box(o, m, precision, backend, o.reference / 2), "--reference");
        for (int c : o.cells)
            for (const auto& [t, k] : kinds) validate_scene(layer_box(o, m, precision, backend, c, t, k), "--cells");
    }
    std::fprintf(stderr, "%s\n", note.c_str());
    const int total = int(methods.size() * (1 + o.cells.size() * kinds.size()));
    int index = 0;
    std::ostringstream md;
    md << "## Reflection of absorbing layers, " << utc_timestamp() << "\n\n";
    md << "- machine: " << machine(backend) << ", backend " << to_string(backend) << "\n";
    md << "- command: `" << o.command_line << "`\n";
    md << "- setup: concrete (2400 kg/m3, vp 4000, vs 2450 m/s), ds = " << o.spacing * 1e3 << " mm, " << o.precision
       << ", dt " << o.dt * 1e6 << " us, " << o.window * 1e6
       << " us window; point force along (1,1,1)/sqrt(3) at the centre, Ricker 100 kHz delayed 15 us; the layer's "
          "inner edge "
       << o.inner << " elements from the source on all six faces; reference box " << o.reference << "^3 elements\n";
    md << "- per receiver: 20 log10(||u_box - u_ref|| / ||u_ref||) over the window, all components (dB); receiver "
          "offsets in elements:";
    for (const Offset& r : kReceivers)
        md << " " << r.name << " (" << scaled(r.x, o.inner) << "," << scaled(r.y, o.inner) << ","
           << scaled(r.z, o.inner) << ")";
    md << "\n\n| method | layer |";
    for (const Offset& r : kReceivers) md << " " << r.name << " |";
    md << " worst (dB) | worst is | box run (s) |\n|---|---|";
    for (std::size_t r = 0; r < std::size(kReceivers); ++r) md << "---|";
    md << "---|---|---|\n";
    std::string rows;
    for (Method m : methods) {
        const std::string method = to_string(m);
        const Result ref =
            timed_run(centred_box(o, m, precision, backend, o.reference / 2),
                      method + " reference " + std::to_string(o.reference) + "^3", ++index, total, o.quiet);
        for (int c : o.cells)
            for (const auto& [t, k] : kinds) {
                const std::string layer = t + " " + std::to_string(c) + " cells" + k.label();
                const Result box = timed_run(layer_box(o, m, precision, backend, c, t, k), method + " " + layer,
                                             ++index, total, o.quiet);
                const std::vector<double> db = receiver_reflection_db(box, ref);
                const std::size_t worst = std::size_t(std::max_element(db.begin(), db.end()) - db.begin());
                char cell[64];
                std::string row = "| " + method + " " + o.precision + " | " + layer + " |";
                for (double v : db) {
                    std::snprintf(cell, sizeof cell, " %.1f |", v);
                    row += cell;
                }
                std::snprintf(cell, sizeof cell, " %.1f | %s | %.0f |\n", db[worst], kReceivers[worst].name,
                              box.wall_seconds);
                row += cell;
                rows += row;
                // Each row as soon as it is known: a long run shows its results as it goes.
                if (!o.quiet) std::fprintf(stderr, "%s", row.c_str());
            }
    }
    md << rows;
    print_and_append(md.str(), o.out);
    return kOk;
}

int run_overhead(const Options& o, Backend backend, const std::string& note) {
    std::fprintf(stderr, "%s\n", note.c_str());
    const long long steps = o.overhead_steps > 0 ? o.overhead_steps : (backend == Backend::Cuda ? 1000 : 20);
    const std::vector<std::string> methods = {"ovfem", "tcovfem"}, precisions = {o.precision};
    const std::string b = to_string(backend);
    const std::vector<BenchStepTime> free_faces =
        bench_paper_model_step_times(b, methods, precisions, o.spacing, steps, 0, o.out);
    const std::vector<BenchStepTime> sponge =
        bench_paper_model_step_times(b, methods, precisions, o.spacing, steps, 0, o.out, 10);
    const std::vector<BenchStepTime> pml =
        bench_paper_model_step_times(b, methods, precisions, o.spacing, steps, 10, o.out);
    const bool cpu = backend == Backend::Cpu;
    std::ostringstream md;
    md << "## Step time of a 10-cell PML on five faces of the paper model (top free), " << utc_timestamp() << "\n\n";
    md << "- command: `" << o.command_line << "` (the three `voxwave-cli bench` tables above: free faces, "
       << "`--sponge-cells 10`, `--pml-cells 10`)\n";
    if (cpu)
        md << "- CPU columns: the process's CPU time per step (user + system, all threads), which depends on the "
              "machine's other load much less than the wall time\n";
    md << "\n| case | step, free faces (us) | step, 10-cell sponge (us) | step, 10-cell PML (us) | PML overhead | "
          "PML / sponge |";
    if (cpu) md << " CPU free (us) | CPU sponge (us) | CPU PML (us) | CPU PML overhead | CPU PML / sponge |";
    md << "\n|---|---|---|---|---|---|" << (cpu ? "---|---|---|---|---|" : "") << "\n";
    for (const BenchStepTime& f : free_faces)
        for (const BenchStepTime& p : pml)
            for (const BenchStepTime& s : sponge)
                if (p.label == f.label && s.label == f.label) {
                    char line[512];
                    std::snprintf(line, sizeof line, "| %s | %.1f | %.1f | %.1f | %+.0f %% | %.2f |", f.label.c_str(),
                                  f.step_s * 1e6, s.step_s * 1e6, p.step_s * 1e6, 100 * (p.step_s / f.step_s - 1),
                                  p.step_s / s.step_s);
                    md << line;
                    if (cpu) {
                        std::snprintf(line, sizeof line, " %.1f | %.1f | %.1f | %+.0f %% | %.2f |", f.cpu_step_s * 1e6,
                                      s.cpu_step_s * 1e6, p.cpu_step_s * 1e6, 100 * (p.cpu_step_s / f.cpu_step_s - 1),
                                      p.cpu_step_s / s.cpu_step_s);
                        md << line;
                    }
                    md << "\n";
                }
    print_and_append(md.str(), o.out);
    return kOk;
}

int run(const Options& o) {
    std::string note;
    const Backend backend = resolve_backend(parse_backend(o.backend, "--backend"), note);
    if (!(o.spacing > 0)) throw InputError("", "--spacing", "must be positive");
    if (!(o.dt > 0)) throw InputError("", "--dt", "must be positive");
    if (!(o.window >= o.dt)) throw InputError("", "--window", "must be at least one step (--dt)");
    if (o.inner < 1) throw InputError("", "--inner", "must be at least 1 element");
    for (int c : o.cells)
        if (c < 1) throw InputError("", "--cells", "must be positive");
    if (o.reference < 2 * (o.inner + 1))
        throw InputError("", "--reference", "must be larger than the boxes' interior (2 (--inner + 1) elements)");
    if (o.overhead_steps < 0) throw InputError("", "--overhead-steps", "must be 0 (automatic) or positive");
    if (!o.out.empty()) check_output_path(o.out);
    if (o.overhead) return run_overhead(o, backend, note);
    return run_reflection(o, backend, note);
}

}  // namespace

std::function<int()> add_bench_boundary_command(CLI::App& app) {
    auto o = std::make_shared<Options>();
    CLI::App* c = app.add_subcommand(
        "bench-boundary",
        "Reflection of absorbing layers (PML, sponge) in dB per receiver against a large reference box (issue 31's "
        "setup), or with --overhead the step time of a 10-cell PML on five faces of the paper model");
    c->add_option("--backend", o->backend, "cpu | cuda | auto (default cpu)");
    c->add_option("--methods", o->methods, "Methods (default ovfem; vfem too)");
    c->add_option("--precision", o->precision, "fp64 | fp32 (default fp64)");
    c->add_option("--cells", o->cells, "Layer thicknesses in elements (default 5 10 20)");
    c->add_option("--types", o->types, "Layer types (default pml sponge)");
    c->add_option("--reflection", o->reflection, "PML target reflections R to compare (default: the scene's, 1e-3)");
    c->add_option("--kappa-max", o->kappa_max, "PML kappa_max values to compare (default: the scene's)");
    c->add_option("--alpha-max", o->alpha_max, "PML alpha_max values (1/s) to compare (default: the scene's, 2 pi f)");
    c->add_option("--inner", o->inner,
                  "Elements from the source to the layer's inner edge (default 30; receivers scale with it)");
    c->add_option("--reference", o->reference, "Elements along each edge of the reference box (default 160)");
    c->add_option("--spacing", o->spacing, "Element size in metres (default 0.002)");
    c->add_option("--dt", o->dt, "Time step in seconds (default 0.25e-6)");
    c->add_option("--window", o->window, "Window in seconds (default 70e-6)");
    c->add_flag("--overhead", o->overhead,
                "Measure the step time of a 10-cell PML on five faces of the paper model (OVFEM and TCOVFEM) "
                "against free faces and a 10-cell sponge instead");
    c->add_option("--overhead-steps", o->overhead_steps, "Timed steps per --overhead case (default 1000 CUDA, 20 CPU)");
    c->add_option("--out,-o", o->out, "Append the markdown table to this file");
    c->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli bench-boundary", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
