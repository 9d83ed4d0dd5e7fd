// voxwave-cli: the headless front end. Thin: parse, wire, run (docs/architecture.md#layers, #files-and-cli).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
    using namespace voxwave::cli;
    CLI::App app{"voxwave-cli: voxel elastic-wave simulations (VFEM, OVFEM, TCOVFEM, SEM) from the command line"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("voxwave-cli ") + VOXWAVE_VERSION);
    std::vector<std::pair<CLI::App*, std::function<int()>>> commands;
    auto add = [&](std::function<int()> (*f)(CLI::App&)) {
        const std::size_t before = app.get_subcommands({}).size();
        auto fn = f(app);
        commands.emplace_back(app.get_subcommands({})[before], std::move(fn));
    };
    add(add_run_command);
    add(add_scan_command);
    add(add_element_command);
    add(add_dispersion_command);
    add(add_info_command);
    add(add_bench_command);
    add(add_table3_command);
    add(add_bench_live_command);
    add(add_bench_scaling_command);
    add(add_bench_accuracy_command);
    add(add_bench_sem_command);
    add(add_compare_command);
    add(add_integrate_command);
    add(add_iga_command);
    add(add_iga_bench_command);
    add(add_poisson_command);
    add(add_cluster_job_command);
    add(add_snapshot_vtkhdf_command);
    add(add_image_command);
    add(add_bench_imaging_command);
    add(add_bench_batched_command);
    add(add_bench_scan_command);
    add(add_bench_boundary_command);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version are "errors" that exit 0; real ones get one line and exit 2.
        if (e.get_exit_code() == 0) return app.exit(e);
        std::fprintf(stderr, "voxwave-cli: error: %s (see --help)\n", e.what());
        return kUsage;
    }
    for (auto& [sub, fn] : commands)
        if (sub->parsed()) return guarded(fn);
    return kUsage;
}
