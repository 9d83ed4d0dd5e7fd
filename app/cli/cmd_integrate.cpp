// `voxwave-cli integrate`: the element-integration lab (issue 7) from the command line.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "integration/integration_lab.hpp"

namespace voxwave::cli {
namespace {
namespace ig = voxwave::integration;

struct IntegrateOptions {
    std::string element, variant = "shm", jacobian = "precomputed", precision = "fp32", backend = "auto";
    std::string problem = "elasticity", quadrature = "full", dump, markdown;
    int order = 0, threads = 0, repetitions = 3;
    long long elements = 10000, reference = 64;
    bool quiet = false;
};

int run(const IntegrateOptions& o) {
    ig::IntegrationParams p;
    p.element = ig::parse_element(o.element, "--element");
    p.order = o.order;
    p.elements = o.elements;
    p.variant = ig::parse_variant(o.variant, "--variant");
    p.jacobian = ig::parse_jacobian(o.jacobian, "--jacobian");
    if (o.precision != "fp32" && o.precision != "fp64")
        throw InputError("", "--precision", "unknown precision '" + o.precision + "' (fp32, fp64)");
    p.fp64 = o.precision == "fp64";
    p.backend = parse_backend(o.backend, "--backend");
    p.problem = ig::parse_problem(o.problem, "--problem");
    if (o.quadrature != "full" && o.quadrature != "eq7")
        throw InputError("", "--quadrature", "unknown rule '" + o.quadrature + "' (full, eq7)");
    p.hex_rule = o.quadrature == "eq7" ? ig::HexRule::PaperEq7 : ig::HexRule::Full;
    p.cpu_threads = o.threads;
    p.repetitions = o.repetitions;
    if (o.reference < 0) throw InputError("", "--reference-elements", "must be >= 0");
    p.reference_elements = o.reference;
    if (!o.dump.empty()) check_output_path(o.dump);
    if (!o.markdown.empty()) check_output_path(o.markdown);

    const ig::IntegrationResult r = ig::run_integration_lab(p, terminal_progress("integrate", o.quiet));
    finish_progress();
    if (!r.backend_note.empty() && !o.quiet) std::fprintf(stderr, "%s\n", r.backend_note.c_str());
    if (r.backend.rfind("cpu", 0) == 0 && p.variant != ig::Variant::SumFact && !o.quiet)
        std::fprintf(stderr, "the CPU runs the plain algorithm for every GPU thread mapping (ai, aii, reg, shm)\n");
    const double us = 1e6 / double(r.elements);
    std::printf("%s p=%d %s, %s, %s Jacobian, %s on %s: %lld elements, %d dofs, %d points\n", ig::to_string(p.element),
                p.order, ig::to_string(p.problem), ig::to_string(p.variant), ig::to_string(p.jacobian),
                o.precision.c_str(), r.backend.c_str(), static_cast<long long>(r.elements), r.ndofs, r.points);
    std::printf("per element: init %.4g us, transfer in %.4g us, kernel %.4g us, transfer out %.4g us\n", r.init_s * us,
                r.transfer_in_s * us, r.kernel_s * us, r.transfer_out_s * us);
    std::printf("kernel: %.4g GFLOP/s", r.gflops);
    if (r.peak_gflops > 0)
        std::printf(" (%.1f %% of the %.0f GFLOP/s peak)", 100 * r.gflops / r.peak_gflops, r.peak_gflops);
    std::printf("\n");
    if (r.cpu_core_s_per_element > 0)
        std::printf("one CPU core: %.4g us per element; speed-up %.3g (all stages), %.3g (kernel)\n",
                    r.cpu_core_s_per_element * 1e6, r.speedup_vs_core, r.kernel_speedup_vs_core);
    if (!o.markdown.empty()) {
        const bool fresh = !std::filesystem::exists(o.markdown);
        print_and_append((fresh ? ig::integration_markdown_header() + "\n" : std::string()) + r.markdown(p),
                         o.markdown);
    }
    if (!o.dump.empty()) {
        ig::write_stiffness_h5(o.dump, p, r);
        std::printf("wrote %s (/stiffness %d x %d of the first element, /ndofs)\n", o.dump.c_str(), r.ndofs, r.ndofs);
    }
    return kOk;
}
}  // namespace

std::function<int()> add_integrate_command(CLI::App& app) {
    auto o = std::make_shared<IntegrateOptions>();
    CLI::App* c =
        app.add_subcommand("integrate", "Element-integration lab: high-order hexahedra and prisms, CPU and CUDA");
    c->add_option("--element", o->element, "hex | prism")->required();
    c->add_option("--order", o->order, "Polynomial order p (hex 1..10, prism 2..7)")->required();
    c->add_option("--elements", o->elements, "Number of elements m")->capture_default_str();
    c->add_option("--variant", o->variant, "ai | aii | reg | shm | sumfact (hex)")->capture_default_str();
    c->add_option("--jacobian", o->jacobian, "precomputed (host, seed 003 nojac) | computed (device, jac)")
        ->capture_default_str();
    c->add_option("--precision", o->precision, "fp32 | fp64")->capture_default_str();
    c->add_option("--backend", o->backend, "auto | cpu | cuda")->capture_default_str();
    c->add_option("--problem", o->problem, "elasticity | laplace | convdiff")->capture_default_str();
    c->add_option("--quadrature", o->quadrature, "full | eq7 (seed 001 eq. 7; under-integrates p = 2)")
        ->capture_default_str();
    c->add_option("--threads", o->threads, "CPU backend threads (0 = all cores)")->capture_default_str();
    c->add_option("--repetitions", o->repetitions, "CUDA kernel launches per chunk (median)")->capture_default_str();
    c->add_option("--reference-elements", o->reference, "Elements timed on one CPU core for the speed-up (0 = skip)")
        ->capture_default_str();
    c->add_option("--dump", o->dump, "Write /stiffness of the first element and /ndofs to this HDF5 file");
    c->add_option("--markdown", o->markdown, "Append a results-table row (with a header for a new file)");
    c->add_flag("--quiet,-q", o->quiet, "No progress bar");
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
