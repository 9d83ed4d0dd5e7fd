#include "integration/integration_lab.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>

#include "core/errors.hpp"
#include "integration/element_batch.hpp"
#include "integration/integrate_cpu.hpp"
#include "integration/reference_tables.hpp"

namespace voxwave::integration {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void validate(const IntegrationParams& p) {
    if (p.element == ElementType::Hexahedron && (p.order < 1 || p.order > 10))
        throw InputError("", "--order", "hexahedra have orders 1..10 (seed 001), got " + std::to_string(p.order));
    if (p.element == ElementType::Prism && (p.order < 2 || p.order > 7))
        throw InputError("", "--order", "prisms have orders 2..7 (seed 003), got " + std::to_string(p.order));
    if (p.elements < 1 || p.elements > 10'000'000)
        throw InputError("", "--elements", "must be between 1 and 10000000, got " + std::to_string(p.elements));
    if (p.variant == Variant::SumFact && p.element != ElementType::Hexahedron)
        throw InputError("", "--variant", "sumfact needs hexahedra (prisms are not a tensor product of 1D bases)");
    if (!(p.distortion >= 0 && p.distortion <= 0.2))
        throw InputError("", "distortion", "must be in [0, 0.2] (larger jitter can invert elements)");
    if (p.problem == Problem::Elasticity && !(p.young > 0 && p.poisson >= 0 && p.poisson < 0.5))
        throw InputError("", "material", "needs E > 0 and 0 <= nu < 0.5");
    if (p.repetitions < 1 || p.repetitions > 100) throw InputError("", "--repetitions", "must be in 1..100");
    if (p.cpu_threads < 0) throw InputError("", "--threads", "must be >= 0");
}

ProblemCoefficients coefficients_of(const IntegrationParams& p) {
    switch (p.problem) {
        case Problem::Laplace:
            return laplace_coefficients(p.kappa);
        case Problem::ConvectionDiffusion:
            return convection_diffusion_coefficients(p.eps, p.velocity, p.reaction);
        case Problem::Elasticity:
            break;
    }
    const double lambda = p.young * p.poisson / ((1 + p.poisson) * (1 - 2 * p.poisson));
    const double mu = p.young / (2 * (1 + p.poisson));
    return elasticity_coefficients(lambda, mu);
}

void report(const ProgressFn* progress, std::int64_t done, std::int64_t total) {
    if (progress && *progress && !(*progress)(done, total)) throw Cancelled{};
}

// CPU batch in chunks (the matrices of a large batch need not fit in memory; a front end can
// cancel between chunks), keeping the first element's matrix.
template <class Real>
double cpu_batch(const ReferenceTables& t, const ProblemCoefficients& c, const ElementBatch& b, CpuAlgorithm alg,
                 int threads, std::vector<double>* first, const ProgressFn* progress = nullptr) {
    const std::size_t mat = std::size_t(c.equations) * t.nsh * std::size_t(c.equations) * t.nsh;
    const std::int64_t chunk =
        std::clamp<std::int64_t>(std::int64_t((std::size_t(256) << 20) / (mat * sizeof(Real))), 1, 1024);
    std::vector<Real> k;
    double seconds = 0;
    for (std::int64_t e0 = 0; e0 < b.count; e0 += chunk) {
        ElementBatch part;
        part.type = b.type;
        part.vertices = b.vertices;
        part.count = std::min(chunk, b.count - e0);
        part.xv.assign(b.xv.begin() + e0 * b.vertices * 3, b.xv.begin() + (e0 + part.count) * b.vertices * 3);
        const auto t0 = std::chrono::steady_clock::now();
        integrate_batch_cpu<Real>(t, c, part, alg, threads, k);
        seconds += seconds_since(t0);
        if (e0 == 0 && first) first->assign(k.begin(), k.begin() + mat);
        report(progress, e0 + part.count, b.count);
    }
    return seconds;
}

}  // namespace

double plain_flops_per_element(const ReferenceTables& t, const ProblemCoefficients& c) {
    const double nsh = t.nsh, np = c.pairs(), ne = c.equations;
    const double jacobian = 2.0 * 9 * t.nv + 60;  // J from the vertices, its inverse and determinant
    return t.nq * (jacobian + 18.0 * nsh + 2.0 * np * nsh * nsh) + 2.0 * np * ne * ne * nsh * nsh;
}

