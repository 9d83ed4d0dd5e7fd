#include "iga/iga_solver.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "iga/multifrontal_cpu.hpp"
#include "iga/multifrontal_cuda.hpp"
#include "iga/sparse_baseline.hpp"

namespace voxwave::iga {

namespace {
std::size_t sz(std::int64_t v) { return static_cast<std::size_t>(v); }
double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
constexpr int kMaxDegree = 8;

void validate(const IgaParams& p) {
    if (p.degree < 1 || p.degree > kMaxDegree)
        throw InputError("", "--degree",
                         "must be between 1 and " + std::to_string(kMaxDegree) + ", got " + std::to_string(p.degree));
    check_multifrontal_elements(p.elements);
    check_multifrontal_fits_in_memory(p.degree, p.elements);
    if (p.grid < 2 || p.grid > 10001) throw InputError("", "grid", "must be between 2 and 10001 samples per side");
}
}  // namespace

IgaResult solve_iga(const IgaParams& params, const ProgressFn& progress) {
    validate(params);
    IgaResult r;
    r.params = params;
    const Backend backend = resolve_backend(params.backend, r.backend_note, "--backend");
    r.backend = to_string(backend);

    const auto t0 = std::chrono::steady_clock::now();
    const IgaSpace s = make_iga_space(params.degree, params.elements);
    const IgaLoad load = iga_load(s, params.problem);
    const FrontTree tree = build_front_tree(s);
    r.setup_seconds = seconds_since(t0);
    r.dofs = s.dof_count();
    r.free_dofs = s.free_count();
    r.levels = static_cast<int>(tree.levels.size());
    r.max_front = tree.max_front;
    r.factor_flops = tree.factor_flops;

    if (backend == Backend::Cuda) {
        // The device runs the whole tree from one queue of launches: progress is start and end.
        if (progress && !progress(0, 1)) throw Cancelled{};
        CudaMultifrontalTimings ct;
        r.coefficients = multifrontal_solve_cuda(s, tree, load, &ct);
        if (progress) progress(1, 1);
        r.factor_seconds = ct.factor_seconds;
        r.solve_seconds = ct.solve_seconds;
        r.device_setup_seconds = ct.setup_seconds;
    } else {
        MultifrontalTimings mt;
        r.coefficients = multifrontal_solve_cpu(s, tree, load, params.parallel, &mt, progress);
        r.factor_seconds = mt.factor_seconds;
        r.solve_seconds = mt.solve_seconds;
        r.threads = mt.threads;
    }

    if (params.baseline) {
        const auto tb = std::chrono::steady_clock::now();
        const SparseSystem sys = assemble_sparse_system(s, load);
        r.baseline_assemble_seconds = seconds_since(tb);
        SparseTimings st;
        const std::vector<double> xs = sparse_direct_solve(s, sys, load, &st);
        r.baseline_solver = sparse_direct_solver_name();
        r.baseline_analyse_seconds = st.analyse_seconds;
        r.baseline_factor_seconds = st.factor_seconds;
        r.baseline_solve_seconds = st.solve_seconds;
        double diff = 0, scale = 0;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            diff = std::max(diff, std::abs(xs[i] - r.coefficients[i]));
            scale = std::max(scale, std::abs(xs[i]));
        }
        r.baseline_max_difference = scale > 0 ? diff / scale : diff;
    }

    r.l2_error = iga_l2_error(s, r.coefficients, params.problem);
    const int g = params.grid;
    r.x.resize(sz(std::int64_t(g) * g));
    r.y.resize(r.x.size());
    r.u.resize(r.x.size());
    for (int j = 0; j < g; ++j)
        for (int i = 0; i < g; ++i) {
            const std::size_t k = sz(std::int64_t(j) * g + i);
            r.x[k] = double(i) / (g - 1);
            r.y[k] = double(j) / (g - 1);
            r.u[k] = iga_evaluate(s, r.coefficients, r.x[k], r.y[k]);
        }
    return r;
}

}  // namespace voxwave::iga
