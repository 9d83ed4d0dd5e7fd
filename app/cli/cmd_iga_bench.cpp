// `voxwave-cli iga-bench`: time of the multi-frontal IGA solver against N and p for the CPU
// (one thread, all threads) and CUDA backends, beside the sparse direct baseline on the same
// assembled matrix; fitted exponents next to the seed's estimates; the L2 convergence table.
// Benchmarks are never tests: this writes a markdown report, nothing asserts a time.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "iga/iga_cost.hpp"
#include "iga/iga_solver.hpp"
#include "iga/multifrontal_cpu.hpp"
#include "iga/multifrontal_cuda.hpp"
#include "iga/sparse_baseline.hpp"

namespace voxwave::cli {
namespace {
using namespace voxwave::iga;

struct IgaBenchOptions {
    std::vector<int> degrees{1, 2, 3, 4}, elements{16, 32, 64, 128, 256};
    std::vector<std::string> backends{"cpu-seq", "cpu-par"};
    std::vector<int> convergence_elements{8, 16, 32, 64};
    bool no_baseline = false;
    int repeat = 3;
    double max_case_seconds = 60;
    std::string out, command_line;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? NAN : v[v.size() / 2];
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0, s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i])), s = std::max(s, std::abs(b[i]));
    return s > 0 ? d / s : d;
}