double sumfact_flops_per_element(const ReferenceTables& t, const ProblemCoefficients& c) {
    const double n = t.points_1d, pp = t.order + 1, npre = double(t.prefixes.size()), nsh = t.nsh;
    const double np = c.pairs(), ne = c.equations;
    // Active reference-derivative pairs (r, s): 9 for gradient-only problems, 16 with values;
    // stage 3 runs once per z pattern (4); symmetric problems skip the blocks below the diagonal.
    const double rs = c.problem == Problem::ConvectionDiffusion ? 16 : 9;
    const double blocks = c.symmetric() ? ne * (ne + 1) / 2 : ne * ne;
    const double xy = t.nq * (4 * np + 1) + pp * pp * (n + 2 * n * n * n) + npre * npre * (n + 2 * n * n);
    const double z = 3 * nsh * nsh * n;
    return t.nq * (2.0 * 9 * t.nv + 60) + blocks * (rs * xy + 4 * z);
}

IntegrationResult run_integration_lab(const IntegrationParams& p, const ProgressFn& progress) {
    validate(p);
    IntegrationResult r;
    r.elements = p.elements;
    const bool use_cuda = resolve_backend(p.backend, r.backend_note) == Backend::Cuda;
    const ProblemCoefficients c = coefficients_of(p);
    auto t0 = std::chrono::steady_clock::now();
    const ReferenceTables t = make_reference_tables(p.element, p.order, p.hex_rule);
    const ElementBatch b = make_element_batch(p.element, p.elements, 0.01, p.distortion);
    const double setup_s = seconds_since(t0);
    r.shapes = t.nsh;
    r.ndofs = c.equations * t.nsh;
    r.points = t.nq;
    const CpuAlgorithm alg = p.variant == Variant::SumFact ? CpuAlgorithm::SumFactorisation : CpuAlgorithm::Plain;
    r.flops_per_element =
        alg == CpuAlgorithm::SumFactorisation ? sumfact_flops_per_element(t, c) : plain_flops_per_element(t, c);
    report(&progress, 0, p.elements);

    if (use_cuda) {
        CudaIntegrationRequest q;
        q.tables = &t;
        q.coefficients = &c;
        q.batch = &b;
        q.variant = p.variant;
        q.jacobian = p.jacobian;
        q.fp64 = p.fp64;
        q.repetitions = p.repetitions;
        q.keep_matrices = 1;
        const CudaIntegrationTiming tm = integrate_batch_cuda(q, r.first_element);
        r.backend = tm.device;
        if (!tm.sumfact_design.empty())
            r.backend_note += (r.backend_note.empty() ? "" : "; ") + std::string("sumfact: ") + tm.sumfact_design;
        r.init_s = tm.init_s;
        r.transfer_in_s = tm.transfer_in_s;
        r.kernel_s = tm.kernel_s;
        r.transfer_out_s = tm.transfer_out_s;
        r.peak_gflops = p.fp64 ? tm.fp64_peak_gflops : tm.fp32_peak_gflops;
    } else {
        const int threads = p.cpu_threads > 0 ? p.cpu_threads : omp_get_max_threads();
        r.backend = "cpu (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
        r.init_s = setup_s;
        r.kernel_s = p.fp64 ? cpu_batch<double>(t, c, b, alg, threads, &r.first_element, &progress)
                            : cpu_batch<float>(t, c, b, alg, threads, &r.first_element, &progress);
    }
    report(&progress, p.elements, p.elements);
    r.gflops = r.kernel_s > 0 ? r.flops_per_element * double(p.elements) / r.kernel_s / 1e9 : 0;

    if (p.reference_elements > 0) {
        // One element at a time until reference_elements are done or half a second is spent
        // (a p = 10 element takes seconds on one core).
        double s = 0;
        std::int64_t done = 0;
        for (; done < std::min(p.reference_elements, b.count) && (done == 0 || s < 0.5); ++done) {
            ElementBatch one;
            one.type = b.type;
            one.vertices = b.vertices;
            one.count = 1;
            one.xv.assign(b.element(done), b.element(done) + b.vertices * 3);
            s += p.fp64 ? cpu_batch<double>(t, c, one, alg, 1, nullptr) : cpu_batch<float>(t, c, one, alg, 1, nullptr);
        }
        r.cpu_core_s_per_element = s / double(done);
        const double total = r.init_s + r.transfer_in_s + r.kernel_s + r.transfer_out_s;
        r.speedup_vs_core = total > 0 ? r.cpu_core_s_per_element * double(p.elements) / total : 0;
        r.kernel_speedup_vs_core = r.kernel_s > 0 ? r.cpu_core_s_per_element * double(p.elements) / r.kernel_s : 0;
    }
    return r;
}

