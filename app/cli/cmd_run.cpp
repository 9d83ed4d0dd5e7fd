// `voxwave-cli run SCENE --out RESULT.h5 [overrides]`: one simulation, traces to HDF5.
// `voxwave-cli scan SCENE --out RESULT.h5 [overrides]`: the scene's probe scan, one run a shot
// (under mpirun the ranks share the shots; an FMC or PWI adds its acquisition group, which
// `voxwave-cli image` reads); `--shot K` runs shot K alone as a plain run of its scene.
// Under an MPI launcher (`mpirun -np K voxwave-cli run ...`) the same command runs one
// simulation over K ranks (engine/distributed): same scene, same result file, written by rank 0.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "core/hdf5_util.hpp"
#include "distributed/distributed_run.hpp"
#include "distributed/distributed_scan.hpp"
#include "scene/rasterise.hpp"
#include "scene/result.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "wave/batched_shots.hpp"
#include "wave/probe_scan.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

namespace voxwave::cli {
namespace {
struct RunOptions {
    std::string scene, out, method, precision, backend, halo = "auto", process_grid = "auto";
    int stages = 0, order = 0;
    double spacing = 0, dt = 0, duration = 0;
    long long steps = 0;
    std::size_t batch = 0;  // scan: shots stepped together, 0 from memory
    std::size_t shot = 0;   // scan --shot K: shot K (from 1) alone as one run; 0: the whole scan
    bool quiet = false;
    // The overriding options, to tell "--stages 0" from no --stages.
    const CLI::Option *stages_given = nullptr, *spacing_given = nullptr, *dt_given = nullptr, *steps_given = nullptr,
                      *duration_given = nullptr, *order_given = nullptr;
};

bool given(const CLI::Option* option) { return option && option->count() > 0; }

// The result's `scene` attribute: the scene file's name, as the GUI writes it, so that a result
// opened later is attached to the scene it came from.
std::string scene_file_name(const std::string& scene_path) {
    return std::filesystem::path(scene_path).filename().string();
}

// The scene fields the command line overrides, with their options.
OptionFields overridden_fields(const RunOptions& o) {
    OptionFields f;
    if (!o.method.empty()) f.push_back({"run.method", "--method"});
    if (!o.precision.empty()) f.push_back({"run.precision", "--precision"});
    if (!o.backend.empty()) f.push_back({"run.backend", "--backend"});
    if (given(o.stages_given)) f.push_back({"run.stages", "--stages"});
    if (given(o.order_given)) f.push_back({"run.order", "--order"});
    if (given(o.spacing_given)) f.push_back({"grid.spacing", "--spacing"});
    if (given(o.dt_given)) f.push_back({"run.dt", "--dt"});
    if (given(o.steps_given)) f.push_back({"run.steps", "--steps"});
    if (given(o.duration_given)) f.push_back({"run.duration", "--duration"});
    return f;
}

// The command line's overrides, applied to the parsed scene before its one validation.
void apply_overrides(const RunOptions& o, Scene& scene) {
    if (!o.method.empty()) scene.run.method = parse_method(o.method, "--method");
    if (!o.precision.empty()) scene.run.precision = parse_precision(o.precision, "--precision");
    if (!o.backend.empty()) scene.run.backend = parse_backend(o.backend, "--backend");
    if (given(o.stages_given)) scene.run.stages = o.stages;
    if (given(o.order_given)) scene.run.order = o.order;
    if (given(o.spacing_given)) scene.grid.spacing = o.spacing;
    if (given(o.dt_given)) scene.run.dt = o.dt;
    if (given(o.steps_given)) {
        scene.run.steps = o.steps;
    } else if (given(o.duration_given)) {
        scene.run.steps = 0;
        scene.run.duration = o.duration;
    }
}

// `scan --shot K`: the scene of the scan's shot K (from 1) alone, as a plain run (shot_scene: the
// scan probe as that shot places and fires it; the scan itself dropped), and the shot's label.
Scene one_shot_scene(const RunOptions& o, const Scene& scene, std::string* label) {
    if (!scene.scan) throw InputError(o.scene, "scan", "the scene has no scan (add a \"scan\" block naming a probe)");
    const std::vector<ScanShot> shots = scan_shots(scene, o.scene);
    if (o.shot < 1 || o.shot > shots.size())
        throw InputError("", "--shot",
                         std::to_string(o.shot) + " is not a shot of this scan: its " + std::to_string(shots.size()) +
                             " shots are 1 to " + std::to_string(shots.size()));
    const ScanShot& shot = shots[o.shot - 1];
    Scene one = shot_scene(scene, shot);
    one.scan.reset();
    if (label) *label = shot.label;
    return one;
}

// The scene with the command line's overrides and the problem it gives, each checked once; an
// error in an overridden value names its option. With --shot (scan) the problem is that shot's.
WaveProblem load_problem(const RunOptions& o, std::string* shot_label = nullptr) {
    const OptionFields fields = overridden_fields(o);
    try {
        const Scene scene = read_scene_json(o.scene, [&o](Scene& s) { apply_overrides(o, s); });
        if (o.shot > 0) return build_wave_problem(one_shot_scene(o, scene, shot_label), o.scene);
        return build_wave_problem(scene, o.scene);
    } catch (const InputError& e) {
        throw blame_option(e, fields);
    }
}

void print_header(const RunOptions& o, const WaveProblem& problem) {
    const auto& g = problem.grid;
    std::printf("scene     %s\n", o.scene.c_str());
    if (problem.dimensions == 2)
        std::printf("model     %d x %d squares at %.4g m, plane strain (%zu elements, %zu nodes)\n", g.n[0], g.n[1],
                    g.spacing, g.element_count(), problem.node_count());
    else
        std::printf("model     %d x %d x %d elements at %.4g m (%zu elements, %zu nodes)\n", g.n[0], g.n[1], g.n[2],
                    g.spacing, g.element_count(), g.node_count());
    std::printf("method    %s %s, dt %.4g s (stable limit %.4g s), %lld steps\n", to_string(problem.method),
                to_string(problem.precision), problem.dt, problem.dt_stable, static_cast<long long>(problem.steps));
    for (std::size_t i = 0; i < problem.scene_source_count; ++i) {
        const auto& s = problem.sources[i];
        std::printf("source    %s at node (%.4g, %.4g, %.4g) m\n", s.name.c_str(), s.snapped[0], s.snapped[1],
                    s.snapped[2]);
    }
    for (std::size_t i = 0; i < problem.scene_receiver_count; ++i) {
        const auto& r = problem.receivers[i];
        std::printf("receiver  %s snapped to (%.4g, %.4g, %.4g) m\n", r.name.c_str(), r.snapped[0], r.snapped[1],
                    r.snapped[2]);
    }
    const std::size_t probe_loads = problem.sources.size() - problem.scene_source_count;
    const std::size_t probe_nodes = problem.receivers.size() - problem.scene_receiver_count;
    if (probe_loads + probe_nodes > 0)
        std::printf("probes    %zu nodal loads, %zu receiving face nodes, %zu receiving probes\n", probe_loads,
                    probe_nodes, problem.probes.size());
    std::fflush(stdout);
}

void print_footer(const RunOptions& o, const WaveProblem& problem, const Result& result, const std::string& note) {
    std::printf("%s\n", note.c_str());
    std::printf("done in %.2f s (%.3g element-steps/s)", result.wall_seconds,
                double(problem.grid.element_count()) * double(problem.steps) / std::max(result.wall_seconds, 1e-9));
    if (result.setup_seconds > 0)
        std::printf(": setup %.2f s, time loop %.2f s", result.setup_seconds,
                    result.wall_seconds - result.setup_seconds);
    std::printf("\n");
    std::printf("result    %s\n", o.out.c_str());
    if (!result.snapshots.empty())
        std::printf("snapshots %zu (%s), open %s in ParaView\n", result.snapshots.steps.size(),
                    result.snapshots.fields.size() == 2 ? "u and v" : result.snapshots.fields[0].c_str(),
                    snapshots_xdmf_path(o.out).c_str());
}

// scan --shot: which shot the run is.
void print_shot(const RunOptions& o, const std::string& label) {
    if (o.shot > 0) std::printf("shot      %s of the scan, run alone\n", label.c_str());
    std::fflush(stdout);
}

int run_one_process(const RunOptions& o) {
    std::string shot;
    const WaveProblem problem = load_problem(o, &shot);
    check_output_path(o.out);
    if (!o.quiet) {
        print_header(o, problem);
        print_shot(o, shot);
    }
    std::string note;
    Result result = run_wave(problem, terminal_progress("running", o.quiet), &note);
    finish_progress();
    result.scene = scene_file_name(o.scene);
    write_result_h5(o.out, result);
    if (!o.quiet) print_footer(o, problem, result, note);
    return kOk;
}

// Starts MPI under a launcher into `holder`: kOk, or the exit code when it cannot (printed by
// rank 0 alone, which the launcher's environment names before MPI is up).
int start_world(std::optional<MpiWorld>& holder) {
    const char* env_rank =
        std::getenv("OMPI_COMM_WORLD_RANK") ? std::getenv("OMPI_COMM_WORLD_RANK") : std::getenv("PMI_RANK");
    const bool env_root = !env_rank || std::atoi(env_rank) == 0;
    return guarded(
        [&] {
            holder.emplace();
            return int(kOk);
        },
        env_root);
}

// After every rank ran its input step (exit `code`, its error line in `message`): kOk when all
// succeeded, else the exit code, the error printed once (rank 0's, or a failing rank's own).
int agree_on_input(const MpiWorld& world, int code, const std::string& message) {
    const bool root = world.rank() == 0;
    const bool root_ok = world.broadcast(code == kOk ? "1" : "0") == "1";
    if (world.all(code == kOk)) return kOk;
    if (root && root_ok)
        std::fprintf(stderr, "voxwave-cli: error: the input failed on another rank (see its message)\n");
    if (!root && root_ok && code != kOk)
        std::fprintf(stderr, "%s (rank %d of %d)\n", message.c_str(), world.rank(), world.size());
    return code != kOk ? code : int(kBadInput);
}

// Every rank reads the scene and builds the same problem; rank 0 prints, shows the progress and
// writes the result. An input error is the same on every rank and is printed once, by rank 0
// (a rank that fails alone, e.g. a file missing on its machine, prints its own line).
int run_distributed(const RunOptions& o) {
    std::optional<MpiWorld> world_holder;
    if (const int c = start_world(world_holder); c != kOk) return c;
    const MpiWorld& world = *world_holder;
    const bool root = world.rank() == 0;

    std::optional<WaveProblem> problem;
    DistributedOptions options;
    std::string message, shot;
    const int code = guarded(
        [&] {
            problem.emplace(load_problem(o, &shot));
            if (problem->dimensions == 2)
                throw InputError(o.scene, "grid.size",
                                 "a plane-strain (2D) scene runs in one process, not under mpirun");
            options.halo = parse_halo_transport(o.halo, "--halo");
            options.grid = parse_process_grid(o.process_grid, "--process-grid");
            if (root) check_output_path(o.out);
            check_slab_count(slab_axis_planes(problem->grid), world.size());  // the same error everywhere
            resolve_process_grid(problem->grid, world.size(), options.grid, options.grid_field);
            return int(kOk);
        },
        root, &message);
    if (const int c = agree_on_input(world, code, message); c != kOk) return c;
    if (root && !o.quiet) {
        print_header(o, *problem);
        print_shot(o, shot);
        std::printf("ranks     %d (mpi)\n", world.size());
        std::fflush(stdout);
    }
    const int run_code = guarded(
        [&] {
            DistributedRun run =
                run_wave_distributed(*problem, world, terminal_progress("running", o.quiet || !root), options);
            finish_progress();
            run.result.scene = scene_file_name(o.scene);
            if (root) {
                write_result_h5(o.out, run.result);
                if (!o.quiet) print_footer(o, *problem, run.result, run.note);
            }
            return int(kOk);
        },
        root);
    return world.all(run_code == kOk) ? int(kOk) : (run_code != kOk ? run_code : int(kFailure));
}

int run(const RunOptions& o) { return launched_by_mpi_launcher() ? run_distributed(o) : run_one_process(o); }

// The scene and override options that run and scan share.
void add_scene_options(CLI::App* c, RunOptions& o) {
    c->add_option("scene", o.scene, "Scene file (voxwave-scene JSON)")->required();
    c->add_option("--out,-o", o.out, "Result file to write (voxwave-result HDF5)")->required();
    c->add_option("--method", o.method, "vfem | ovfem | tcovfem | sem (overrides the scene)");
    c->add_option("--precision", o.precision, "fp64 | fp32");
    o.stages_given = c->add_option(
        "--stages", o.stages,
        "TCOVFEM INT8 stages M, " + std::to_string(kTcovfemMinStages) + ".." + std::to_string(kTcovfemMaxStages));
    o.order_given = c->add_option("--order", o.order,
                                  "SEM GLL order p, " + std::to_string(kSemMinOrder) + ".." +
                                      std::to_string(kSemMaxOrder) + " (spectral elements: run.method sem)");
    c->add_option("--backend", o.backend, "auto | cpu | cuda");
    o.spacing_given = c->add_option("--spacing", o.spacing,
                                    "Voxel size ds in metres, " + format_number(kMinSpacing) + ".." +
                                        format_number(kMaxSpacing) + " (re-voxelises the scene)");
    o.dt_given = c->add_option("--dt", o.dt, "Time step in seconds (0: auto; refused above the stable limit)");
    CLI::Option* steps = c->add_option("--steps", o.steps, "Number of time steps");
    o.steps_given = steps;
    o.duration_given = c->add_option("--duration", o.duration, "Simulated time in seconds")->excludes(steps);
    c->add_flag("--quiet,-q", o.quiet, "Print nothing but errors");
}

// The scene with the command line's overrides, for a scan: an error in an overridden value
// names its option.
Scene load_scan_scene(const RunOptions& o) {
    const OptionFields fields = overridden_fields(o);
    try {
        Scene scene = read_scene_json(o.scene, [&o](Scene& s) { apply_overrides(o, s); });
        if (!scene.scan)
            throw InputError(o.scene, "scan", "the scene has no scan (add a \"scan\" block naming a probe)");
        return scene;
    } catch (const InputError& e) {
        throw blame_option(e, fields);
    }
}

// The scan's shot count: positions x positions2, a PWI's angles, an FMC's elements.
std::size_t scan_shot_count(const Scene& scene) {
    const ScanSpec& spec = *scene.scan;
    std::size_t shots = std::size_t(spec.positions) * std::size_t(spec.positions2);
    if (spec.type == "pwi") shots = spec.angles.size();
    for (const ProbeSpec& p : scene.probes)
        if (spec.type == "fmc" && p.name == spec.probe) shots = std::size_t(p.element_count());
    return shots;
}

void print_scan_header(const RunOptions& o, const Scene& scene) {
    const std::size_t shots = scan_shot_count(scene);
    std::printf("scene     %s\n", o.scene.c_str());
    std::printf("scan      %s of probe %s: %zu shots\n", scene.scan->type.c_str(), scene.scan->probe.c_str(), shots);
    std::fflush(stdout);
}

void print_scan_footer(const RunOptions& o, const Scene& scene, const Result& result, const std::string& note) {
    const std::size_t shots = scan_shot_count(scene);
    std::printf("%s\n", note.c_str());
    std::printf("done in %.2f s: %zu shots of %lld steps\n", result.wall_seconds, shots,
                static_cast<long long>(result.steps));
    // The time loops alone (under mpirun the slowest rank's): the scan's parallel work, apart from
    // process and device start-up, building the model and the steppers, and writing the file.
    std::printf("shot loops %.3f s (set-up and probe placement %.3f s)\n", result.wall_seconds - result.setup_seconds,
                result.setup_seconds);
    std::printf("result    %s\n", o.out.c_str());
}

// The scan's result file, with an FMC's or PWI's acquisition group (/fmc or /pwi) when given.
void write_scan_result(const std::string& path, const Result& result,
                       const std::optional<ArrayAcquisition>& acquisition) {
    if (acquisition)
        write_result_h5(path, result, [&](h5::File& f) { write_array_acquisition_group(f, *acquisition); });
    else
        write_result_h5(path, result);
}

// One shot after another in this process, back to back on one stepper, the scan probe moved.
int scan_one_process(const RunOptions& o) {
    const Scene scene = load_scan_scene(o);
    check_output_path(o.out);
    if (!o.quiet) print_scan_header(o, scene);
    std::string note;
    Result result;
    // An FMC or PWI also writes its acquisition (/fmc or /pwi), which voxwave-cli image reads.
    std::optional<ArrayAcquisition> acquisition;
    try {
        const VoxelGrid model = rasterise(scene);
        result =
            run_probe_scan(scene, model, o.scene, terminal_progress("scanning", o.quiet), &note, {}, nullptr, o.batch);
        if (scene.scan->array_acquisition()) acquisition = scan_array_acquisition(scene, model, result, o.scene);
    } catch (const InputError& e) {
        finish_progress();
        throw blame_option(e, overridden_fields(o));
    }
    finish_progress();
    result.scene = scene_file_name(o.scene);
    write_scan_result(o.out, result, acquisition);
    if (!o.quiet) print_scan_footer(o, scene, result, note);
    return kOk;
}

// Under mpirun: every rank reads the scene and runs its share of the shots on the whole model
// (one GPU a rank); rank 0 gathers the rows and writes the one file, the same as one process's.
// Errors are reported as run_distributed reports them.
int scan_distributed(const RunOptions& o) {
    std::optional<MpiWorld> world_holder;
    if (const int c = start_world(world_holder); c != kOk) return c;
    const MpiWorld& world = *world_holder;
    const bool root = world.rank() == 0;

    Scene scene;
    std::string message;
    const int code = guarded(
        [&] {
            scene = load_scan_scene(o);
            if (root) check_output_path(o.out);
            return int(kOk);
        },
        root, &message);
    if (const int c = agree_on_input(world, code, message); c != kOk) return c;
    if (root && !o.quiet) {
        print_scan_header(o, scene);
        std::printf("ranks     %d (mpi), the shots shared round-robin\n", world.size());
        std::fflush(stdout);
    }
    const int run_code = guarded(
        [&] {
            std::string note;
            Result result;
            std::optional<ArrayAcquisition> acquisition;
            try {
                const VoxelGrid model = rasterise(scene);
                result = run_probe_scan_distributed(scene, model, o.scene, world,
                                                    terminal_progress("scanning", o.quiet || !root), &note, o.batch);
                if (root && scene.scan->array_acquisition())
                    acquisition = scan_array_acquisition(scene, model, result, o.scene);
            } catch (const InputError& e) {
                finish_progress();
                throw blame_option(e, overridden_fields(o));
            }
            finish_progress();
            if (root) {
                result.scene = scene_file_name(o.scene);
                write_scan_result(o.out, result, acquisition);
                if (!o.quiet) print_scan_footer(o, scene, result, note);
            }
            return int(kOk);
        },
        root);
    return world.all(run_code == kOk) ? int(kOk) : (run_code != kOk ? run_code : int(kFailure));
}

int scan(const RunOptions& o) {
    if (o.shot > 0) return run(o);  // one shot: a plain run of its scene (slabs under mpirun)
    return launched_by_mpi_launcher() ? scan_distributed(o) : scan_one_process(o);
}
}  // namespace

std::function<int()> add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    CLI::App* c = app.add_subcommand("run", "Run a scene and write receiver traces to an HDF5 result file");
    add_scene_options(c, *o);
    c->add_option("--halo", o->halo,
                  "Under mpirun with CUDA: how the ghost nodes travel between GPUs, auto | nccl | host (staged "
                  "through host memory and MPI)");
    c->add_option("--process-grid", o->process_grid,
                  "Under mpirun: ranks along x, y and z of the model as PXxPYxPZ (e.g. 1x2x2), or auto (slabs along "
                  "the longest axis until they get thin, then y as well)");
    return [o] { return run(*o); };
}