std::string fmt(double v, const char* f = "%.3g") {
    if (std::isnan(v)) return "-";
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

struct Case {
    int p, N;
    std::int64_t unknowns;
    int max_front;
    double flops;
    std::map<std::string, double> seconds;  // backend -> median factor + solve
    double baseline_numeric = NAN, baseline_total = NAN, worst_diff = 0;
    double cusolver = NAN;    // cuSOLVER sparse Cholesky on the GPU (device time), the GPU baseline
    double cuda_setup = NAN;  // allocations, uploads, pointer tables (not in the cuda column)
};

std::string table_row(const IgaBenchOptions& o, const Case& c, bool want_cuda) {
    std::ostringstream md;
    md << "| " << c.p << " | " << c.N << " | " << c.unknowns << " | " << c.max_front << " | " << fmt(c.flops * 1e-9)
       << " |";
    for (const auto& b : o.backends) md << " " << (c.seconds.count(b) ? fmt(c.seconds.at(b)) : "-") << " |";
    if (!o.no_baseline) md << " " << fmt(c.baseline_numeric) << " | " << fmt(c.baseline_total) << " |";
    if (want_cuda) md << " " << fmt(c.cuda_setup) << " |";
    if (want_cuda && !o.no_baseline)
        md << " " << (c.seconds.count("cuda") ? fmt(c.baseline_total / c.seconds.at("cuda"), "%.2f") : "-") << " | "
           << fmt(c.cusolver) << " | "
           << (c.seconds.count("cuda") && !std::isnan(c.cusolver) ? fmt(c.cusolver / c.seconds.at("cuda"), "%.2f")
                                                                  : "-")
           << " |";
    md << "\n";
    return md.str();
}

int run(const IgaBenchOptions& o) {
    for (const auto& b : o.backends)
        if (b != "cpu-seq" && b != "cpu-par" && b != "cuda")
            throw InputError("", "--backends", "unknown backend '" + b + "' (expected cpu-seq, cpu-par or cuda)");
    for (int p : o.degrees)
        if (p < 1 || p > 8) throw InputError("", "--degrees", "each degree must be between 1 and 8");
    for (int n : o.elements) check_multifrontal_elements(n);
    for (int n : o.convergence_elements) check_multifrontal_elements(n);
    if (o.repeat < 1) throw InputError("", "--repeat", "must be at least 1");
    const bool want_cuda = std::find(o.backends.begin(), o.backends.end(), "cuda") != o.backends.end();
    std::string gpu;
    if (want_cuda) {
        std::string why;
        const auto devs = cuda_devices(&why);
        if (devs.empty()) throw InputError("", "--backends", "cuda requested but " + why);
        gpu = devs[0].name;
    }
    if (!o.out.empty()) check_output_path(o.out);

    std::vector<Case> cases;
    std::map<std::pair<std::string, int>, bool> gave_up;  // (backend, p) past max_case_seconds
    for (int p : o.degrees)
        for (int N : o.elements) {
            const IgaSpace s = make_iga_space(p, N);
            const IgaLoad load = iga_load(s, IgaProblemKind::Manufactured);
            const FrontTree t = build_front_tree(s);
            Case c{p, N, s.free_count(), t.max_front, t.factor_flops, {}};
            std::vector<double> reference;
            for (const auto& b : o.backends) {
                if (gave_up[{b, p}]) continue;
                std::fprintf(stderr, "p=%d N=%d %s...\n", p, N, b.c_str());
                std::vector<double> times, setups, x;
                for (int r = 0; r < o.repeat + (b == "cuda" ? 1 : 0); ++r) {
                    double secs = 0;
                    if (b == "cuda") {
                        CudaMultifrontalTimings ct;
                        x = multifrontal_solve_cuda(s, t, load, &ct);
                        secs = ct.factor_seconds + ct.solve_seconds;
                        if (r == 0) continue;  // warm-up: library kernels load on first use
                        setups.push_back(ct.setup_seconds);
                    } else {
                        MultifrontalTimings mt;
                        x = multifrontal_solve_cpu(s, t, load, b == "cpu-par", &mt);
                        secs = mt.factor_seconds + mt.solve_seconds;
                    }
                    times.push_back(secs);
                }
                c.seconds[b] = median(times);
                if (reference.empty())
                    reference = x;
                else
                    c.worst_diff = std::max(c.worst_diff, max_difference(x, reference));
                if (b == "cuda") c.cuda_setup = median(setups);
                // The next N costs about 8x (the top front grows like N^1.5 in unknowns).
                if (8 * c.seconds[b] * o.repeat > o.max_case_seconds) gave_up[{b, p}] = true;
            }
            if (!o.no_baseline && !gave_up[{"baseline", p}]) {
                std::fprintf(stderr, "p=%d N=%d baseline...\n", p, N);
                const SparseSystem sys = assemble_sparse_system(s, load);
                std::vector<double> numeric, total, x;
                for (int r = 0; r < o.repeat; ++r) {
                    SparseTimings st;
                    x = sparse_direct_solve(s, sys, load, &st);
                    numeric.push_back(st.factor_seconds + st.solve_seconds);
                    total.push_back(st.analyse_seconds + st.factor_seconds + st.solve_seconds);
                }
                c.baseline_numeric = median(numeric);
                c.baseline_total = median(total);
                if (!reference.empty()) c.worst_diff = std::max(c.worst_diff, max_difference(x, reference));
                if (8 * c.baseline_total * o.repeat > o.max_case_seconds) gave_up[{"baseline", p}] = true;
                if (want_cuda && !gave_up[{"cusolver", p}]) {
                    std::fprintf(stderr, "p=%d N=%d cuSOLVER sparse...\n", p, N);
                    std::vector<double> dev;
                    for (int r = 0; r <= o.repeat; ++r) {
                        double secs = 0;
                        x = sparse_direct_solve_cusolver(s, sys, load, &secs);
                        if (r > 0) dev.push_back(secs);  // the first call loads the library's kernels
                    }
                    c.cusolver = median(dev);
                    if (!reference.empty()) c.worst_diff = std::max(c.worst_diff, max_difference(x, reference));
                    if (8 * c.cusolver * o.repeat > o.max_case_seconds) gave_up[{"cusolver", p}] = true;
                }
            }
            cases.push_back(c);
            // Each row also goes to stderr as it is measured: a run cut short keeps its numbers.
            std::fprintf(stderr, "%s", table_row(o, c, want_cuda).c_str());
        }

    std::ostringstream md;
    md << "## IGA multi-frontal solver benchmark (seed 004), " << utc_timestamp() << "\n\n";
    md << "- machine: " << cpu_model() << ", " << omp_get_max_threads() << " OpenMP threads (host " << host_name()
       << ")";
    if (!gpu.empty()) md << "; GPU " << gpu;
    md << "\n- command: `" << o.command_line << "`\n";
    // Spinning idle OpenMP threads (the default policy) fight OpenBLAS's threads inside CHOLMOD:
    // measured up to 20x slower baselines on the H100 host. Say which policy ran.
    const char* wait = std::getenv("OMP_WAIT_POLICY");
    md << "- OMP_WAIT_POLICY=" << (wait ? wait : "(unset)")
       << (wait && std::string(wait) == "PASSIVE" ? "" : " (baseline times may be inflated: set PASSIVE)") << "\n";
    md << "- problem: manufactured (u = cos(pi x1) sin(pi x2)), Dirichlet at x2 = 0, 1; N x N elements, degree p, "
          "C^(p-1)\n";
    md << "- times: median of " << o.repeat << " runs" << (want_cuda ? " (CUDA: after one warm-up run)" : "")
       << "; multi-frontal = numeric factorisation + backward substitution (the symbolic tree and the leaf "
          "tables are shared setup, not timed); baseline = "
       << sparse_direct_solver_name() << " on the same assembled matrix, `numeric` = factor + solve, `total` adds its "
       << "ordering/analysis. `-` = not run (8 x the previous case's time, the predicted cost, was over "
       << o.max_case_seconds << " s).\n";
    md << "- every backend's solution agrees with the first one and with the baseline (max relative difference over "
          "all cases: ";
    double worst = 0;
    for (const Case& c : cases) worst = std::max(worst, c.worst_diff);
    md << fmt(worst, "%.1e") << ")\n\n";
    md << "| p | N | unknowns | largest front | counted Gflop |";
    for (const auto& b : o.backends) md << " " << b << " (s) |";
    if (!o.no_baseline) md << " baseline numeric (s) | baseline total (s) |";
    if (want_cuda) md << " cuda setup (s) |";
    if (want_cuda && !o.no_baseline)
        md << " baseline total / cuda | cuSOLVER sparse Cholesky, GPU (s) | cuSOLVER / cuda |";
    md << "\n|---|---|---|---|---|";
    if (want_cuda) md << "---|";
    for (std::size_t i = 0; i < o.backends.size(); ++i) md << "---|";
    if (!o.no_baseline) md << "---|---|";
    if (want_cuda && !o.no_baseline) md << "---|---|---|";
    md << "\n";
    for (const Case& c : cases) md << table_row(o, c, want_cuda);

    // Exponents: time ~ unknowns^a per (backend, p) over N >= 64 (smaller cases are overhead),
    // and time ~ p^b at the largest N every degree 2..4 reached.
    md << "\n### Fitted exponents\n\n";
    md << "Seed (Table 7, 2D): sequential O(N^1.5 p^3), parallel shared memory O(N p^2), N = unknowns. "
          "`counted` is the flop count of our own tree (what a perfect machine would show).\n\n";
    std::vector<std::string> series = o.backends;
    series.insert(series.begin(), "counted");
    if (!o.no_baseline) series.push_back("baseline");
    auto value_of = [](const Case& c, const std::string& b) {
        if (b == "counted") return c.flops;
        if (b == "baseline") return c.baseline_total;
        return c.seconds.count(b) ? c.seconds.at(b) : NAN;
    };
    md << "| series | p | exponent of N (N >= 64 elements per side) |\n|---|---|---|\n";
    for (const auto& b : series)
        for (int p : o.degrees) {
            std::vector<double> x, y;
            for (const Case& c : cases)
                if (c.p == p && c.N >= 64) x.push_back(double(c.unknowns)), y.push_back(value_of(c, b));
            md << "| " << b << " | " << p << " | " << fmt(fitted_exponent(x, y), "%.2f") << " |\n";
        }
    md << "\n| series | N | exponent of p (p = 2..4) |\n|---|---|---|\n";
    for (const auto& b : series) {
        int best_n = 0;
        for (int N : o.elements) {
            int got = 0;
            for (const Case& c : cases)
                if (c.N == N && c.p >= 2 && c.p <= 4 && !std::isnan(value_of(c, b))) ++got;
            if (got >= 2) best_n = N;
        }
        if (!best_n) continue;
        std::vector<double> x, y;
        for (const Case& c : cases)
            if (c.N == best_n && c.p >= 2 && c.p <= 4) x.push_back(c.p), y.push_back(value_of(c, b));
        md << "| " << b << " | " << best_n << " | " << fmt(fitted_exponent(x, y), "%.2f") << " |\n";
    }

    // L2 convergence on the manufactured problem.
    md << "\n### L2 error of the manufactured problem (rate = log2 of successive ratios; expected p + 1)\n\n";
    md << "| p | N | L2 error | rate |\n|---|---|---|---|\n";
    for (int p : o.degrees) {
        double prev = NAN;
        for (int N : o.convergence_elements) {
            IgaParams q;
            q.degree = p;
            q.elements = N;
            q.problem = IgaProblemKind::Manufactured;
            q.backend = Backend::Cpu;
            q.baseline = false;
            q.grid = 2;
            const double e = solve_iga(q).l2_error;
            md << "| " << p << " | " << N << " | " << fmt(e, "%.3e") << " | "
               << (std::isnan(prev) ? "-" : fmt(std::log2(prev / e), "%.2f")) << " |\n";
            prev = e;
        }
    }
    print_and_append(md.str(), o.out);
    return kOk;
}
}  // namespace

std::function<int()> add_iga_bench_command(CLI::App& app) {
    auto o = std::make_shared<IgaBenchOptions>();
    CLI::App* c =
        app.add_subcommand("iga-bench", "Time the IGA multi-frontal solver against N and p (markdown report)");
    c->add_option("--degrees", o->degrees, "Degrees p (default 1 2 3 4)");
    c->add_option("--elements", o->elements, "Elements per side N, powers of two (default 16 32 64 128 256)");
    c->add_option("--backends", o->backends, "cpu-seq cpu-par cuda (default cpu-seq cpu-par)");
    c->add_option("--convergence-elements", o->convergence_elements, "N of the L2 convergence table (default 8..64)");
    c->add_flag("--no-baseline", o->no_baseline, "Skip the sparse direct baseline");
    c->add_option("--repeat", o->repeat, "Timed runs per case, median reported (default 3)");
    c->add_option("--max-case-seconds", o->max_case_seconds,
                  "Stop growing N for a backend and p once the next case would take about this long (default 60)");
    c->add_option("--out,-o", o->out, "Append the markdown report to this file");
    return [o, c] {
        o->command_line = echo_command_line("voxwave-cli iga-bench", *c);
        return run(*o);
    };
}

}  // namespace voxwave::cli
