// `voxwave-cli bench`: element-steps per second and achieved memory bandwidth of the wave
// engine on a scene (default: the paper's rebar model), beside the machine's measured copy
// bandwidth and the bytes per step we count. Benchmarks are never tests (no timing asserts).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
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
#include "wave/time_stepper_cpu.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {
namespace {
struct BenchOptions {
    std::string scene = std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json";
    std::string backend = "cpu", out;
    std::vector<double> spacings{0.004, 0.002};
    std::vector<std::string> methods{"vfem", "ovfem"}, precisions{"fp64", "fp32"};
    long long steps = 200;
    int stages = kTcovfemMaxStages;
    int pml_cells = 0;              // > 0: a PML this many cells thick on every face but the top (z+)
    int sponge_cells = 0;           // > 0: the same with a sponge
    std::vector<int> plane_strain;  // N x N plane-strain squares instead of the scene
    std::string command_line;
    std::vector<BenchStepTime>* step_times = nullptr;  // when set, receives every case's step time
};

// Floating-point operations of one moment-kernel element product (voxel_element_kernel.hpp, an
// fma counted as 2): the Walsh-Hadamard transform in 3 x 23 = 69, the material constants ~10,
// the stresses on the signed sums 15 + 27 + 3 = 45, the transposed transform out 3 x 23 = 69;
// the damped input adds 72. (The earlier edge-difference form of the kernel counted 330.)
constexpr double kMomentKernelFlops = 265;

std::string format_seconds(double s) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", s);
    return b;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Row {
    std::string method, precision;
    double ds;
    std::size_t elements, nodes;
    double step_s, matvec_s, bytes_step, bytes_matvec, mem_per_element;
    double cpu_step_s;  // process CPU time per step (all threads)
};

template <class Real>
Row bench_one(const WaveProblem& p, long long steps) {
    CpuTimeStepper<Real> st(p);
    const std::size_t nn = p.grid.node_count(), ne = p.grid.element_count();
    const double s = sizeof(Real);
    for (int i = 0; i < 5; ++i) st.step(i);  // warm-up: page faults, caches, thread start
    auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = process_cpu_seconds();
    for (long long n = 0; n < steps; ++n) st.step(n);
    const double step_s = seconds_since(t0) / double(steps);
    const double cpu_step_s = (process_cpu_seconds() - cpu0) / double(steps);
    // Matrix-vector product alone (undamped, so it reads only u).
    const std::vector<double> v = st.displacement();
    const long long mv_reps = std::max(3LL, steps / 4);
    std::vector<double> times;
    for (long long r = 0; r < mv_reps; ++r) {
        t0 = std::chrono::steady_clock::now();
        (void)st.stiffness_times(v);
        times.push_back(seconds_since(t0));
    }
    std::sort(times.begin(), times.end());
    // stiffness_times converts to and from double around the product; subtract nothing but
    // report the median, which includes that conversion (an upper bound of the kernel time).
    const double mv_s = times[times.size() / 2];
    // Held by the stepper (state, update factors, fused-sweep buffers), plus the model's ids
    // (1 B/element) and node masses (8 B/node).
    const double mem = (double(st.memory_bytes()) + double(ne) + 8.0 * double(nn)) / double(ne);
    return {to_string(p.method),
            to_string(p.precision),
            p.grid.spacing,
            ne,
            nn,
            step_s,
            mv_s,
            st.bytes_per_step(),
            (3 * s + 3 * s) * double(nn) + double(ne),
            mem,
            cpu_step_s};
}

// The scene of one benchmark case (`warmup` untimed steps before o.steps timed ones), or nothing
// for a combination the run rules do not allow (precision_allowed). The base scene was
// validated with --stages; --spacing was checked by run().
// --pml-cells (--sponge-cells): the model cut out of a larger structure on five faces, the top
// (where the paper model's source and receivers are) a free surface; a PML (a sponge) `cells`
// elements thick at the scene's spacing. Throws InputError naming the option when the layer
// does not fit.
void add_bench_layer(Scene& sc, const BenchOptions& o) {
    const bool pml = o.pml_cells > 0;
    if (!pml && o.sponge_cells <= 0) return;
    sc.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-"};
    sc.boundary.absorbing.thickness = (pml ? o.pml_cells : o.sponge_cells) * sc.grid.spacing;
    sc.boundary.absorbing.type = pml ? "pml" : "sponge";
    validate_scene(sc, pml ? "--pml-cells" : "--sponge-cells");
}

// The markdown line that says the cases carry --pml-cells' or --sponge-cells' layer (empty
// without one).
std::string pml_line(const BenchOptions& o) {
    if (o.pml_cells <= 0 && o.sponge_cells <= 0) return {};
    return std::string(o.pml_cells > 0 ? "- PML: " : "- sponge: ") +
           std::to_string(o.pml_cells > 0 ? o.pml_cells : o.sponge_cells) +
           " cells on x-, x+, y-, y+, z- (top free); bytes/step and floor count the interior step only\n";
}

std::optional<Scene> bench_scene(const Scene& base, const BenchOptions& o, double ds, const std::string& method,
                                 const std::string& precision, long long warmup, Backend backend) {
    Scene sc = base;
    sc.grid.spacing = ds;
    sc.run.method = parse_method(method, "--methods");
    sc.run.precision = parse_precision(precision, "--precisions");
    if (!precision_allowed(sc.run.method, sc.run.precision)) {
        std::fprintf(stderr, "%s %s: skipped (the method has no %s engine)\n", method.c_str(), precision.c_str(),
                     precision.c_str());
        return std::nullopt;
    }
    sc.run.steps = o.steps + warmup;
    sc.run.backend = backend;
    add_bench_layer(sc, o);
    return sc;
}

// The paper's A100 80GB PCIe timings (seed 000 Table 4) for the same configuration, seconds for
// the whole run and for the matrix-vector part; 0 where the paper has no number.
struct PaperTiming {
    double total_s = 0, matvec_s = 0;
    std::int64_t steps = 0;
};
PaperTiming paper_a100(Method m, Precision p, double ds) {
    const bool ds2 = std::fabs(ds - 0.002) < 1e-9, ds12 = std::fabs(ds - 0.0012) < 1e-9;
    if (m == Method::Ovfem && p == Precision::Fp64 && ds2) return {48.3, 43.3, 16384};
    if (m == Method::Ovfem && p == Precision::Fp32 && ds2) return {18.9, 15.5, 16384};
    if (m == Method::Tcovfem && ds2) return {14.2, 9.62, 16384};
    if (m == Method::Vfem && p == Precision::Fp64 && ds12) return {242.8, 0, 32768};
    return {};
}

int run_cuda(const BenchOptions& o, const Scene& base, const std::string& note) {
    std::fprintf(stderr, "%s\nmeasuring device copy bandwidth...\n", note.c_str());
    const double copy_gbs = measure_device_copy_bandwidth_gbs();
    std::ostringstream md;
    const std::string date = utc_timestamp();
    std::string gpu = "unknown GPU";
    {
        std::string why;
        const auto d = cuda_devices(&why);
        if (!d.empty()) gpu = d.front().name + " (" + std::to_string(d.front().memory_gib).substr(0, 5) + " GiB)";
    }
    md << "## CUDA wave engine benchmark, " << date << "\n\n";
    md << "- GPU: " << gpu << "\n";
    md << "- command: `" << o.command_line << "`\n";
    md << "- scene: " << o.scene << "; " << o.steps << " timed steps after 20 warm-up steps (device events)\n";
    md << pml_line(o);
    md << "- measured device copy bandwidth (cudaMemcpy D2D 1 GiB, read + write, median of 7): " << copy_gbs
       << " GB/s\n\n";
    md << "| method | precision | M | ds (mm) | elements | steps | loop (s) | step (us) | K u (us) | update or fused "
          "step (us) | "
          "sources (us) | K u rate | "
          "bytes/step moved | achieved GB/s | floor (us) | step / floor | memory/element (B) | paper A100 loop (s) | "
          "paper K u (s) | ours at the paper's steps (s) |\n";
    md << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (double ds : o.spacings)
        for (const auto& m : o.methods)
            for (const auto& pr : o.precisions) {
                const std::optional<Scene> sc = bench_scene(base, o, ds, m, pr, 20, Backend::Cuda);
                if (!sc) continue;
                const WaveProblem p = build_wave_problem(*sc, o.scene);
                const bool tc = p.method == Method::Tcovfem;
                // Every design of the method, so that the table shows which one should be the
                // default: the fused node-centred step and the split element + update kernels
                // (for TCOVFEM in both Tensor Core mappings).
                std::vector<CudaEngineOptions> designs = {{TcovfemMapping::Staged, MomentStepDesign::Fused},
                                                          {TcovfemMapping::Staged, MomentStepDesign::Split}};
                if (tc) designs.push_back({TcovfemMapping::PaperAtomics, MomentStepDesign::Split});
                std::fprintf(stderr, "%s %s ds=%g mm: %zu elements, %lld steps...\n", m.c_str(), pr.c_str(), ds * 1e3,
                             p.grid.element_count(), o.steps);
                for (const CudaEngineOptions& design : designs) {
                    CudaTimeStepper st(p, design);
                    const bool fused = st.fused_step();
                    // Never time on zeros: the kernels skip all-zero elements, and a real run is
                    // non-zero everywhere once the wave has crossed the model. Start from a random
                    // state (fixed nodes are zeroed by set_state).
                    {
                        std::mt19937_64 rng(1);
                        std::uniform_real_distribution<double> U(-1e-9, 1e-9);
                        std::vector<double> u(3 * p.grid.node_count()), um(u.size());
                        for (std::size_t i = 0; i < u.size(); ++i) {
                            u[i] = U(rng);
                            um[i] = u[i] + 1e-3 * U(rng);
                        }
                        st.set_state(um, u);
                    }
                    st.advance(0, 20);
                    const CudaStepTiming t = st.time_steps(20, o.steps);
                    const double step_s = t.seconds / double(o.steps);
                    const double mv_s = st.median_stiffness_seconds(20);
                    const CudaTimeStepper::KernelSeconds ks = st.median_kernel_seconds(20 + o.steps, 20);
                    const double nn = double(p.grid.node_count()), ne = double(p.grid.element_count());
                    const double s = p.precision == Precision::Fp64 ? 8 : 4;
                    const bool damped = p.rayleigh.beta != 0, sponge = p.boundary.has_node_damping();
                    // Bytes per step. Split: stiffness reads u (+ u- when damped), ids, and adds into f
                    // (counted once); update reads u, u-, f, dt^2/m (+ sponge factors, + TCOVFEM
                    // diagonal) and writes u+ and the zeroed f. Fused: u, u-, dt^2/m (+ sponge
                    // factors, + TCOVFEM diagonal) and ids read once, u+ written once (halo re-reads
                    // hit L2).
                    const double moved =
                        fused ? (3 * 3 * s + s + (sponge ? 2 * s : 0) + (tc ? 8 : 0)) * nn + ne
                              : (3 * s + (damped ? 3 * s : 0) + 3 * s) * nn + ne +
                                    (3 * 3 * s + s + 2 * 3 * s + (sponge ? 2 * s : 0) + (tc ? 8 : 0)) * nn;
                    // The floor: every step must at least read u, u-, dt^2/m and the ids and write u+.
                    const double floor_bytes = (3 * 3 * s + s) * nn + ne;
                    const double floor_s = floor_bytes / (copy_gbs * 1e9);
                    // The product's rate over the kernel that makes it: the element kernel (split) or
                    // the whole fused kernel (which also sums and updates).
                    const double rate_s = fused ? ks.stiffness : mv_s;
                    char rate[64];
                    if (tc)
                        std::snprintf(rate, sizeof rate, "%.1f TOPS", 2.0 * 24 * 48 * p.stages * ne / rate_s / 1e12);
                    else
                        std::snprintf(rate, sizeof rate, "%.2f TFLOP/s", kMomentKernelFlops * ne / rate_s / 1e12);
                    const PaperTiming paper = paper_a100(p.method, p.precision, ds);
                    const std::string label =
                        fused ? m + " (fused node step)"
                              : (!tc ? m + " (element + update)"
                                     : (design.tcovfem_mapping == TcovfemMapping::Staged ? m + " (staged rows)"
                                                                                         : m + " (paper atomics)"));
                    char line[768];
                    std::snprintf(line, sizeof line,
                                  "| %s | %s | %s | %.1f | %zu | %lld | %.3f | %.1f | %.1f | %.1f | %.1f | %s | %.3g | "
                                  "%.0f | %.1f | %.2f | "
                                  "%.0f | %s | %s | %s |\n",
                                  label.c_str(), pr.c_str(), tc ? std::to_string(p.stages).c_str() : "-", ds * 1e3,
                                  p.grid.element_count(), o.steps, t.seconds, step_s * 1e6, mv_s * 1e6,
                                  (fused ? ks.stiffness : ks.update) * 1e6, ks.points * 1e6, rate, moved,
                                  moved / step_s / 1e9, floor_s * 1e6, step_s / floor_s, double(st.device_bytes()) / ne,
                                  paper.total_s > 0 ? format_seconds(paper.total_s).c_str() : "-",
                                  paper.matvec_s > 0 ? format_seconds(paper.matvec_s).c_str() : "-",
                                  paper.steps > 0 ? format_seconds(step_s * double(paper.steps)).c_str() : "-");
                    md << line;
                    if (o.step_times) o.step_times->push_back({label + " " + pr, step_s});
                }
            }
    md << "\nK u: the element kernel's product alone (split design's kernel). update: the update kernel; for the "
          "fused node step, the whole fused kernel (forces and update). ";
    md << "bytes/step moved (split): stiffness kernel reads u (+ u- when Rayleigh-damped) and 1 B/element ids and adds "
          "into f; update kernel reads u, u-, f, dt^2/m (+ sponge factors, + TCOVFEM FP64 diagonal) and writes u+ and "
          "the zeroed f; (fused) u, u-, dt^2/m, ids (+ sponge factors, + TCOVFEM diagonal) read and u+ written once. "
          "floor = (read u, u-, dt^2/m, ids; write "
          "u+) / copy bandwidth. K u rate (over the element kernel, or over the whole fused kernel): moment kernel "
       << kMomentKernelFlops
       << " flop/element; TCOVFEM 2*24*48*M useful INT8 ops/element (the paper's accounting). Paper: one A100 80GB "
          "PCIe, seed 000 Table 4 (VFEM at ds = 1.2 mm and 32,768 steps).\n";
    std::printf("%s", md.str().c_str());
    if (!o.out.empty()) {
        std::ofstream f(o.out, std::ios::app);
        f << md.str() << "\n";
        if (!f) throw InputError(o.out, "", "cannot append the results");
        std::printf("appended to %s\n", o.out.c_str());
    }
    return kOk;
}

int run(const BenchOptions& o) {
    std::string note;
    const Backend backend = resolve_backend(parse_backend(o.backend, "--backend"), note);
    if (o.steps < 1) throw InputError("", "--steps", "must be positive");
    if (o.pml_cells < 0) throw InputError("", "--pml-cells", "must be 0 (none) or positive");
    if (o.sponge_cells < 0) throw InputError("", "--sponge-cells", "must be 0 (none) or positive");
    if (o.pml_cells > 0 && o.sponge_cells > 0)
        throw InputError("", "--sponge-cells",
                         "a model has one absorbing layer type: give --pml-cells or --sponge-cells");
    for (double ds : o.spacings) check_spacing(ds, "", "--spacing");
    if (!o.out.empty()) check_output_path(o.out);
    if (!o.plane_strain.empty())
        return run_plane_strain_bench(o.plane_strain, backend == Backend::Cuda, o.methods, o.precisions, o.steps, o.out,
                                      o.command_line);
    const OptionFields fields = {{"run.stages", "--stages"}};
    Scene base;
    try {
        base = read_scene_json(o.scene, [&o](Scene& s) { s.run.stages = o.stages; });
    } catch (const InputError& e) {
        throw blame_option(e, fields);
    }
    for (double ds : o.spacings) {  // before any measurement: a layer that does not fit is bad input
        Scene sc = base;
        sc.grid.spacing = ds;
        add_bench_layer(sc, o);
    }
    if (backend == Backend::Cuda) return run_cuda(o, base, note);
    std::fprintf(stderr, "measuring copy bandwidth...\n");
    const double copy_gbs = measure_copy_bandwidth_gbs();

    std::ostringstream md;
    const std::string date = utc_timestamp(), host = host_name();
    md << "## CPU wave engine benchmark, " << date << "\n\n";
    md << "- machine: " << cpu_model() << ", " << omp_get_max_threads() << " OpenMP threads (host " << host << ")\n";
    md << "- command: `" << o.command_line << "`\n";
    md << "- scene: " << o.scene << ", " << o.steps << " timed steps after 5 warm-up steps\n";
    md << pml_line(o);
    md << "- measured copy bandwidth (read + write, all threads, median of 7): " << copy_gbs << " GB/s\n\n";
    md << "| method | precision | ds (mm) | elements | step (ms) | element-steps/s | bytes/step (counted) | "
          "achieved GB/s | floor time (ms) | step / floor | K u (ms) | memory/element (B) |\n";
    md << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (double ds : o.spacings) {
        for (const auto& m : o.methods)
            for (const auto& pr : o.precisions) {
                const std::optional<Scene> sc = bench_scene(base, o, ds, m, pr, 5, Backend::Cpu);
                if (!sc) continue;
                const WaveProblem p = build_wave_problem(*sc, o.scene);
                std::fprintf(stderr, "%s %s ds=%g mm: %zu elements...\n", m.c_str(), pr.c_str(), ds * 1e3,
                             p.grid.element_count());
                const Row r =
                    p.precision == Precision::Fp64 ? bench_one<double>(p, o.steps) : bench_one<float>(p, o.steps);
                const double floor_s = r.bytes_step / (copy_gbs * 1e9);
                char line[512];
                std::snprintf(line, sizeof line,
                              "| %s | %s | %.1f | %zu | %.2f | %.3g | %.3g | %.2f | %.2f | %.2f | %.2f | %.0f |\n",
                              r.method.c_str(), r.precision.c_str(), r.ds * 1e3, r.elements, r.step_s * 1e3,
                              double(r.elements) / r.step_s, r.bytes_step, r.bytes_step / r.step_s / 1e9, floor_s * 1e3,
                              r.step_s / floor_s, r.matvec_s * 1e3, r.mem_per_element);
                md << line;
                if (o.step_times) o.step_times->push_back({r.method + " " + r.precision, r.step_s, r.cpu_step_s});
            }
    }
    md << "\nbytes/step counted (CpuTimeStepper::bytes_per_step): the update is fused into the element-plane sweep, so "
          "f never goes to memory; each step reads u, u-, dt^2/m (+ the h factors with a sponge) and writes u+ once "
          "per node, reads 1 B material id per element, writes and reads the partial forces of the node planes shared "
          "by two chunks of "
       << VoxelStiffnessCpu<double>::kPlanesPerChunk
       << " element planes, and reads u, u- of those shared planes a second time for their update. floor time = "
          "bytes/step / copy bandwidth. memory/element: what the stepper holds after the run (state, dt^2/m, h, sweep "
          "buffers) + ids + node masses.\n";
    print_and_append(md.str(), o.out);
    return kOk;
}
}  // namespace