std::function<int()> add_scan_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    CLI::App* c = app.add_subcommand(
        "scan",
        "Run the scene's probe scan (single, linear or raster shots; fmc: each element fires alone; pwi: one plane "
        "wave per angle) and write one HDF5 result file (fmc and pwi add /fmc or /pwi for voxwave-cli image); "
        "under mpirun each rank runs its share of the shots");
    add_scene_options(c, *o);
    c->add_option("--batch", o->batch,
                  "Shots stepped together on one model (a batch dimension in the step: the element factors are "
                  "loaded once for all of them); 1 runs them one after another; 0 (the default): on CUDA as many as "
                  "the GPU's memory holds, at most " +
                      std::to_string(kMaxShotBatch) +
                      ", on the CPU one at a time (its single-run sweep is faster). VFEM and OVFEM (TCOVFEM on the "
                      "CPU) with free, fixed or sponge faces; other runs go one at a time")
        ->check(CLI::Range(0, 4096));
    c->add_option("--shot", o->shot,
                  "Run shot K (from 1, as the scan numbers them: an fmc's element K fires, every element receives) "
                  "alone, as one run of that shot's scene, and write a run's result (traces and /probes, no /scan "
                  "or acquisition group); for rerunning one shot, or timing the shots as single runs")
        ->check(CLI::Range(1, 1 << 30))
        ->excludes("--batch");
    return [o] { return scan(*o); };
}

}  // namespace voxwave::cli
