// `voxwave-cli bench --plane-strain N...`: steps per second of the plane-strain (2D) engine on an
// N x N square of concrete (1 mm squares, a source in the middle, no receivers), CPU or CUDA, for
// the classroom's live targets (docs/architecture.md#plane-strain-2d). Never a test.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "scene/scene_io.hpp"
#include "wave/plane_strain_stepper_cpu.hpp"
#include "wave/plane_strain_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {
namespace {

Scene square_scene(int n, const std::string& method, const std::string& precision) {
    Scene s;
    s.grid.dimensions = 2;
    s.grid.spacing = 1e-3;
    s.grid.size = {n * 1e-3, n * 1e-3, 0};
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}};
    s.background = "concrete";
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 2e5;
    w.delay = 6e-6;
    s.sources.push_back({"S", {n * 0.5e-3, n * 0.5e-3, 0}, {0, 1, 0}, 1e3, w});
    s.run.method = parse_method(method, "--methods");
    s.run.precision = parse_precision(precision, "--precisions");
    s.run.steps = 1;
    validate_scene(s, "--plane-strain");
    return s;
}

// The median over 5 equal chunks of the timed steps: the 2-core machines this runs on are shared,
// and a chunk that another process interrupted should not set the figure.
template <class Real>
double cpu_steps_per_second(const WaveProblem& p, long long steps) {
    PlaneStrainStepperCpu<Real> st(p);
    for (int i = 0; i < 5; ++i) st.step(i);  // warm-up: page faults, thread start
    const long long chunk = std::max(1LL, steps / 5);
    std::vector<double> rates;
    long long n = 5;
    for (int c = 0; c < 5; ++c) {
        const auto t0 = std::chrono::steady_clock::now();
        for (long long k = 0; k < chunk; ++k) st.step(n++);
        rates.push_back(double(chunk) / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(rates.begin(), rates.end());
    return rates[2];
}

}  // namespace

int run_plane_strain_bench(const std::vector<int>& sizes, bool cuda, const std::vector<std::string>& methods,
                           const std::vector<std::string>& precisions, long long steps, const std::string& out,
                           const std::string& command_line) {
    for (int n : sizes)
        if (n < 2 || n > 16384) throw InputError("", "--plane-strain", "sizes must be 2 to 16384 squares a side");
    std::ostringstream md;
    const std::string date = utc_timestamp(), host = host_name();
    md << "## Plane-strain (2D) engine benchmark, " << date << "\n\n";
    std::string device;
    md << "- command: `" << command_line << "`\n";
    md << "- model: N x N squares of 1 mm concrete, a Ricker source in the middle, no receivers; " << steps
       << " timed steps after 5 warm-up steps"
       << (cuda ? " (median of the steps' CUDA event times)" : " (median rate of 5 equal chunks)") << "\n";
    std::ostringstream rows;
    for (int n : sizes)
        for (const auto& m : methods)
            for (const auto& pr : precisions) {
                const Scene sc = square_scene(n, m, pr);
                const WaveProblem p = build_wave_problem(sc, "--plane-strain");
                std::fprintf(stderr, "%s %s %d x %d...\n", m.c_str(), pr.c_str(), n, n);
                double rate = 0;
                if (cuda) {
                    PlaneStrainStepperCuda st(p);
                    device = st.device_name();
                    rate = 1.0 / st.median_step_seconds(int(steps));
                } else {
                    rate = p.precision == Precision::Fp64 ? cpu_steps_per_second<double>(p, steps)
                                                          : cpu_steps_per_second<float>(p, steps);
                }
                char line[256];
                std::snprintf(line, sizeof line, "| %d x %d | %s | %s | %.0f | %.3g | %.1f |\n", n, n, m.c_str(),
                              pr.c_str(), rate, rate * double(n) * double(n), rate / 10.0);
                rows << line;
            }
    md << "- machine: "
       << (cuda ? device + " (CUDA)" : cpu_model() + ", " + std::to_string(omp_get_max_threads()) + " OpenMP threads")
       << " (host " << host << ")\n\n";
    md << "| squares | method | precision | steps/s | element-steps/s | frames/s at 10 steps a frame |\n";
    md << "|---|---|---|---|---|---|\n";
    md << rows.str();
    print_and_append(md.str(), out);
    return kOk;
}

}  // namespace voxwave::cli