std::vector<BenchStepTime> bench_paper_model_step_times(const std::string& backend,
                                                        const std::vector<std::string>& methods,
                                                        const std::vector<std::string>& precisions, double spacing,
                                                        long long steps, int pml_cells, const std::string& out,
                                                        int sponge_cells) {
    BenchOptions o;
    o.backend = backend;
    o.methods = methods;
    o.precisions = precisions;
    o.spacings = {spacing};
    o.steps = steps;
    o.pml_cells = pml_cells;
    o.sponge_cells = sponge_cells;
    o.out = out;
    // The table says how to make it again with `bench` alone.
    char ds[32];
    std::snprintf(ds, sizeof ds, "%g", spacing);
    o.command_line = "voxwave-cli bench --backend " + backend + " --spacing " + ds + " --methods";
    for (const std::string& m : methods) o.command_line += " " + m;
    o.command_line += " --precisions";
    for (const std::string& p : precisions) o.command_line += " " + p;
    o.command_line += " --steps " + std::to_string(steps);
    if (pml_cells > 0) o.command_line += " --pml-cells " + std::to_string(pml_cells);
    if (sponge_cells > 0) o.command_line += " --sponge-cells " + std::to_string(sponge_cells);
    std::vector<BenchStepTime> times;
    o.step_times = &times;
    run(o);
    return times;
}

