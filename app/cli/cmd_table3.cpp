// `voxwave-cli table3`: seed 000's Table 3. One product K u of the OVFEM stiffness with a random
// u, computed in FP128 (the reference), FP64, FP32 and TCOVFEM INT8 with M = 4 and M = 8 stages
// (CPU emulation; and the CUDA engine's products when the backend is cuda), compared on the
// component of K u that is largest in FP128 and on the whole vector.
#include <quadmath.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/backend.hpp"
#include "core/errors.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "wave/stiffness_quad_reference.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {
namespace {

struct Table3Options {
    std::string scene = std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json";
    std::string backend = "auto", out;
    double spacing = 0.002;
    std::uint64_t seed = 1;
};

// One computation of Table 3.
struct Variant {
    const char* label;
    Method method;
    Precision precision;
    int stages;
    int fraction_bits;
    const char* paper_value;  // seed 000 Table 3 (its own random vector)
};

const Variant kVariants[] = {
    {"FP64", Method::Ovfem, Precision::Fp64, 8, 52, "507813.6905925632"},
    {"FP32", Method::Ovfem, Precision::Fp32, 8, 23, "507814.750"},
    {"INT8 (M=4)", Method::Tcovfem, Precision::Fp64, 4, 28, "507813.7802133318"},
    {"INT8 (M=8)", Method::Tcovfem, Precision::Fp64, 8, 56, "507813.6905925595"},
};
const char* const kPaperFp128 = "507813.690592559616827867910192902549";

std::string quad_text(Quad v) {
    char buf[128];
    quadmath_snprintf(buf, sizeof buf, "%.36Qg", v);
    return buf;
}

Quad quad_abs(Quad v) { return v < 0 ? -v : v; }

std::string sci(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3e", v);
    return buf;
}

struct Row {
    std::string label, where;
    int bits = 0;
    std::string value, component_error, vector_error, paper;
};

int run(const Table3Options& o) {
    check_spacing(o.spacing, "", "--spacing");
    const Backend requested = parse_backend(o.backend, "--backend");
    if (!o.out.empty()) check_output_path(o.out);
    const Scene scene = read_scene_json(o.scene, [&o](Scene& s) {
        s.grid.spacing = o.spacing;
        // Only K u is computed: any stable dt will do, one step.
        s.run.dt = 0;
        s.run.steps = 1;
    });
    std::string note;
    const Backend backend = resolve_backend(requested, note);

    // One problem per computation, as a run with those settings would build it.
    std::vector<WaveProblem> problems;
    for (const Variant& v : kVariants) {
        Scene s = scene;
        s.run.method = v.method;
        s.run.precision = v.precision;
        s.run.stages = v.stages;
        s.run.backend = backend;
        problems.push_back(build_wave_problem(s, o.scene));
    }
    const WaveProblem& base = problems.front();
    const VoxelGrid& g = base.grid;
    const std::size_t nn = g.node_count();
    std::fprintf(stderr, "table3: %d x %d x %d elements at %g m (%zu elements, %zu nodes)\n", g.n[0], g.n[1], g.n[2],
                 g.spacing, g.element_count(), nn);

    // Random u in [-1, 1], SoA; nodes that never move (fixed, or touching no element) are 0,
    // as CpuTimeStepper::set_state makes them.
    std::vector<double> u(3 * nn);
    std::mt19937_64 rng(o.seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (double& v : u) v = uniform(rng);
    std::vector<bool> still = base.boundary.fixed_mask(nn);
    for (std::size_t n = 0; n < nn; ++n)
        if (!(base.node_mass[n] > 0)) still[n] = true;
    for (std::size_t n = 0; n < nn; ++n)
        if (still[n])
            for (int c = 0; c < 3; ++c) u[c * nn + n] = 0.0;

    std::fprintf(stderr, "table3: FP128 reference product (software quad precision)...\n");
    const std::vector<Quad> ref = stiffness_times_quad(g, base.materials, ElementMethod::Ovfem, u);
    std::size_t pick = 0;
    Quad ref_norm2 = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        ref_norm2 += ref[i] * ref[i];
        if (quad_abs(ref[i]) > quad_abs(ref[pick])) pick = i;
    }
    if (ref_norm2 == 0) throw InputError(o.scene, "shapes", "K u is zero for this model (nothing can be compared)");
    const Quad ref_value = ref[pick];
    const Quad paper_fp128 = strtoflt128(kPaperFp128, nullptr);

    auto make_row = [&](const Variant& v, const char* where, const std::vector<double>& y) {
        Quad err2 = 0;
        for (std::size_t i = 0; i < y.size(); ++i) {
            const Quad d = Quad(y[i]) - ref[i];
            err2 += d * d;
        }
        char value[64];
        std::snprintf(value, sizeof value, "%.17g", y[pick]);  // exact FP32 values print exactly too
        const Quad paper = strtoflt128(v.paper_value, nullptr);
        return Row{v.label,
                   where,
                   v.fraction_bits,
                   value,
                   sci(double(quad_abs(Quad(y[pick]) - ref_value) / quad_abs(ref_value))),
                   sci(std::sqrt(double(err2 / ref_norm2))),
                   std::string(v.paper_value) + " (" + sci(double(quad_abs(paper - paper_fp128) / paper_fp128)) + ")"};
    };

    std::vector<Row> rows;
    rows.push_back({"FP128", "cpu", 112, quad_text(ref_value), sci(0), sci(0), std::string(kPaperFp128) + " (0)"});
    for (std::size_t v = 0; v < std::size(kVariants); ++v) {
        std::fprintf(stderr, "table3: %s on the cpu...\n", kVariants[v].label);
        const std::vector<double> y = kVariants[v].precision == Precision::Fp64
                                          ? CpuTimeStepper<double>(problems[v]).stiffness_times(u)
                                          : CpuTimeStepper<float>(problems[v]).stiffness_times(u);
        rows.push_back(make_row(kVariants[v], "cpu", y));
    }
    if (backend == Backend::Cuda)
        for (std::size_t v = 0; v < std::size(kVariants); ++v) {
            std::fprintf(stderr, "table3: %s on the gpu...\n", kVariants[v].label);
            rows.push_back(make_row(kVariants[v], "cuda", CudaTimeStepper(problems[v]).stiffness_times(u)));
        }

    const std::size_t node = pick % nn;
    const int comp = static_cast<int>(pick / nn);
    const int ni = static_cast<int>(node % std::size_t(g.n[0] + 1));
    const int nj = static_cast<int>((node / std::size_t(g.n[0] + 1)) % std::size_t(g.n[1] + 1));
    const int nk = static_cast<int>(node / (std::size_t(g.n[0] + 1) * std::size_t(g.n[1] + 1)));
    const auto pos = g.node_position(ni, nj, nk);

    std::ostringstream md;
    md << "## Table 3 (seed 000): one component of K u for a random u, OVFEM stiffness\n\n";
    md << "- scene: " << o.scene << ", ds = " << g.spacing << " m: " << g.n[0] << " x " << g.n[1] << " x " << g.n[2]
       << " elements (" << g.element_count() << " elements, " << nn << " nodes)\n";
    md << "- u: uniform in [-1, 1] from std::mt19937_64 seed " << o.seed
       << ", drawn in SoA order [component][node]; fixed nodes and nodes with no element set to 0\n";
    md << "- component: "
       << "xyz"[comp] << " at node (" << ni << ", " << nj << ", " << nk << "), position (" << pos[0] << ", " << pos[1]
       << ", " << pos[2] << ") m: the largest |(K u)_i| in FP128\n";
    md << "- " << (backend == Backend::Cuda ? "cuda: " + note : "cuda: not run (" + note + ")") << "\n";
    md << "- INT8 rows: TCOVFEM (INT8 digits + FP64 diagonal); on the cpu an exact emulation of the Tensor Core "
          "algorithm\n\n";
    md << "| computation | where | fraction bits | value of (K u)_i | rel. error of (K u)_i | "
          "rel. error of K u (2-norm) | paper's value (its rel. error) |\n";
    md << "|---|---|---|---|---|---|---|\n";
    for (const Row& r : rows)
        md << "| " << r.label << " | " << r.where << " | " << r.bits << " | " << r.value << " | " << r.component_error
           << " | " << r.vector_error << " | " << r.paper << " |\n";
    md << "\nThe paper's values are for its own random vector (ds = 2 mm; its scale, hence the size of K u, differs "
          "from ours), so only the pattern of the errors is comparable: FP32 and INT8 M=4 1e-9 .. 1e-6, FP64 and INT8 "
          "M=8 "
          "~1e-16 (M=8 as accurate as FP64).\n";
    print_and_append(md.str(), o.out);
    return kOk;
}

}  // namespace

std::function<int()> add_table3_command(CLI::App& app) {
    auto o = std::make_shared<Table3Options>();
    CLI::App* c = app.add_subcommand(
        "table3", "Reproduce seed 000 Table 3: K u for a random u in FP128, FP64, FP32 and TCOVFEM INT8 (M = 4, 8)");
    c->add_option("--scene", o->scene, "Scene (default: the paper's rebar model)");
    c->add_option("--spacing", o->spacing, "Voxel size ds in metres (default 0.002, the paper's)");
    c->add_option("--seed", o->seed, "Seed of the random vector (std::mt19937_64, default 1)");
    c->add_option("--backend", o->backend, "auto | cpu | cuda (cuda adds the GPU engine's rows; default auto)");
    c->add_option("--out,-o", o->out, "Append the markdown table to this file");
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
