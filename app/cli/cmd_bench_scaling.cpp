// `mpirun -np K voxwave-cli bench-scaling`: strong and weak scaling of the distributed CUDA engine
// (issue 8). Every rank times the same steps; rank 0 prints one markdown row with the slowest
// rank's time per step, the time of the same steps without the exchange (what communication
// costs when it is not hidden), the per-phase medians of the overlapped step, the halo bytes and
// the link's measured exchange cost, and appends it to --out.
#include <cstdio>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
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
    std::string method = "ovfem", precision = "fp64", halo = "auto", out, label;
    double spacing = 0.002, z_scale = 1;
    int stages = kTcovfemMaxStages, steps = 2000, phase_steps = 200;
    bool link_sweep = false;
};

// The exchange alone at growing plane sizes, NCCL and host staging: the link figures of the
// scaling projection (latency at small planes, bandwidth at large ones).
void link_sweep(const MpiWorld& world, SlabSetup& setup, const std::string& out) {
    MpiForceExchange host(world, setup.slab.slab);
    std::unique_ptr<ForceExchange> nccl;
    if (nccl_built())
        nccl = setup.transport == HaloTransport::Nccl ? nullptr
                                                      : make_nccl_force_exchange(world, setup.slab.slab, setup.device);
    ForceExchange* via_nccl = setup.transport == HaloTransport::Nccl ? setup.exchange.get() : nccl.get();
    std::ostringstream md;
    md << "| plane nodes | bytes per plane (3 x FP64) | NCCL (ms) | NCCL GB/s per direction | host staged (ms) | host "
          "GB/s per direction |\n"
          "|---|---|---|---|---|---|\n";
    for (std::size_t nodes : {std::size_t(10595), std::size_t(100000), std::size_t(1000000), std::size_t(4000000)}) {
        const double bytes = 3.0 * 8.0 * double(nodes);
        world.barrier();
        const double tn = via_nccl ? world.max(measure_device_exchange_seconds(*via_nccl, nodes, true, 20)) : 0;
        world.barrier();
        const double th = world.max(measure_device_exchange_seconds(host, nodes, true, 20));
        // A rank of the middle exchanges both planes at once; a rank of 2 exchanges its one plane
        // both ways, so the per-direction rate is one plane's bytes over the time.
        md << "| " << nodes << " | " << format_number(bytes / 1e6) << " MB | "
           << (via_nccl ? format_number(tn * 1e3) : "-") << " | " << (via_nccl ? format_number(bytes / tn / 1e9) : "-")
           << " | " << format_number(th * 1e3) << " | " << format_number(bytes / th / 1e9) << " |\n";
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

int bench(const Options& o) {
    MpiWorld world;
    const bool root = world.rank() == 0;
    if (!(o.z_scale >= 1)) throw InputError("", "--z-scale", "must be 1 or more");
    const Method method = parse_method(o.method, "--method");
    const Precision precision = parse_precision(o.precision, "--precision");
    if (root && !o.out.empty()) check_output_path(o.out);
    const OptionFields fields = {{"grid.spacing", "--spacing"},
                                 {"run.method", "--method"},
                                 {"run.precision", "--precision"},
                                 {"run.stages", "--stages"}};
    const WaveProblem whole = [&] {
        try {
            const Scene s = read_scene_json(o.scene, [&](Scene& sc) {
                sc.grid.spacing = o.spacing;
                stretch_z(sc, o.z_scale);
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
    }();
    DistributedOptions options;
    options.halo = parse_halo_transport(o.halo, "--halo");
    SlabSetup setup = prepare_slab(whole, world, options);
    if (setup.backend != Backend::Cuda) throw InputError("", "backend", "bench-scaling needs a CUDA device per rank");
    const bool distributed = world.size() > 1;
    CudaEngineOptions eo;
    eo.device = setup.device;
    eo.exchange = distributed ? setup.exchange.get() : nullptr;
    if (!setup.tcovfem_diagonal.empty()) eo.tcovfem_diagonal = &setup.tcovfem_diagonal;
    CudaTimeStepper stepper(setup.slab.problem, eo);
    const bool fp64 = whole.precision == Precision::Fp64;

    // Warm-up (module load, NCCL connections), then every measurement starts from this same
    // state: the stiffness kernels skip quiet regions, so timings of different steps of the run
    // would not compare.
    stepper.advance(0, 50, nullptr);
    const std::vector<double> u0 = stepper.displacement(), up0 = stepper.previous_displacement();
    auto from_start = [&] {
        stepper.set_state(up0, u0);
        world.barrier();
    };
    from_start();
    const double t_step = world.max(stepper.time_steps(50, o.steps).seconds) / o.steps;
    double t_bare = t_step;
    CudaTimeStepper::HaloPhaseSeconds ph{};
    double link_s = 0;
    std::size_t halo_bytes = 0;
    if (distributed) {
        stepper.set_exchange_enabled(false);
        from_start();
        t_bare = world.max(stepper.time_steps(50, o.steps).seconds) / o.steps;
        stepper.set_exchange_enabled(true);
        from_start();
        // Phases over the first phase_steps of the same window (event pairs synchronise each step).
        ph = stepper.median_halo_phase_seconds(50, std::min(o.phase_steps, o.steps));
        // Every rank's own phases (stderr), then the slowest rank's (the step waits for it).
        const std::vector<double> all =
            world.gather(std::vector<double>{ph.boundary, ph.exchange, ph.halo_path, ph.interior, ph.update, ph.step});
        if (root)
            for (std::size_t r = 0; r + 5 < all.size(); r += 6)
                std::fprintf(stderr,
                             "rank %zu phases (ms): boundary %.4g, exchange %.4g, halo path %.4g, interior %.4g, "
                             "update %.4g, step %.4g\n",
                             r / 6, all[r] * 1e3, all[r + 1] * 1e3, all[r + 2] * 1e3, all[r + 3] * 1e3,
                             all[r + 4] * 1e3, all[r + 5] * 1e3);
        ph.boundary = world.max(ph.boundary);
        ph.exchange = world.max(ph.exchange);
        ph.halo_path = world.max(ph.halo_path);
        ph.interior = world.max(ph.interior);
        ph.update = world.max(ph.update);
        ph.step = world.max(ph.step);
        halo_bytes = setup.exchange->bytes_per_step(fp64, setup.layout());
        world.barrier();
        link_s = world.max(measure_device_exchange_seconds(*setup.exchange, setup.layout().plane_nodes, fp64, 50));
    }
    const double total_bytes = world.sum(double(halo_bytes));
    if (o.link_sweep && distributed) link_sweep(world, setup, o.out);
    if (!root) return kOk;
    const double elements = double(whole.grid.element_count());
    auto ms = [](double sec) { return format_number(sec * 1e3); };
    std::ostringstream md;
    md << "| " << (o.label.empty() ? "-" : o.label) << " | " << world.size() << " | " << whole.grid.n[0] << "x"
       << whole.grid.n[1] << "x" << whole.grid.n[2] << " | " << format_number(elements / 1e6) << " M | "
       << format_number(elements / world.size() / 1e6) << " M | " << o.method << " " << o.precision << " | "
       << (distributed ? to_string(setup.transport) : "-") << " | " << ms(t_step) << " | " << ms(t_bare) << " | "
       << (distributed ? ms(ph.boundary) : "-") << " | " << (distributed ? ms(ph.exchange) : "-") << " | "
       << (distributed ? ms(ph.halo_path) : "-") << " | " << (distributed ? ms(ph.interior) : "-") << " | "
       << (distributed ? ms(ph.step) : "-") << " | " << (distributed ? format_number(total_bytes / 1e6) + " MB" : "-")
       << " | " << (distributed ? ms(link_s) : "-") << " | " << format_number(elements / t_step / 1e9) << " |\n";
    std::ostringstream head;
    head << "| run | GPUs | model | elements | per GPU | method | halo | step (ms) | step without exchange (ms) | "
            "boundary (ms) | exchange (ms) | halo path (ms) | interior (ms) | step, phase run (ms) | halo bytes/step "
            "(all "
            "ranks) | link: one exchange alone (ms) | G element-steps/s |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    std::printf("%s", head.str().c_str());
    print_and_append(md.str(), o.out);
    for (const Slab& sl : setup.slabs) std::printf("slab %d: element planes [%d, %d)\n", sl.index, sl.k0, sl.k1);
    return kOk;
}

}  // namespace

std::function<int()> add_bench_scaling_command(CLI::App& app) {
    auto o = std::make_shared<Options>();
    auto* sub =
        app.add_subcommand("bench-scaling",
                           "Time one distributed CUDA run per GPU count (start it with mpirun -np K): time per step, "
                           "halo bytes, per-phase times");
    sub->add_option("--scene", o->scene, "Scene (default: the paper's model)");
    sub->add_option("--spacing", o->spacing, "Voxel size ds in metres (default 0.002)")->check(CLI::PositiveNumber);
    sub->add_option("--z-scale", o->z_scale, "Stretch the model along z by this factor (weak scaling)");
    sub->add_option("--method", o->method, "vfem | ovfem | tcovfem");
    sub->add_option("--precision", o->precision, "fp64 | fp32");
    sub->add_option("--stages", o->stages, "TCOVFEM digits M");
    sub->add_option("--steps", o->steps, "Timed steps")->check(CLI::PositiveNumber);
    sub->add_option("--phase-steps", o->phase_steps, "Steps for the per-phase medians")->check(CLI::PositiveNumber);
    sub->add_option("--halo", o->halo, "auto | nccl | host");
    sub->add_option("--label", o->label, "First column of the row (strong, weak, ...)");
    sub->add_flag("--link-sweep", o->link_sweep, "Also time the exchange alone at plane sizes up to 4 M nodes");
    sub->add_option("--out", o->out, "Append the row to this markdown file");
    return [o] { return bench(*o); };
}

}  // namespace voxwave::cli
