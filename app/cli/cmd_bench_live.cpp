// `voxwave-cli bench-live`: the live view's frame loop without a window (engine/wave/live_bench):
// frames per second, steps per second and the cost of a slice, on the paper model by default.
#include <cstdio>
#include <optional>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/format_number.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "wave/live_bench.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cli {

std::function<int()> add_bench_live_command(CLI::App& app) {
    struct Options {
        std::string scene = std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json";
        std::string method = "ovfem", precision = "fp64", backend = "auto", out;
        double spacing = 0, seconds = 10;
        int stages = kTcovfemMaxStages;
    };
    auto o = std::make_shared<Options>();
    auto* sub = app.add_subcommand("bench-live", "Frames per second of the live view's engine loop (no window)");
    sub->add_option("--scene", o->scene, "Scene (default: the paper's model)");
    sub->add_option("--method", o->method, "vfem | ovfem | tcovfem");
    sub->add_option("--precision", o->precision, "fp64 | fp32");
    sub->add_option("--stages", o->stages, "TCOVFEM digits M");
    sub->add_option("--backend", o->backend, "auto | cpu | cuda");
    const CLI::Option* spacing_given = sub->add_option("--spacing", o->spacing, "Spacing override (m)");
    sub->add_option("--seconds", o->seconds, "Wall time to run (s)")->check(CLI::PositiveNumber);
    sub->add_option("--out", o->out, "Append the markdown table to this file");
    return [o, spacing_given] {
        const Method method = parse_method(o->method, "--method");
        const Precision precision = parse_precision(o->precision, "--precision");
        const Backend backend = parse_backend(o->backend, "--backend");
        if (!o->out.empty()) check_output_path(o->out);
        const OptionFields fields = {{"grid.spacing", "--spacing"},
                                     {"run.method", "--method"},
                                     {"run.precision", "--precision"},
                                     {"run.stages", "--stages"}};
        Scene s;
        std::optional<WaveProblem> problem;
        try {
            s = read_scene_json(o->scene, [&](Scene& sc) {
                if (spacing_given->count() > 0) sc.grid.spacing = o->spacing;
                sc.run.method = method;
                sc.run.precision = precision;
                sc.run.stages = o->stages;
                sc.run.backend = backend;
                sc.run.dt = 0;
                sc.run.steps = 0;
                sc.run.duration = 1.0;  // far more steps than the benchmark's seconds can run
            });
            problem.emplace(build_wave_problem(s, o->scene));
        } catch (const InputError& e) {
            throw blame_option(e, fields);
        }
        WaveSession session(std::move(*problem));
        std::fprintf(stderr, "%s\n", session.backend_note().c_str());
        // The source's plane, as the GUI shows it at start (XZ through the first source).
        const VoxelGrid& g = session.problem().grid;
        const int index =
            session.problem().sources.empty() ? g.n[1] / 2 : int(nearest_node(g, s.sources.front().position)[1]);
        const LiveBenchResult r = run_live_bench(session, o->seconds, SlicePlane::XZ, index, SliceQuantity::Uz);
        std::ostringstream md;
        md << "| scene | backend | method | precision | elements | slice | frames/s | steps/s | slice (ms) | "
              "longest frame (ms) |\n|---|---|---|---|---|---|---|---|---|---|\n";
        md << "| " << s.grid.spacing * 1e3 << " mm " << o->scene.substr(o->scene.find_last_of('/') + 1) << " | "
           << to_string(session.backend()) << " | " << o->method << " | " << o->precision << " | " << g.element_count()
           << " | " << r.slice_width << " x " << r.slice_height << " | " << format_number(r.frames_per_second) << " | "
           << format_number(r.steps_per_second) << " | " << format_number(r.slice_ms_mean) << " | "
           << format_number(r.frame_ms_max) << " |\n";
        print_and_append(md.str(), o->out);
        return int(kOk);
    };
}

}  // namespace voxwave::cli
