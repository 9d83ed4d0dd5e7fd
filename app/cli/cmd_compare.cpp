// `voxwave-cli compare A.h5 B.h5 [--tolerance T]`: how far two result files' traces are apart.
// Per receiver (matched by name) the largest |a - b| over time and components relative to the
// largest |b| of that receiver, for displacement and velocity, and the paper's eq. 18 error; per
// probe (matched by name) the same for its received velocity signals; for two scans of one probe
// with the same shots (voxwave-cli scan's files, an FMC's or PWI's included: their /fmc or /pwi
// data are the scan's rows) the same over every shot's signals.
// Exit code 0 when every receiver is within the tolerance (when one is given), 4 when not.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "scene/result.hpp"
#include "wave/trace_error.hpp"

namespace voxwave::cli {

namespace {

constexpr int kDiffer = 4;

struct Options {
    std::string a, b;
    double tolerance = -1;
};

// max_t,c |a - b| / max_t,c |b| for receiver ia of a and ib of b (same sample count).
double receiver_difference(const std::vector<double>& a, const std::vector<double>& b, std::size_t ia, std::size_t ib,
                           std::size_t nt, std::size_t nc) {
    double diff = 0, peak = 0;
    for (std::size_t k = 0; k < nc * nt; ++k) {
        diff = std::max(diff, std::fabs(a[ia * nc * nt + k] - b[ib * nc * nt + k]));
        peak = std::max(peak, std::fabs(b[ib * nc * nt + k]));
    }
    return peak > 0 ? diff / peak : diff;
}

int compare(const Options& o) {
    const Result a = read_result_h5(o.a), b = read_result_h5(o.b);
    if (a.time.size() != b.time.size()) {
        // Runs of different dt (a convergence table against a reference): the max-difference
        // table needs common samples, eq. 18 reads the reference at A's sample times.
        if (o.tolerance >= 0 || a.receiver_count() == 0 || b.receiver_count() == 0)
            throw InputError(o.a, "time",
                             std::to_string(a.time.size()) + " samples, " + o.b + " has " +
                                 std::to_string(b.time.size()) +
                                 " (without --tolerance, runs of different dt compare by their eq. 18 error)");
        std::printf("eq. 18 error %.6g (%zu samples against the reference's %zu, read at these sample times)\n",
                    paper_trace_error(a, b), a.time.size(), b.time.size());
        return kOk;
    }
    if (a.components != b.components)
        throw InputError(o.a, "traces",
                         "a " + std::to_string(a.components) + "-component run, " + o.b + " has " +
                             std::to_string(b.components) + " (2D and 3D runs do not compare)");
    const std::size_t nt = a.time.size();
    std::printf("| receiver | displacement max rel. diff | velocity max rel. diff |\n|---|---|---|\n");
    double worst = 0;
    std::size_t matched = 0;
    for (std::size_t i = 0; i < a.receiver_count(); ++i) {
        const auto it = std::find(b.receiver_names.begin(), b.receiver_names.end(), a.receiver_names[i]);
        if (it == b.receiver_names.end()) continue;
        const std::size_t j = std::size_t(it - b.receiver_names.begin());
        const double du = receiver_difference(a.displacement, b.displacement, i, j, nt, std::size_t(a.components));
        const double dv = receiver_difference(a.velocity, b.velocity, i, j, nt, std::size_t(a.components));
        worst = std::max({worst, du, dv});
        ++matched;
        std::printf("| %s | %.3g | %.3g |\n", a.receiver_names[i].c_str(), du, dv);
    }
    const std::size_t receivers = matched;
    // Probes (matched by name and element count): each element's received signal, relative to the
    // largest |b| over the probe's elements.
    for (const ProbeRecord& pa : a.probes) {
        const auto it = std::find_if(b.probes.begin(), b.probes.end(), [&](const ProbeRecord& pb) {
            return pb.name == pa.name && pb.element_signals.size() == pa.element_signals.size();
        });
        if (it == b.probes.end()) continue;
        double diff = 0, peak = 0;
        for (std::size_t k = 0; k < pa.element_signals.size(); ++k) {
            diff = std::max(diff, std::fabs(pa.element_signals[k] - it->element_signals[k]));
            peak = std::max(peak, std::fabs(it->element_signals[k]));
        }
        const double d = peak > 0 ? diff / peak : diff;
        worst = std::max(worst, d);
        ++matched;
        std::printf("| probe %s | | %.3g |\n", pa.name.c_str(), d);
    }
    std::size_t scans = 0;
    // A scan's every shot (matched when both files scan the same probe with as many values), relative
    // to the largest |b| over all shots.
    if (a.scan && b.scan && a.scan->probe == b.scan->probe &&
        a.scan->shot_signals.size() == b.scan->shot_signals.size()) {
        double diff = 0, peak = 0;
        for (std::size_t k = 0; k < a.scan->shot_signals.size(); ++k) {
            diff = std::max(diff, std::fabs(a.scan->shot_signals[k] - b.scan->shot_signals[k]));
            peak = std::max(peak, std::fabs(b.scan->shot_signals[k]));
        }
        const double d = peak > 0 ? diff / peak : diff;
        worst = std::max(worst, d);
        ++matched;
        ++scans;
        std::printf("| scan %s (%zu shots) | | %.3g |\n", a.scan->probe.c_str(), a.scan->shot_positions.size(), d);
    }
    if (matched == 0) throw InputError(o.a, "receivers", "no receiver or probe name is in both files");
    std::printf("largest relative difference %.3g over %zu receivers and %zu probes", worst, receivers,
                matched - receivers - scans);
    if (scans > 0) std::printf(" and the scan's %zu shots", a.scan->shot_positions.size());
    if (receivers > 0) std::printf("; eq. 18 error %.3g", paper_trace_error(a, b));
    std::printf("\n");
    if (o.tolerance >= 0 && !(worst <= o.tolerance)) {
        std::fprintf(stderr, "voxwave-cli: %s and %s differ by %.3g, above the tolerance %.3g\n", o.a.c_str(),
                     o.b.c_str(), worst, o.tolerance);
        return kDiffer;
    }
    return kOk;
}

}  // namespace

std::function<int()> add_compare_command(CLI::App& app) {
    auto o = std::make_shared<Options>();
    auto* sub = app.add_subcommand("compare",
                                   "Compare the receiver traces of two result files (exit 4 when they "
                                   "differ by more than --tolerance)");
    sub->add_option("a", o->a, "Result file (voxwave-result HDF5)")->required();
    sub->add_option("b", o->b, "Reference result file")->required();
    sub->add_option("--tolerance", o->tolerance, "Largest accepted relative difference")->check(CLI::NonNegativeNumber);
    return [o] { return compare(*o); };
}

}  // namespace voxwave::cli
