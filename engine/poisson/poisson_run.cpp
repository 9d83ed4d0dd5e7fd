#include "poisson/poisson_run.hpp"

#include <algorithm>
#include <chrono>

#include "core/errors.hpp"
#include "poisson/direct_solver_cuda.hpp"
#include "poisson/prehandling.hpp"

namespace voxwave::poisson {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

void validate_poisson_params(const PoissonParams& p) {
    check_poisson_levels(p.grid, p.level, p.coarse_level);
    if (p.rhs < 1 || p.rhs > 65535) throw InputError("", "--rhs", "must lie in 1 .. 65535");
    if (p.solution < 1 || p.solution > 1000) throw InputError("", "--solution", "must lie in 1 .. 1000");
    if (p.repetitions < 1 || p.repetitions > 1000) throw InputError("", "--repetitions", "must lie in 1 .. 1000");
    const BlockCounts c = block_counts(p.grid, p.level, p.coarse_level);
    if (double(c.N) * p.rhs * 8 * 6 > 64.0 * (1 << 30))
        throw InputError(
            "", "--rhs",
            "N x K = " + std::to_string(c.N) + " x " + std::to_string(p.rhs) + " right-hand sides are beyond memory");
}

PoissonResult run_poisson(const PoissonParams& params, const ProgressFn& progress) {
    validate_poisson_params(params);
    PoissonResult r;
    r.params = params;
    const bool gpu = resolve_backend(params.backend, r.backend_note) == Backend::Cuda;
    r.backend = gpu ? "cuda" : "cpu";
    auto step = [&](int done) {
        if (progress && !progress(done, 5)) throw Cancelled{};
    };

    auto t0 = std::chrono::steady_clock::now();
    const PoissonMesh mesh = refined_poisson_mesh(params.grid, params.level);
    const std::vector<int> dof = interior_dofs(mesh, &r.N);
    const SparseMatrixd A = assemble_stiffness(mesh, dof, r.N);
    const int K = params.rhs, distinct = std::min(K, 10);
    Eigen::MatrixXd b(r.N, K), u(r.N, distinct);
    for (int k = 0; k < distinct; ++k) {
        b.col(k) = assemble_load(mesh, dof, r.N, params.solution + k);
        u.col(k) = exact_at_dofs(mesh, dof, r.N, params.solution + k);
    }
    for (int k = distinct; k < K; ++k) b.col(k) = b.col(k % distinct);
    r.nodes.resize(r.N);
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
        if (dof[i] >= 0) r.nodes[dof[i]] = mesh.xy[i];
    r.timings.assembly = seconds_since(t0);
    step(1);

    t0 = std::chrono::steady_clock::now();
    PrehandleOptions options;
    if (gpu) options.spd_inverse = cuda_spd_inverse;
    const PrehandledPoisson p = prehandle(mesh, params.coarse_level, A, dof, options);
    r.timings.prehandling = seconds_since(t0);
    r.nC = p.nC;
    r.nE = p.nE;
    r.nI = p.nI;
    r.classes = static_cast<int>(p.classes.size());
    r.flops_per_rhs = direct_solve_flops(p);
    step(2);

    t0 = std::chrono::steady_clock::now();
    Eigen::MatrixXd bp = prehandle_rhs(p, b);
    // Each column scaled to max |b'| = 1: FP16 neither underflows (b ~ h^2) nor overflows.
    Eigen::VectorXd scale(K);
    for (int k = 0; k < K; ++k) {
        scale[k] = std::max(bp.col(k).cwiseAbs().maxCoeff(), 1e-300);
        bp.col(k) /= scale[k];
    }
    r.timings.transforms = seconds_since(t0);

    Eigen::MatrixXd xp;
    std::vector<double> times;
    if (gpu) {
        t0 = std::chrono::steady_clock::now();
        CudaPoissonSolver solver(p, params.precision);
        r.timings.upload = seconds_since(t0);
        xp = solver.solve(bp);
        step(3);
        r.timings.solve = solver.median_solve_seconds(params.repetitions);
    } else {
        const CpuPoissonSolver solver(p, params.precision);
        for (int rep = 0; rep < params.repetitions; ++rep) {
            t0 = std::chrono::steady_clock::now();
            xp = solver.solve(bp);
            times.push_back(seconds_since(t0));
            if (progress && !progress(2, 5)) throw Cancelled{};
        }
        r.timings.solve = median(times);
        step(3);
    }
    t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < K; ++k) xp.col(k) *= scale[k];
    r.solution = unprehandle_solution(p, xp);
    r.timings.transforms += seconds_since(t0);
    for (int k = 0; k < distinct; ++k) {
        const double e = (r.solution.col(k) - u.col(k)).norm() / u.col(k).norm();
        if (k == 0) r.relative_error = e;
        r.max_relative_error = std::max(r.max_relative_error, e);
    }
    r.gflops = r.flops_per_rhs * K / r.timings.solve / 1e9;
    r.mdofs = double(r.N) * K / r.timings.solve / 1e6;
    step(4);

    if (params.baselines) {
        for (int which = 0; which < 2; ++which) {
            BaselineResult br = which == 0 ? solve_sparse_cholesky(A, b) : solve_conjugate_gradient(A, b);
            r.baseline_errors.push_back((br.x.col(0) - r.solution.col(0)).norm() / r.solution.col(0).norm());
            br.x.resize(0, 0);
            r.baselines.push_back(std::move(br));
        }
    }
    step(5);
    return r;
}

}  // namespace voxwave::poisson
