// `voxwave-cli bench-sem`: the time step of the spectral voxel elements (run.method sem) against
// the memory floor (issue 36's target: at least 5 G node-steps/s for p = 4 FP64 on the H100,
// within 2.5x of the floor). A free cube of one material, a random state (every element works),
// warm-up steps, then timed steps: device events on CUDA, wall and CPU seconds on the CPU.
//
// The floor: a step must at least read u and u- (3 components each), read dt^2/m and write u+
// (3 components): 10 values a node, plus one material byte an element; its time is those bytes
// over the measured copy bandwidth. The CUDA step moves more (bench/results/accuracy.md derives
// it): each cell (a block of elements, sem_cell_schedule.hpp) reads u at each of its nodes, and
// the nodes on cells' faces pass their partial forces through f (2 (visits - 1) accesses a node
// visited by several cells). Benchmarks are never tests: nothing
// here asserts a number.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <random>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/backend.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/memory_bandwidth.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {
namespace {

struct Options {
    std::string backend = "cuda", out;
    std::vector<int> orders{2, 3, 4};
    std::vector<std::string> precisions{"fp64", "fp32"};
    int elements = 60;  // along each edge
    long long steps = 200;
    int cell_planes = 0;            // CUDA: element planes a cell, 0 automatic
    std::string schedule = "auto";  // CUDA: sweep, scatter or auto (sem_step_schedule.hpp)
    int pml_cells = 0;              // > 0: a PML this many elements thick on every face but the top (z+)
    std::string command_line;
};

double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

WaveProblem cube_problem(int elements, int order, Precision precision, Backend backend, int pml_cells) {
    Scene s;
    const double ds = 0.004;
    s.grid.size = {elements * ds, elements * ds, elements * ds};
    s.grid.spacing = ds;
    s.materials = {{"stokes", 2000, 3000, 1700, "#a0a0a0", ""}};
    s.background = "stokes";
    s.run.method = Method::Sem;
    s.run.order = order;
    s.run.precision = precision;
    s.run.backend = backend;
    s.run.steps = 1;
    if (pml_cells > 0) {
        // The layer's passes' cost, as `bench --pml-cells` measures the voxel methods': the top free.
        s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-"};
        s.boundary.absorbing.thickness = pml_cells * ds;
        s.boundary.absorbing.type = "pml";
    }
    validate_scene(s, "bench-sem");
    return build_wave_problem(s, "bench-sem");
}

void random_state(std::size_t values, std::vector<double>& up, std::vector<double>& u) {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> U(-1e-9, 1e-9);
    u.resize(values);
    up.resize(values);
    for (std::size_t i = 0; i < values; ++i) {
        u[i] = U(rng);
        up[i] = u[i] + 1e-3 * U(rng);
    }
}

int run(const Options& o) {
    const Backend backend = parse_backend(o.backend, "--backend");
    if (backend == Backend::Auto) throw InputError("", "--backend", "name cpu or cuda");
    if (o.elements < 2 || o.elements > 400) throw InputError("", "--elements", "must be in 2..400");
    if (o.steps < 1) throw InputError("", "--steps", "must be positive");
    if (o.cell_planes < 0 || o.cell_planes > 400) throw InputError("", "--cell-planes", "must be in 0..400");
    const SemCudaSchedule schedule = parse_sem_cuda_schedule(o.schedule, "--schedule");
    if (o.pml_cells < 0 || 2 * o.pml_cells >= o.elements)
        throw InputError("", "--pml-cells", "must be at least 0 and less than half of --elements");
    for (int p : o.orders)
        if (!sem_order_allowed(p)) throw InputError("", "--orders", "each order must be 2, 3 or 4");
    if (!o.out.empty()) check_output_path(o.out);
    const bool cuda = backend == Backend::Cuda;
    std::string device = cpu_model();
    if (cuda) {
        std::string why;
        const auto d = cuda_devices(&why);
        if (d.empty()) throw InputError("", "--backend", "cuda requested but " + why);
        device = d.front().name;
    }
    std::fprintf(stderr, "measuring copy bandwidth...\n");
    const double copy_gbs = cuda ? measure_device_copy_bandwidth_gbs() : measure_copy_bandwidth_gbs();
    std::ostringstream md;
    md << "## SEM time step, " << utc_timestamp() << "\n\n";
    md << "- machine: " << device << (cuda ? "" : " (" + std::to_string(omp_get_max_threads()) + " OpenMP threads)")
       << "\n";
    md << "- command: `" << o.command_line << "`\n";
    md << "- model: a free cube of " << o.elements << "^3 elements, one material, random state; " << o.steps
       << " timed steps after 20 warm-up steps (" << (cuda ? "device events" : "wall and process CPU time") << ")\n";
    if (o.pml_cells > 0)
        md << "- PML: " << o.pml_cells
           << " elements on every face but z+; the step time includes the layer's passes, the bytes and the floor "
              "count the interior step alone\n";
    md << "- measured copy bandwidth (read + write): " << copy_gbs << " GB/s\n\n";
    md << "| p | precision | schedule | cell (x by z elements) | nodes | step (us) | node-steps/s | CPU s a step | "
          "bytes/step "
          "(model) | "
          "floor bytes/step | achieved GB/s | floor (us) | step / floor |\n";
    md << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (int p : o.orders)
        for (const std::string& pr : o.precisions) {
            const Precision precision = parse_precision(pr, "--precisions");
            const WaveProblem prob = cube_problem(o.elements, p, precision, backend, o.pml_cells);
            const double nn = double(prob.node_count()), ne = double(prob.grid.element_count());
            std::fprintf(stderr, "p = %d %s: %.0f nodes...\n", p, pr.c_str(), nn);
            std::vector<double> u, up;
            random_state(3 * prob.node_count(), up, u);
            double step_s = 0, cpu_step_s = 0;
            int planes = 0, width = 0;
            SemCudaSchedule ran = SemCudaSchedule::Auto;
            if (cuda) {
                SemCudaTimeStepper st(prob, -1, o.cell_planes, schedule);
                ran = st.schedule();
                if (ran == SemCudaSchedule::Sweep) {
                    planes = st.cell_planes();
                    width = st.cell_width();
                }
                st.set_state(up, u);
                st.advance(0, 20);
                step_s = st.time_steps(20, o.steps).seconds / double(o.steps);
            } else {
                auto time_cpu = [&](auto& st) {
                    st.set_state(up, u);
                    for (int n = 0; n < 20; ++n) st.step(n);
                    const double c0 = process_cpu_seconds();
                    const auto t0 = std::chrono::steady_clock::now();
                    for (long long n = 0; n < o.steps; ++n) st.step(20 + n);
                    step_s =
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / double(o.steps);
                    cpu_step_s = (process_cpu_seconds() - c0) / double(o.steps);
                };
                if (precision == Precision::Fp64) {
                    SemTimeStepperCpu<double> st(prob);
                    time_cpu(st);
                } else {
                    SemTimeStepperCpu<float> st(prob);
                    time_cpu(st);
                }
            }
            const double s = precision == Precision::Fp64 ? 8 : 4;
            const double floor_bytes = 10 * s * nn + ne;
            // CUDA sweep: u at every node visit of a cell (p w + 1 nodes along x, p + 1 along y and
            // p h + 1 along z for a cell of w x 1 x h elements), u- once, u+ once, dt^2/m (no
            // sponge: the uniform h is a kernel argument), the partial forces of nodes visited by
            // several cells. CUDA scatter: u at every node once (an element's neighbours find it in
            // L2), the forces added to f (read and write), then u, u-, f and dt^2/m read and u+ and the
            // cleared f written a node; the element list and ids, 5 bytes an element. CPU (the fused sweep): u once (an
            // element plane's nodes stay in cache for its neighbours), u- read and overwritten by u+, the three update
            // factors.
            const double n1 = double(p + 1), ex = o.elements;
            const double cells_x = width > 0 ? std::ceil(ex / width) : 0,
                         cells_z = planes > 0 ? std::ceil(ex / planes) : 0;
            const double visits = (p * ex + cells_x) * ex * n1 * (p * ex + cells_z);
            const double moved =
                !cuda ? (3 * s + 2 * 3 * s + 3 * s) * nn + ne
                      : (ran == SemCudaSchedule::Scatter
                             ? 3 * s * nn + 2 * 3 * s * nn + (3 * s + 3 * s + 3 * s + 3 * s + s + 3 * s) * nn + 5 * ne
                             : 3 * s * visits + (3 * s + 3 * s + s) * nn + 2 * 3 * s * (visits - nn) + ne);
            const double floor_s = floor_bytes / (copy_gbs * 1e9);
            char line[512];
            std::snprintf(line, sizeof line,
                          "| %d | %s | %s | %s | %.0f | %.1f | %.3g | %s | %.3g | %.3g | %.0f | %.1f | %.2f |\n", p,
                          pr.c_str(), cuda ? to_string(ran) : "cpu",
                          width > 0 ? (std::to_string(width) + " x " + std::to_string(planes)).c_str() : "-", nn,
                          step_s * 1e6, nn / step_s, cuda ? "-" : (std::to_string(cpu_step_s).substr(0, 8)).c_str(),
                          moved, floor_bytes, moved / step_s / 1e9, floor_s * 1e6, step_s / floor_s);
            md << line;
        }
    print_and_append(md.str(), o.out);
    return kOk;
}

}  // namespace

std::function<int()> add_bench_sem_command(CLI::App& app) {
    auto o = std::make_shared<Options>();
    CLI::App* c = app.add_subcommand("bench-sem", "Time step of the spectral voxel elements against the memory floor");
    c->add_option("--backend", o->backend, "cuda | cpu (default cuda)");
    c->add_option("--orders", o->orders, "SEM orders (default 2 3 4)");
    c->add_option("--precisions", o->precisions, "fp64 fp32 (default both)");
    c->add_option("--elements", o->elements, "Elements along each edge of the cube (default 60)");
    c->add_option("--steps", o->steps, "Timed steps (default 200)");
    c->add_option("--cell-planes", o->cell_planes,
                  "CUDA: element planes a cell of the column sweep (default 0: chosen from the model and the device)");
    c->add_option("--schedule", o->schedule,
                  "CUDA: sweep (the column sweep), scatter (element-parallel) or auto (default: by the model's "
                  "elements an SM)");
    c->add_option("--pml-cells", o->pml_cells,
                  "A PML this many elements thick on every face but the top (default 0: none; the layer's cost)");
    c->add_option("--out,-o", o->out, "Append the markdown table to this file");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli bench-sem", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
