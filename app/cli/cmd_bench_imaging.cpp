// `voxwave-cli bench-imaging`: times TFM delay-and-sum of a synthetic FMC (a point scatterer under
// a linear array in steel) on the CPU and on CUDA, and prints a markdown section for
// bench/results/imaging.md (docs/architecture.md#imaging).
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
#include "wave/tfm_imaging.hpp"

namespace voxwave::cli {
namespace {

struct BenchImagingOptions {
    int pixels = 512, elements = 32, samples = 1000, repeat = 5;
    std::string backend = "auto", out, command_line;
};

constexpr double kVp = 5900, kFrequency = 5e6, kPitch = 0.6e-3, kDt = 20e-9, kDepth = 20e-3;

// Element i at x = (i - (n-1)/2) pitch on the surface z = 0, normal +z; a 3-cycle Hann tone burst
// from the scatterer at (0, 0, kDepth) with 1 / (r_tx r_rx) spreading.
ArrayAcquisition synthetic_fmc(int n, int nt) {
    ArrayAcquisition a;
    a.n_tx = a.n_rx = std::size_t(n);
    a.pitch = kPitch;
    a.vp = kVp;
    a.frequency = kFrequency;
    const double cycles = 3, duration = cycles / kFrequency;
    a.reference_time = duration / 2;
    for (int i = 0; i < n; ++i) a.element_positions.push_back({(i - (n - 1) / 2.0) * kPitch, 0, 0});
    for (int k = 0; k < nt; ++k) a.time.push_back(k * kDt);
    a.data.assign(std::size_t(n) * std::size_t(n) * std::size_t(nt), 0.0);
    const double pi = 3.14159265358979323846;
    for (int tx = 0; tx < n; ++tx)
        for (int rx = 0; rx < n; ++rx) {
            const double r1 = std::hypot(a.element_positions[tx][0], kDepth);
            const double r2 = std::hypot(a.element_positions[rx][0], kDepth);
            const double delay = (r1 + r2) / kVp;
            for (int k = 0; k < nt; ++k) {
                const double t = k * kDt - delay;
                if (t < 0 || t > duration) continue;
                a.data[(std::size_t(tx) * n + rx) * nt + k] =
                    0.5 * (1 - std::cos(2 * pi * t / duration)) * std::sin(2 * pi * kFrequency * t) / (r1 * r2);
            }
        }
    return a;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int run(const BenchImagingOptions& o) {
    if (o.pixels < 2 || o.elements < 1 || o.samples < 2 || o.repeat < 1)
        throw InputError("", "--pixels", "pixels >= 2, elements >= 1, samples >= 2 and repeat >= 1 are needed");
    const Backend requested = parse_backend(o.backend, "--backend");
    std::vector<Backend> backends{Backend::Cpu};
    std::string why;
    const auto devices = cuda_devices(&why);
    if (requested == Backend::Cuda) {
        std::string note;
        resolve_backend(Backend::Cuda, note, "--backend");  // refuses without a device
        backends = {Backend::Cuda};
    } else if (requested == Backend::Auto && !devices.empty()) {
        backends.push_back(Backend::Cuda);
    }
    const ArrayAcquisition a = synthetic_fmc(o.elements, o.samples);
    ImagingRequest r;
    r.has_region = true;
    const double extent = 20e-3, step = extent / (o.pixels - 1);
    r.region = {-extent / 2, extent / 2, kDepth - extent / 2, kDepth - extent / 2 + (o.pixels - 1) * step};
    r.pixel = step;
    ImagingSetup s = resolve_imaging(a, r);
    s.lateral.resize(std::size_t(o.pixels));  // exactly pixels x pixels whatever the rounding
    s.depth.resize(std::size_t(o.pixels));
    using clock = std::chrono::steady_clock;
    std::vector<double> re, im, plane;
    const auto h0 = clock::now();
    acquisition_analytic_signals(a, re, im);
    const double hilbert_ms = std::chrono::duration<double, std::milli>(clock::now() - h0).count();
    const DelayAndSumProblem p = delay_and_sum_problem(a, s, re, im, plane);

    std::ostringstream md;
    md << "## TFM delay-and-sum benchmark, " << utc_timestamp() << "\n\n";
    md << "- machine: " << cpu_model() << ", " << omp_get_max_threads() << " OpenMP threads (host " << host_name()
       << ")";
    if (!devices.empty()) md << "; GPU " << devices.front().name;
    md << "\n- command: `" << o.command_line << "`\n";
    md << "- problem: " << o.elements << " x " << o.elements << " FMC signals of " << o.samples
       << " samples (a point scatterer 20 mm deep in steel, 5 MHz), " << o.pixels << " x " << o.pixels
       << " pixels, mode LL; analytic signals (CPU, shared by both backends) " << hilbert_ms << " ms\n";
    md << "- time: median of " << o.repeat
       << " calls after one warm-up call, each the whole delay-and-sum (CUDA: uploads, travel-time tables, the "
          "pixel kernel, the download)\n\n";
    md << "| backend | pixels | signals | samples | delay-and-sum (ms) | Gpixel-signals/s | max rel. diff to CPU |\n";
    md << "|---|---|---|---|---|---|---|\n";
    std::vector<double> cpu_image;
    for (Backend b : backends) {
        auto once = [&] { return b == Backend::Cuda ? delay_and_sum_cuda(p) : delay_and_sum_cpu(p); };
        std::vector<double> image = once();
        std::vector<double> ms;
        for (int i = 0; i < o.repeat; ++i) {
            const auto t0 = clock::now();
            image = once();
            ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
        }
        std::string diff = "-";
        if (b == Backend::Cpu) {
            cpu_image = image;
        } else if (!cpu_image.empty()) {
            double worst = 0, peak = 0;
            for (std::size_t i = 0; i < image.size(); ++i) {
                worst = std::max(worst, std::fabs(image[i] - cpu_image[i]));
                peak = std::max(peak, std::fabs(cpu_image[i]));
            }
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.1e", peak > 0 ? worst / peak : worst);
            diff = buf;
        }
        const double t = median(ms);
        const double rate = double(p.pixel_count()) * p.n_tx * p.n_rx / (t * 1e-3) / 1e9;
        char row[256];
        std::snprintf(row, sizeof row, "| %s | %d x %d | %d x %d | %d | %.2f | %.2f | %s |\n", to_string(b), o.pixels,
                      o.pixels, o.elements, o.elements, o.samples, t, rate, diff.c_str());
        md << row;
    }
    print_and_append(md.str(), o.out);
    return kOk;
}

}  // namespace

std::function<int()> add_bench_imaging_command(CLI::App& app) {
    auto o = std::make_shared<BenchImagingOptions>();
    CLI::App* c = app.add_subcommand("bench-imaging", "Time TFM delay-and-sum on a synthetic FMC (CPU and CUDA)");
    c->add_option("--pixels", o->pixels, "Image of N x N pixels (default 512)");
    c->add_option("--elements", o->elements, "Array elements: N x N signals (default 32)");
    c->add_option("--samples", o->samples, "Samples per signal (default 1000, 20 ns apart)");
    c->add_option("--repeat", o->repeat, "Timed calls, median reported (default 5)");
    c->add_option("--backend", o->backend, "auto (CPU, and CUDA when present) | cpu | cuda");
    c->add_option("--out,-o", o->out, "Append the markdown report to this file");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli bench-imaging", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
