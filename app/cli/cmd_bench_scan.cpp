// `voxwave-cli bench-scan`: a linear scan of a phased array over a steel block, timed shot by shot,
// to measure what a shot costs besides its time loop (placing the probe, restarting the stepper,
// reducing the signals) against the loop itself, and prints a markdown section for
// bench/results/probes.md (docs/architecture.md#probes-and-scans; issue 32's target: at most 5 %).
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
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "wave/probe_scan.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {
namespace {

struct BenchScanOptions {
    double elements = 5e6;
    int shots = 20;
    long long steps = 0;
    std::string backend = "auto", method = "ovfem", precision = "fp64", out, command_line;
};

// The block, 64 x 32 x 40 mm of steel, at the spacing that gives about `elements` elements.
constexpr double kSizeX = 64e-3, kSizeY = 32e-3, kSizeZ = 40e-3, kVp = 5900, kFrequency = 2.25e6;
constexpr double kStep = 1e-3;  // between shots, along x

// A 16-element 0.6 mm array (2.25 MHz, 3-cycle tone burst) on the top face, scanned along x in
// `shots` steps of 1 mm from x = 16 mm; by default the shots last the back wall's echo.
Scene bench_scene(const BenchScanOptions& o) {
    const double ds = std::cbrt(kSizeX * kSizeY * kSizeZ / o.elements);
    Scene s;
    s.grid.spacing = ds;
    s.grid.size = {std::round(kSizeX / ds) * ds, std::round(kSizeY / ds) * ds, std::round(kSizeZ / ds) * ds};
    s.materials = {{"steel", 7850, kVp, 3200, "#4a6fa5", ""}};
    s.background = "steel";
    s.run.method = parse_method(o.method, "--method");
    s.run.precision = parse_precision(o.precision, "--precision");
    s.run.backend = parse_backend(o.backend, "--backend");
    ProbeSpec p;
    p.name = "PA";
    p.type = "array";
    p.center = {16e-3, s.grid.size[1] / 2, s.grid.size[2]};
    p.normal = {0, 0, -1};
    p.elements = 16;
    p.pitch = 0.6e-3;
    p.element_width = 0.5e-3;
    p.elevation = 6e-3;
    p.amplitude = 1e6;
    p.wavelet.type = WaveletType::ToneBurst;
    p.wavelet.frequency = kFrequency;
    p.wavelet.cycles = 3;
    s.probes = {p};
    s.scan = ScanSpec{"PA", "linear", {kStep, 0, 0}, o.shots, {0, 0, 0}, 1, false, 0, 0};
    if (o.steps > 0)
        s.run.steps = o.steps;
    else
        s.run.duration = 2 * s.grid.size[2] / kVp + 3 / kFrequency;
    validate_scene(s, "bench-scan");
    return s;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int run(const BenchScanOptions& o) {
    if (!(o.elements >= 1e3 && o.elements <= 2e9)) throw InputError("", "--elements", "must be 1e3 .. 2e9");
    if (o.shots < 2 || o.shots > 40)
        throw InputError("", "--shots", "must be 2 .. 40 (the scan moves 1 mm a shot over a 64 mm block)");
    if (o.steps < 0) throw InputError("", "--steps", "must be >= 0 (0: the back wall's echo)");
    const Scene scene = bench_scene(o);
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    std::vector<ScanShotTiming> timing;
    std::string note;
    const Result r =
        run_probe_scan(scene, rasterise(scene), "bench-scan", terminal_progress("scanning", false), &note, {}, &timing);
    finish_progress();
    const double total = std::chrono::duration<double>(clock::now() - t0).count();
    double shots_seconds = 0;
    for (const ScanShotTiming& t : timing) shots_seconds += t.seconds;
    // Model: rasterising, masses and boundary tables, the shot list's checks: once a scan.
    const double model = total - shots_seconds;
    const double first_overhead = timing.front().seconds - timing.front().loop_seconds;
    std::vector<double> loops, overheads;
    for (std::size_t i = 0; i < timing.size(); ++i) {
        loops.push_back(timing[i].loop_seconds);
        if (i > 0) overheads.push_back(timing[i].seconds - timing[i].loop_seconds);
    }
    const double loop = median(loops), overhead = median(overheads);
    const double worst = *std::max_element(overheads.begin(), overheads.end());

    std::string why;
    const auto devices = cuda_devices(&why);
    std::ostringstream md;
    md.precision(4);
    md << "## Scan per-shot overhead, " << utc_timestamp() << "\n\n";
    md << "- machine: " << cpu_model() << ", " << omp_get_max_threads() << " OpenMP threads (host " << host_name()
       << ")";
    if (r.backend == "cuda" && !devices.empty()) md << "; GPU " << devices.front().name;
    md << "\n- command: `" << o.command_line << "`\n";
    md << "- " << note << "\n";
    md << "- model: steel block " << scene.grid.size[0] * 1e3 << " x " << scene.grid.size[1] * 1e3 << " x "
       << scene.grid.size[2] * 1e3 << " mm at " << r.spacing * 1e3 << " mm; a 16-element 0.6 mm array, 2.25 MHz, "
       << o.shots << " shots 1 mm apart, " << r.steps << " steps a shot\n";
    md << "- overhead: a shot's wall time less its time loop (placing the probe, restarting the stepper, the "
          "probes' reduction); shot 1 builds the stepper, the later shots reuse it (median and worst of shots 2.."
       << o.shots << "); model: rasterising, masses, boundary and shot checks, once a scan\n\n";
    md << "| backend | method | elements | steps | model (s) | shot 1 overhead (s) | loop a shot (s) | overhead a "
          "shot (ms, median / worst) | overhead / loop |\n";
    md << "|---|---|---|---|---|---|---|---|---|\n";
    const std::size_t ne = std::size_t(std::lround(scene.grid.size[0] / r.spacing)) *
                           std::size_t(std::lround(scene.grid.size[1] / r.spacing)) *
                           std::size_t(std::lround(scene.grid.size[2] / r.spacing));
    char row[512];
    std::snprintf(row, sizeof row, "| %s | %s %s | %.3g M | %lld | %.2f | %.3f | %.3f | %.2f / %.2f | %.2f %% |\n",
                  r.backend.c_str(), r.method.c_str(), r.precision.c_str(), double(ne) / 1e6,
                  static_cast<long long>(r.steps), model, first_overhead, loop, overhead * 1e3, worst * 1e3,
                  100 * overhead / loop);
    md << row;
    print_and_append(md.str(), o.out);
    return kOk;
}

}  // namespace

std::function<int()> add_bench_scan_command(CLI::App& app) {
    auto o = std::make_shared<BenchScanOptions>();
    CLI::App* c = app.add_subcommand(
        "bench-scan", "Time a linear array scan shot by shot: per-shot overhead against one shot's time loop");
    c->add_option("--elements", o->elements, "Elements of the steel block, about (default 5e6)");
    c->add_option("--shots", o->shots, "Shots, 1 mm apart (default 20)");
    c->add_option("--steps", o->steps, "Steps a shot (default 0: until the back wall's echo)");
    c->add_option("--backend", o->backend, "auto | cpu | cuda");
    c->add_option("--method", o->method, "vfem | ovfem | tcovfem (default ovfem)");
    c->add_option("--precision", o->precision, "fp64 | fp32 (default fp64)");
    c->add_option("--out,-o", o->out, "Append the markdown report to this file");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli bench-scan", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