std::vector<IntegrationResult> run_integration_sweep(IntegrationParams p, const std::vector<int>& orders,
                                                     const ProgressFn& progress) {
    std::vector<IntegrationResult> out;
    for (std::size_t i = 0; i < orders.size(); ++i) {
        p.order = orders[i];
        out.push_back(run_integration_lab(p));
        report(&progress, std::int64_t(i + 1), std::int64_t(orders.size()));
    }
    return out;
}

std::string IntegrationResult::markdown(const IntegrationParams& p) const {
    const double m = double(elements) / 1e6;  // microseconds per element = seconds / (m / 1e6)
    char buf[1024];
    std::snprintf(
        buf, sizeof buf,
        "| %s | %d | %s | %s | %s | %s | %s | %lld | %d | %d | %.4g | %.4g | %.4g | %.4g | %.4g | %.1f | %s | "
        "%.3g | %.3g |",
        to_string(p.element), p.order, to_string(p.problem), to_string(p.variant), to_string(p.jacobian),
        p.fp64 ? "fp64" : "fp32", backend.c_str(), static_cast<long long>(elements), ndofs, points, init_s / m,
        transfer_in_s / m, kernel_s / m, transfer_out_s / m, cpu_core_s_per_element * 1e6, gflops,
        peak_gflops > 0 ? (std::to_string(int(100 * gflops / peak_gflops + 0.5)) + " %").c_str() : "-", speedup_vs_core,
        kernel_speedup_vs_core);
    return buf;
}

std::string integration_markdown_header() {
    return "| element | p | problem | variant | jacobian | precision | backend | m | ndofs | n_q | init us/el | "
           "in us/el | kernel us/el | out us/el | 1 CPU core us/el | GFLOP/s | of peak | speed-up (all stages) | "
           "speed-up (kernel) |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
}

ElementType parse_element(const std::string& s, const std::string& field) {
    if (s == "hex" || s == "hexahedron") return ElementType::Hexahedron;
    if (s == "prism") return ElementType::Prism;
    throw InputError("", field, "unknown element '" + s + "' (hex, prism)");
}

Variant parse_variant(const std::string& s, const std::string& field) {
    if (s == "ai") return Variant::Ai;
    if (s == "aii") return Variant::Aii;
    if (s == "reg") return Variant::Reg;
    if (s == "shm") return Variant::Shm;
    if (s == "sumfact") return Variant::SumFact;
    throw InputError("", field, "unknown variant '" + s + "' (ai, aii, reg, shm, sumfact)");
}

JacobianMode parse_jacobian(const std::string& s, const std::string& field) {
    if (s == "precomputed" || s == "nojac") return JacobianMode::Precomputed;
    if (s == "computed" || s == "jac") return JacobianMode::Computed;
    throw InputError("", field, "unknown Jacobian mode '" + s + "' (precomputed, computed)");
}

const char* to_string(ElementType t) { return t == ElementType::Hexahedron ? "hex" : "prism"; }
const char* to_string(Variant v) {
    switch (v) {
        case Variant::Ai:
            return "ai";
        case Variant::Aii:
            return "aii";
        case Variant::Reg:
            return "reg";
        case Variant::Shm:
            return "shm";
        case Variant::SumFact:
            return "sumfact";
    }
    return "?";
}
const char* to_string(JacobianMode j) { return j == JacobianMode::Precomputed ? "precomputed" : "computed"; }

}  // namespace voxwave::integration
