// `voxwave-cli bench-batched`: an FMC-like workload (N shots of one steel block, each a point
// force under one element of a line array on the top face, every element position receiving)
// timed batched (run_batched_shots, the shots stepped together) against N single runs (run_wave
// one shot after another, each with its own setup), with the largest difference of the traces;
// prints a markdown section for bench/results/imaging.md (docs/architecture.md#batched-shots).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "scene/scene_io.hpp"
#include "wave/batched_shots.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {
namespace {

struct BenchBatchedOptions {
    int nx = 160, ny = 160, nz = 160, shots = 32, singles = 0;
    long long steps = 2000;
    std::size_t batch = 0;
    std::string backend = "auto", method = "ovfem", precision = "fp64", out, command_line;
};

Scene bench_scene(const BenchBatchedOptions& o, double ds) {
    Scene s;
    s.grid.size = {o.nx * ds, o.ny * ds, o.nz * ds};
    s.grid.spacing = ds;
    s.materials = {{"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = "steel";
    s.run.method = parse_method(o.method);
    s.run.precision = parse_precision(o.precision);
    s.run.steps = o.steps;
    s.run.backend = parse_backend(o.backend, "--backend");
    // One placeholder source and receiver (the shots replace them); 2 MHz 2-cycle tone burst.
    Wavelet w;
    w.type = WaveletType::ToneBurst;
    w.frequency = 2e6;
    w.cycles = 2;
    w.delay = 0.5e-6;
    s.sources.push_back({"tx", {0.5 * o.nx * ds, 0.5 * o.ny * ds, o.nz * ds}, {0, 0, -1}, 1.0, w});
    s.receivers.push_back({"rx", {0.5 * o.nx * ds, 0.5 * o.ny * ds, o.nz * ds}});
    return s;
}

int run(const BenchBatchedOptions& o) {
    if (o.nx < 2 || o.ny < 2 || o.nz < 2)
        throw InputError("", o.nx < 2 ? "--size" : o.ny < 2 ? "--ny" : "--nz", "at least 2 elements per axis");
    if (o.shots < 1) throw InputError("", "--shots", "at least 1 shot");
    if (o.steps < 1) throw InputError("", "--steps", "at least 1 step");
    if (o.singles < 0) throw InputError("", "--single-runs", "must not be negative");
    const double ds = 0.1e-3;
    Scene scene = bench_scene(o, ds);
    validate_scene(scene, "bench-batched");
    WaveProblem model = build_wave_problem(scene, "bench-batched");
    std::string note;
    const Backend backend = resolve_backend(model.backend, note, "--backend");
    const std::string why = batched_shots_unsupported(model, backend);
    if (!why.empty()) throw InputError("", "--method", why + " is not batched");
    model.backend = backend;
    // Shot k: element k of a line array along x across the middle of the top face (pitch 1 mm,
    // or less where the block is narrower) fires; all elements receive.
    const int top = model.grid.n[2], jm = model.grid.n[1] / 2;
    const int pitch = std::max(1, std::min(10, model.grid.n[0] / (o.shots + 1)));
    const int first = model.grid.n[0] / 2 - pitch * (o.shots - 1) / 2;
    std::vector<ShotSources> shots;
    ShotSources base = shot_sources(model);
    base.receivers.clear();
    for (int e = 0; e < o.shots; ++e) {
        ReceiverPoint r;
        r.name = "element " + std::to_string(e);
        r.node = model.grid.node_index(std::clamp(first + e * pitch, 0, model.grid.n[0]), jm, top);
        base.receivers.push_back(r);
    }
    base.scene_receiver_count = base.receivers.size();
    for (int e = 0; e < o.shots; ++e) {
        ShotSources s = base;
        s.sources.front().node = base.receivers[std::size_t(e)].node;
        shots.push_back(s);
    }
    const int singles = o.singles > 0 ? std::min(o.singles, o.shots) : o.shots;
    using clock = std::chrono::steady_clock;
    BatchedShotOptions batched;
    batched.batch = o.batch;
    std::string batch_note;
    auto t0 = clock::now();
    const std::vector<Result> together = run_batched_shots(model, shots, batched, {}, &batch_note);
    const double batched_s = std::chrono::duration<double>(clock::now() - t0).count();
    BatchedShotOptions one;
    one.batch = 1;
    const std::vector<ShotSources> first_shots(shots.begin(), shots.begin() + singles);
    t0 = clock::now();
    const std::vector<Result> alone = run_batched_shots(model, first_shots, one, {});
    const double single_s = std::chrono::duration<double>(clock::now() - t0).count() * double(o.shots) / singles;
    double worst = 0;
    for (int k = 0; k < singles; ++k) {
        double peak = 0, diff = 0;
        const auto& a = alone[std::size_t(k)].velocity;
        const auto& b = together[std::size_t(k)].velocity;
        for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
            peak = std::max(peak, std::abs(a[i]));
            diff = std::max(diff, std::abs(a[i] - b[i]));
        }
        worst = std::max(worst, peak > 0 ? diff / peak : diff);
    }
    std::string device = cpu_model() + ", " + std::to_string(omp_get_max_threads()) + " threads";
    if (backend == Backend::Cuda) {
        const auto devices = cuda_devices();
        if (!devices.empty()) device = devices.front().name;
    }
    const std::size_t group = o.batch ? o.batch : default_shot_batch(model, backend, shots.size());
    std::ostringstream md;
    md << "\n## Batched shots benchmark, " << utc_timestamp() << "\n\n";
    md << "- machine: " << device << " (host " << host_name() << ")\n";
    md << "- command: `" << o.command_line << "`\n";
    md << "- problem: steel block " << o.nx << " x " << o.ny << " x " << o.nz << " elements at 0.1 mm ("
       << model.grid.element_count() << " elements), " << to_string(model.method) << " " << to_string(model.precision)
       << ", " << o.steps << " steps, " << o.shots << " shots (one element of a line array fires, all " << o.shots
       << " receive); " << batch_note << "\n";
    md << "- single runs: run_wave one shot after another, each with its own setup"
       << (singles < o.shots ? " (" + std::to_string(singles) + " timed, scaled to " + std::to_string(o.shots) + ")"
                             : std::string())
       << "; max rel. diff: largest velocity difference of the timed shots, relative to each shot's peak\n\n";
    md << "| backend | elements | shots | batch | steps | single runs (s) | batched (s) | speed-up | max rel. diff |\n";
    md << "|---|---|---|---|---|---|---|---|---|\n";
    char row[320];
    std::snprintf(row, sizeof row, "| %s | %zu | %d | %zu | %lld | %.2f | %.2f | %.2fx | %.1e |\n", to_string(backend),
                  model.grid.element_count(), o.shots, std::min<std::size_t>(group, shots.size()), o.steps, single_s,
                  batched_s, single_s / batched_s, worst);
    md << row;
    // Per shot-step, against the state a member-step must move (u, u-, u+: 9 values a node).
    const double member_steps = double(o.shots) * double(o.steps);
    const double state_bytes = 9.0 * double(model.node_count()) * (model.precision == Precision::Fp64 ? 8.0 : 4.0);
    char per[320];
    std::snprintf(per, sizeof per,
                  "\n- per shot-step: batched %.1f us, single runs %.1f us; state traffic (u, u-, u+: %.0f B a "
                  "node) %.3g GB/s batched\n",
                  1e6 * batched_s / member_steps, 1e6 * single_s / member_steps,
                  state_bytes / double(model.node_count()), 1e-9 * state_bytes * member_steps / batched_s);
    md << per;
    print_and_append(md.str(), o.out);
    return kOk;
}

}  // namespace

std::function<int()> add_bench_batched_command(CLI::App& app) {
    auto o = std::make_shared<BenchBatchedOptions>();
    CLI::App* c = app.add_subcommand("bench-batched",
                                     "Time N shots of one model stepped together (batched) against N single runs");
    c->add_option("--size", o->nx, "Elements along x (default 160; 160^3 = 4.1 M elements at 0.1 mm)");
    c->add_option("--ny", o->ny, "Elements along y (default 160)");
    c->add_option("--nz", o->nz, "Elements along z (default 160)");
    c->add_option("--shots", o->shots, "Shots (array elements), default 32");
    c->add_option("--steps", o->steps, "Time steps a shot, default 2000");
    c->add_option("--batch", o->batch, "Shots stepped together, 0 (default): as many as memory allows");
    c->add_option("--single-runs", o->singles,
                  "Time only this many single runs and scale to all shots (default 0: all of them)");
    c->add_option("--method", o->method, "vfem | ovfem | tcovfem (CPU only; default ovfem)");
    c->add_option("--precision", o->precision, "fp64 | fp32 (default fp64)");
    c->add_option("--backend", o->backend, "auto | cpu | cuda");
    c->add_option("--out,-o", o->out, "Append the markdown report to this file");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli bench-batched", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
