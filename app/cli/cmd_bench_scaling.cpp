// `mpirun -np K voxwave-cli bench-scaling`: strong and weak scaling of the distributed CUDA engine
// against the single-GPU fused step. Every rank times the same fused steps; rank 0 then times the
// single-GPU fused step on the whole model (strong) or on one rank's share (weak) and prints one
// markdown row: the slowest rank's time per step, speed-up and efficiency over the single GPU, the
// time of the same steps without the exchange, the kernels' and the exchange's medians, the halo
// bytes, the link's cost alone, whether the exchange overlapped the interior and the exchange time
// the step still shows (step - step without exchange); it appends the row to --out.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "distributed/distributed_run.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {

namespace {

struct Options {
    std::string scene = std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json";
    std::string method = "ovfem", precision = "fp64", halo = "auto", process_grid = "auto", scaling = "strong", out,
                label;
    double spacing = 0.002;
    int stages = kTcovfemMaxStages, steps = 2000, phase_steps = 200;
    bool link_sweep = false, baseline = true, overlap = true;
};

// A slab's ghost planes of `plane_nodes` nodes (one node row deep along y) for the link sweep:
// the exchange alone at any plane size, with this job's ranks as slabs.
HaloPlan link_plan(const MpiWorld& world, std::size_t plane_nodes) {
    Subdomain d;
    d.ranks = {1, 1, world.size()};
    d.coord = {0, 0, world.rank()};
    d.e0 = {0, 0, 1};
    d.e1 = {int(plane_nodes) - 1, 0, 2};
    return halo_plan(d);
}

// The exchange alone at growing plane sizes, NCCL and host staging: the link figures of the
// scaling projection (latency at small planes, bandwidth at large ones).
void link_sweep(const MpiWorld& world, const SubdomainSetup& setup, const std::string& out) {
    std::ostringstream md;
    md << "| plane nodes | bytes per plane (3 x FP64) | NCCL (ms) | NCCL GB/s per direction | host staged (ms) | host "
          "GB/s per direction |\n"
          "|---|---|---|---|---|---|\n";
    for (std::size_t nodes : {std::size_t(10595), std::size_t(100000), std::size_t(1000000), std::size_t(4000000)}) {
        const double bytes = 3.0 * 8.0 * double(nodes);
        MpiHaloExchange host(world, link_plan(world, nodes));
        std::unique_ptr<HaloExchange> nccl;
        if (nccl_built()) nccl = make_nccl_halo_exchange(world, link_plan(world, nodes), setup.device);
        world.barrier();
        const double tn = nccl ? world.max(measure_device_exchange_seconds(*nccl, true, 20)) : 0;
        world.barrier();
        const double th = world.max(measure_device_exchange_seconds(host, true, 20));
        // A rank of the middle exchanges both planes at once; a rank of 2 exchanges its one plane
        // both ways, so the per-direction rate is one plane's bytes over the time.
        md << "| " << nodes << " | " << format_number(bytes / 1e6) << " MB | " << (nccl ? format_number(tn * 1e3) : "-")
           << " | " << (nccl ? format_number(bytes / tn / 1e9) : "-") << " | " << format_number(th * 1e3) << " | "
           << format_number(bytes / th / 1e9) << " |\n";
    }
    if (world.rank() == 0) print_and_append(md.str(), out);
}

// The scene stretched along z by `f`: the model grows, the sources and receivers stay on its top
// face (weak scaling: the same problem per GPU).
void stretch_z(Scene& s, double f) {
    if (f == 1) return;
    const double old_top = s.grid.origin[2] + s.grid.size[2];
    s.grid.size[2] *= f;
    const double lift = s.grid.size[2] * (1 - 1 / f);
    for (auto& src : s.sources)
        if (src.position[2] >= old_top - 1e-12) src.position[2] += lift;
    for (auto& r : s.receivers)
        if (r.position[2] >= old_top - 1e-12) r.position[2] += lift;
}

WaveProblem bench_problem(const Options& o, Method method, Precision precision, double z_scale) {
    const OptionFields fields = {{"grid.spacing", "--spacing"},
                                 {"run.method", "--method"},
                                 {"run.precision", "--precision"},
                                 {"run.stages", "--stages"}};
    try {
        const Scene s = read_scene_json(o.scene, [&](Scene& sc) {
            sc.grid.spacing = o.spacing;
            stretch_z(sc, z_scale);
            sc.run.method = method;
            sc.run.precision = precision;
            sc.run.stages = o.stages;
            sc.run.backend = Backend::Cuda;
            sc.run.dt = 0;
            sc.run.steps = o.steps + 100;
        });
        return build_wave_problem(s, o.scene);
    } catch (const InputError& e) {
        throw blame_option(e, fields);
    }
}

// Seconds per step of `steps` steps after the same 50 warm-up steps as the distributed timing
// (the kernels skip quiet regions, so the timed window must be the same steps).
double seconds_per_step(CudaTimeStepper& stepper, int steps) {
    stepper.advance(0, 50, nullptr);
    return stepper.time_steps(50, steps).seconds / steps;
}

// The row's date, so that a results file says when each row was measured.
std::string today_utc() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

int bench(const Options& o) {
    MpiWorld world;
    const bool root = world.rank() == 0;
    const Method method = parse_method(o.method, "--method");
    const Precision precision = parse_precision(o.precision, "--precision");
    if (o.scaling != "strong" && o.scaling != "weak")
        throw InputError("", "--scaling", "'" + o.scaling + "' is not strong or weak");
    const bool weak = o.scaling == "weak";
    if (root && !o.out.empty()) check_output_path(o.out);
    // Weak scaling: the model grows along z with the ranks, the same share per GPU.
    const WaveProblem whole = bench_problem(o, method, precision, weak ? double(world.size()) : 1.0);
    DistributedOptions options;
    options.halo = parse_halo_transport(o.halo, "--halo");
    options.grid = parse_process_grid(o.process_grid, "--process-grid");
    const bool distributed = world.size() > 1;
    double t_step = 0, t_bare = 0, link_s = 0, total_bytes = 0, t_one = 0;
    CudaTimeStepper::HaloPhaseSeconds ph{};
    std::string transport = "-", grid = "1x1x1";
    bool overlapped = false;
    {
        SubdomainSetup setup = prepare_subdomain(whole, world, options);
        if (setup.backend != Backend::Cuda)
            throw InputError("", "backend", "bench-scaling needs a CUDA device per rank");
        CudaEngineOptions eo;
        eo.device = setup.device;
        eo.exchange = distributed ? setup.exchange.get() : nullptr;
        eo.overlap_exchange = o.overlap;
        CudaTimeStepper stepper(setup.mine.problem, eo);
        // Every rank's own answer: a rank at the model's end has one seam and may overlap where a
        // thin middle one does not. The row says "on" when all did.
        overlapped = distributed && world.all(stepper.overlapped_exchange());
        if (!stepper.fused_step()) throw InputError("", "VOXWAVE_CUDA_STEP", "bench-scaling times the fused step");
        const bool fp64 = whole.precision == Precision::Fp64;
        stepper.advance(0, 50, nullptr);
        const std::vector<double> u0 = stepper.displacement(), up0 = stepper.previous_displacement();
        auto from_start = [&] {
            stepper.set_state(up0, u0);
            world.barrier();
        };
        from_start();
        t_step = world.max(stepper.time_steps(50, o.steps).seconds) / o.steps;
        t_bare = t_step;
        if (distributed) {
            transport = to_string(setup.transport);
            ProcessGrid g;
            for (std::size_t a = 0; a < 3; ++a) g.ranks[std::size_t(setup.turn.from[a])] = setup.grid.ranks[a];
            grid = to_string(g);
            stepper.set_exchange_enabled(false);
            from_start();
            t_bare = world.max(stepper.time_steps(50, o.steps).seconds) / o.steps;
            stepper.set_exchange_enabled(true);
            from_start();
            ph = stepper.median_halo_phase_seconds(50, std::min(o.phase_steps, o.steps));
            // Every rank's own phases (stderr), then the slowest rank's (the step waits for it).
            const std::vector<double> all = world.gather(std::vector<double>{ph.kernels, ph.exchange, ph.step});
            if (root)
                for (std::size_t r = 0; r + 2 < all.size(); r += 3)
                    std::fprintf(stderr, "rank %zu phases (ms): kernels %.4g, exchange %.4g, step %.4g\n", r / 3,
                                 all[r] * 1e3, all[r + 1] * 1e3, all[r + 2] * 1e3);
            ph.kernels = world.max(ph.kernels);
            ph.exchange = world.max(ph.exchange);
            ph.step = world.max(ph.step);
            total_bytes = world.sum(double(setup.exchange->bytes_per_step(fp64)));
            world.barrier();
            link_s = world.max(measure_device_exchange_seconds(*setup.exchange, fp64, 50));
            if (o.link_sweep) link_sweep(world, setup, o.out);
        }
        if (root)
            for (const Subdomain& d : setup.subdomains)
                std::printf("rank %d: elements x %d..%d, y %d..%d, z %d..%d (turned axes)\n", d.index, d.e0[0], d.e1[0],
                            d.e0[1], d.e1[1], d.e0[2], d.e1[2]);
    }  // the distributed engine's memory goes before the baseline's
    // The baseline: the single-GPU fused step on rank 0's GPU, on the whole model (strong) or on
    // one rank's share of it (weak: the unstretched model).
    if (distributed && o.baseline) {
        if (root) {
            const WaveProblem one = weak ? bench_problem(o, method, precision, 1.0) : whole;
            CudaEngineOptions eo;
            eo.device = device_for_local_rank(world.local_rank(), int(cuda_devices().size()));
            CudaTimeStepper single(one, eo);
            t_one = seconds_per_step(single, o.steps);
        }
        world.barrier();
    } else if (!distributed) {
        t_one = t_step;
    }
    if (!root) return kOk;
    const double elements = double(whole.grid.element_count());
    const int k = world.size();
    auto ms = [](double sec) { return format_number(sec * 1e3); };
    auto opt = [&](bool have, const std::string& v) { return have ? v : std::string("-"); };
    // Strong: time on one GPU over K times the time on K; weak: one GPU's time over K's.
    const double speedup = t_one > 0 ? (weak ? k * t_one / t_step : t_one / t_step) : 0;
    const double efficiency = speedup / k;
    std::ostringstream md;
    md << "| " << today_utc() << " | " << (o.label.empty() ? o.scaling : o.label) << " | " << k << " | " << grid
       << " | " << format_number(o.spacing * 1e3) << " mm, " << whole.grid.n[0] << "x" << whole.grid.n[1] << "x"
       << whole.grid.n[2] << " | " << format_number(elements / 1e6) << " M | " << o.method << " " << o.precision
       << " | " << transport << " | " << opt(t_one > 0, ms(t_one)) << " | " << ms(t_step) << " | "
       << opt(t_one > 0, format_number(speedup) + "x") << " | "
       << opt(t_one > 0, format_number(100 * efficiency) + " %") << " | " << ms(t_bare) << " | "
       << opt(distributed, ms(ph.kernels)) << " | " << opt(distributed, ms(ph.exchange)) << " | "
       << opt(distributed, format_number(total_bytes / 1e6) + " MB") << " | " << opt(distributed, ms(link_s)) << " | "
       << format_number(elements / t_step / 1e9) << " | " << (distributed ? (overlapped ? "on" : "off") : "-") << " | "
       << opt(distributed, ms(std::max(0.0, t_step - t_bare))) << " |\n";
    std::printf(
        "| date | run | GPUs | process grid | model | elements | method | halo | 1 GPU fused (ms) | step (ms) | "
        "speed-up | efficiency | step without exchange (ms) | kernels (ms) | exchange (ms) | halo bytes/step (all "
        "ranks) | link: one exchange alone (ms) | G element-steps/s | overlap | exposed exchange (ms) |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    print_and_append(md.str(), o.out);
    return kOk;
}

}  // namespace

std::function<int()> add_bench_scaling_command(CLI::App& app) {
    auto o = std::make_shared<Options>();
    auto* sub = app.add_subcommand(
        "bench-scaling",
        "Time one distributed CUDA run of the fused step (start it with mpirun -np K) against the single-GPU fused "
        "step: time per step, speed-up, efficiency, exchange time, halo bytes; prints a markdown row");
    sub->add_option("--scene", o->scene, "Scene (default: the paper's model)");
    sub->add_option("--spacing", o->spacing, "Voxel size ds in metres (default 0.002)")->check(CLI::PositiveNumber);
    sub->add_option("--scaling", o->scaling,
                    "strong: the same model on K GPUs; weak: the model stretched K times along z (default strong)");
    sub->add_option("--method", o->method, "vfem | ovfem | tcovfem");
    sub->add_option("--precision", o->precision, "fp64 | fp32");
    sub->add_option("--stages", o->stages, "TCOVFEM digits M");
    sub->add_option("--steps", o->steps, "Timed steps")->check(CLI::PositiveNumber);
    sub->add_option("--phase-steps", o->phase_steps, "Steps for the per-phase medians")->check(CLI::PositiveNumber);
    sub->add_option("--halo", o->halo, "auto | nccl | host");
    sub->add_option("--process-grid", o->process_grid,
                    "auto, or ranks along x, y and z of the model as PXxPYxPZ (e.g. 1x2x2)");
    sub->add_flag("!--no-baseline", o->baseline,
                  "Skip the single-GPU fused step on rank 0 (when the whole model does not fit one GPU)");
    sub->add_option("--label", o->label, "Second column of the row (default: the scaling)");
    sub->add_flag("!--no-overlap", o->overlap,
                  "Run the whole step before the exchange instead of overlapping the exchange's z phase with the "
                  "interior (the A/B of the overlap)");
    sub->add_flag("--link-sweep", o->link_sweep, "Also time the exchange alone at plane sizes up to 4 M nodes");
    sub->add_option("--out", o->out, "Append the row to this markdown file");
    return [o] { return bench(*o); };
}

}  // namespace voxwave::cli
