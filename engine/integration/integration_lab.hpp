// The element-integration lab (issue 7): one call that integrates a batch of high-order
// elements with a chosen variant and backend and reports seed 001 / seed 003 style timings.
// Front ends (voxwave-cli integrate, the GUI's Integration panel) call only this header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/progress.hpp"
#include "integration/integrate_cuda.hpp"
#include "integration/problem_coefficients.hpp"
#include "integration/quadrature.hpp"

namespace voxwave::integration {

struct IntegrationParams {
    ElementType element = ElementType::Hexahedron;
    int order = 3;                  // hexahedra 1..10, prisms 2..7
    std::int64_t elements = 10000;  // m
    Problem problem = Problem::Elasticity;
    Variant variant = Variant::Shm;  // CPU backend: sumfact = sum factorisation, others = plain
    JacobianMode jacobian = JacobianMode::Precomputed;
    bool fp64 = false;
    Backend backend = Backend::Auto;
    HexRule hex_rule = HexRule::Full;
    int cpu_threads = 0;       // CPU backend: 0 = all cores
    double distortion = 0.15;  // vertex jitter, fraction of the element size
    int repetitions = 3;       // CUDA: kernel launches per chunk (median kept)
    // Time one CPU core on this many elements (0: skip) for the speed-up column.
    std::int64_t reference_elements = 64;
    // Material / problem data: elasticity (E, nu), Laplace kappa, convection-diffusion eps, b, c.
    double young = 2.1e11, poisson = 0.3, kappa = 1.0, eps = 0.01, reaction = 0.0;
    double velocity[3] = {1.0, 0.5, 0.25};
};

struct IntegrationResult {
    std::string backend;       // "cpu (N threads)" or the device name
    std::string backend_note;  // why auto chose what it chose
    int shapes = 0, ndofs = 0, points = 0;
    std::int64_t elements = 0;
    // Stage times for the whole batch, seconds (seed 003's tables; divide by `elements`).
    double init_s = 0, transfer_in_s = 0, kernel_s = 0, transfer_out_s = 0;
    double flops_per_element = 0;       // operations the chosen algorithm executes
    double gflops = 0;                  // flops_per_element * elements / kernel_s
    double peak_gflops = 0;             // the device's peak in the run's precision (0: unknown / CPU)
    double cpu_core_s_per_element = 0;  // one CPU core, same algorithm and precision
    double speedup_vs_core = 0;         // cpu_core_s_per_element * elements / (all four stages)
    double kernel_speedup_vs_core = 0;  // the same against kernel time only
    std::vector<double> first_element;  // ndofs x ndofs, row-major
    std::string markdown(const IntegrationParams& p) const;  // one row of the results table
};

// Header of the markdown results table (stage times in microseconds per element).
std::string integration_markdown_header();

// Validates the parameters (InputError naming the option), builds the tables and elements,
// integrates, and times. progress(done, total) counts integrated elements: after every chunk of
// at most 1024 elements on the CPU, at the start and the end on CUDA; returning false cancels
// (Cancelled is thrown at the next check). Call it from a worker thread, never a GUI thread.
IntegrationResult run_integration_lab(const IntegrationParams& p, const ProgressFn& progress = {});

// One run per order, for a GFLOP/s-against-p plot; progress(done, total) counts runs.
std::vector<IntegrationResult> run_integration_sweep(IntegrationParams p, const std::vector<int>& orders,
                                                     const ProgressFn& progress = {});

// Operation counts per element (multiplications and additions) of the plain algorithm and of
// sum factorisation, for the GFLOP/s figures.
double plain_flops_per_element(const ReferenceTables& t, const ProblemCoefficients& c);
double sumfact_flops_per_element(const ReferenceTables& t, const ProblemCoefficients& c);

ElementType parse_element(const std::string& s, const std::string& field);
Variant parse_variant(const std::string& s, const std::string& field);
JacobianMode parse_jacobian(const std::string& s, const std::string& field);
const char* to_string(ElementType t);
const char* to_string(Variant v);
const char* to_string(JacobianMode j);

// Writes /stiffness (ndofs x ndofs, the first element) and /ndofs, plus attributes describing
// the run, atomically.
void write_stiffness_h5(const std::string& path, const IntegrationParams& p, const IntegrationResult& r);

}  // namespace voxwave::integration
