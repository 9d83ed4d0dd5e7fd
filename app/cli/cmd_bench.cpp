// `voxwave-cli bench`: element-steps per second and achieved memory bandwidth of the wave
// engine on a scene (default: the paper's rebar model), beside the machine's measured copy
// bandwidth and the bytes per step we count. Benchmarks are never tests (no timing asserts).
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "core/memory_bandwidth.hpp"
#include "scene/scene_io.hpp"
#include "wave/backend.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {
namespace {
struct BenchOptions {
    std::string scene = std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json";
    std::string backend = "cpu", out;
    std::vector<double> spacings{0.004, 0.002};
    std::vector<std::string> methods{"vfem", "ovfem"}, precisions{"fp64", "fp32"};
    long long steps = 200;
    std::string command_line;
};

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Row {
    std::string method, precision;
    double ds;
    std::size_t elements, nodes;
    double step_s, matvec_s, bytes_step, bytes_matvec, mem_per_element;
};

template <class Real>
Row bench_one(const WaveProblem& p, long long steps) {
    CpuTimeStepper<Real> st(p);
    const std::size_t nn = p.grid.node_count(), ne = p.grid.element_count();
    const double s = sizeof(Real);
    const bool damped = p.rayleigh.beta != 0;
    // Bytes we count per step (the floor of this two-pass algorithm): the stiffness pass reads
    // u (and u- when damped) and writes f, plus one material id per element; the update pass
    // reads u, u-, f, dt^2/m and writes u+.
    const double matvec_bytes = (3 * s + (damped ? 3 * s : 0) + 3 * s) * double(nn) + double(ne);
    const double update_bytes = (3 * s * 3 + s + 3 * s) * double(nn);
    for (int i = 0; i < 5; ++i) st.step(i);  // warm-up: page faults, caches, thread start
    auto t0 = std::chrono::steady_clock::now();
    for (long long n = 0; n < steps; ++n) st.step(n);
    const double step_s = seconds_since(t0) / double(steps);
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
    const double mem = (9 * s + s) * double(nn) / double(ne) + 1.0 + 8.0 * double(nn) / double(ne);
    return {to_string(p.method),
            to_string(p.precision),
            p.grid.spacing,
            ne,
            nn,
            step_s,
            mv_s,
            matvec_bytes + update_bytes,
            (3 * s + 3 * s) * double(nn) + double(ne),
            mem};
}

int run(const BenchOptions& o) {
    std::string note;
    if (resolve_backend(parse_backend(o.backend, "--backend"), note) != Backend::Cpu)
        throw InputError("", "--backend", "only the cpu engine is in this build");
    if (o.steps < 1) throw InputError("", "--steps", "must be positive");
    if (!o.out.empty()) check_output_path(o.out);
    Scene base = read_scene_json(o.scene);
    std::fprintf(stderr, "measuring copy bandwidth...\n");
    const double copy_gbs = measure_copy_bandwidth_gbs();

    std::ostringstream md;
    char date[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    md << "## CPU wave engine benchmark, " << date << "\n\n";
    md << "- machine: " << cpu_model() << ", " << omp_get_max_threads() << " OpenMP threads (host " << host << ")\n";
    md << "- command: `" << o.command_line << "`\n";
    md << "- scene: " << o.scene << ", " << o.steps << " timed steps after 5 warm-up steps\n";
    md << "- measured copy bandwidth (read + write, all threads, median of 7): " << copy_gbs << " GB/s\n\n";
    md << "| method | precision | ds (mm) | elements | step (ms) | element-steps/s | bytes/step (counted) | "
          "achieved GB/s | floor time (ms) | step / floor | K u (ms) | memory/element (B) |\n";
    md << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (double ds : o.spacings) {
        for (const auto& m : o.methods)
            for (const auto& pr : o.precisions) {
                Scene sc = base;
                sc.grid.spacing = ds;
                sc.run.method = parse_method(m, "--methods");
                sc.run.precision = parse_precision(pr, "--precisions");
                if (sc.run.method == Method::Tcovfem && sc.run.precision != Precision::Fp64) {
                    std::fprintf(stderr, "tcovfem %s: skipped (tcovfem runs in INT8 digits and FP64 only)\n",
                                 pr.c_str());
                    continue;
                }
                sc.run.steps = o.steps + 5;
                sc.run.backend = Backend::Cpu;
                const WaveProblem p = build_wave_problem(sc, o.scene);
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
            }
    }
    md << "\nbytes/step counted: stiffness pass reads u (+ u- when Rayleigh-damped) and writes f, 1 B material id per "
          "element; update pass reads u, u-, f, dt^2/m and writes u+. floor time = bytes/step / copy bandwidth.\n";
    print_and_append(md.str(), o.out);
    return kOk;
}
}  // namespace

std::function<int()> add_bench_command(CLI::App& app) {
    auto o = std::make_shared<BenchOptions>();
    CLI::App* c =
        app.add_subcommand("bench", "Benchmark the wave engine (element-steps/s, bandwidth vs the machine's)");
    c->add_option("--backend", o->backend, "cpu (cuda arrives with the CUDA engine)");
    c->add_option("--scene", o->scene, "Scene to benchmark (default: the paper's rebar model)");
    c->add_option("--spacing", o->spacings, "Voxel sizes in metres (default 0.004 0.002)");
    c->add_option("--methods", o->methods, "Methods (default vfem ovfem)");
    c->add_option("--precisions", o->precisions, "Precisions (default fp64 fp32)");
    c->add_option("--steps", o->steps, "Timed steps per case (default 200)");
    c->add_option("--out,-o", o->out, "Append the markdown table to this file");
    return [o, c] {
        o->command_line = "voxwave-cli bench";
        for (const auto* opt : c->get_options())
            if (opt->count() > 0 && opt->get_name() != "--help") {
                o->command_line += " " + opt->get_name();
                for (const auto& r : opt->results()) o->command_line += " " + r;
            }
        return run(*o);
    };
}

}  // namespace voxwave::cli