std::function<int()> add_bench_command(CLI::App& app) {
    auto o = std::make_shared<BenchOptions>();
    CLI::App* c =
        app.add_subcommand("bench", "Benchmark the wave engine (element-steps/s, bandwidth vs the machine's)");
    c->add_option("--backend", o->backend, "cpu | cuda | auto (default cpu)");
    c->add_option("--stages", o->stages, "TCOVFEM INT8 stages M (default 8)");
    c->add_option("--scene", o->scene, "Scene to benchmark (default: the paper's rebar model)");
    c->add_option("--spacing", o->spacings, "Voxel sizes in metres (default 0.004 0.002)");
    c->add_option("--methods", o->methods, "Methods (default vfem ovfem)");
    c->add_option("--precisions", o->precisions, "Precisions (default fp64 fp32)");
    c->add_option("--steps", o->steps, "Timed steps per case (default 200)");
    c->add_option("--pml-cells", o->pml_cells,
                  "Add a PML this many cells thick on every face but the top z+ (default 0: the scene's boundary)");
    c->add_option("--sponge-cells", o->sponge_cells,
                  "Add a sponge this many cells thick on every face but the top z+ instead (default 0)");
    c->add_option("--plane-strain", o->plane_strain,
                  "Benchmark the plane-strain (2D) engine on N x N squares of 1 mm instead (e.g. 300 1024)");
    c->add_option("--out,-o", o->out, "Append the markdown table to this file");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli bench", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
