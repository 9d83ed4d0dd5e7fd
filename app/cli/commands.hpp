// voxwave-cli subcommands: each registers its options on the CLI11 app and runs when chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace voxwave::cli {

// Each returns the function to run when its subcommand was selected.
std::function<int()> add_run_command(CLI::App& app);
std::function<int()> add_scan_command(CLI::App& app);
std::function<int()> add_element_command(CLI::App& app);
std::function<int()> add_dispersion_command(CLI::App& app);
std::function<int()> add_info_command(CLI::App& app);
std::function<int()> add_bench_command(CLI::App& app);
std::function<int()> add_table3_command(CLI::App& app);
std::function<int()> add_bench_live_command(CLI::App& app);
std::function<int()> add_bench_scaling_command(CLI::App& app);
std::function<int()> add_bench_accuracy_command(CLI::App& app);
std::function<int()> add_bench_sem_command(CLI::App& app);
std::function<int()> add_compare_command(CLI::App& app);
std::function<int()> add_integrate_command(CLI::App& app);
std::function<int()> add_iga_command(CLI::App& app);
std::function<int()> add_iga_bench_command(CLI::App& app);
std::function<int()> add_cluster_job_command(CLI::App& app);
std::function<int()> add_snapshot_vtkhdf_command(CLI::App& app);
std::function<int()> add_image_command(CLI::App& app);
std::function<int()> add_bench_imaging_command(CLI::App& app);
std::function<int()> add_bench_batched_command(CLI::App& app);
std::function<int()> add_bench_scan_command(CLI::App& app);
std::function<int()> add_bench_boundary_command(CLI::App& app);

// `voxwave-cli bench` on the paper's model at one spacing, with a PML `pml_cells` (or a sponge
// `sponge_cells`) thick on every face but the top (0: none): prints (and appends to `out`, when not empty) its table
// and returns each case's step time, labelled by method, design and precision in the table's order.
struct BenchStepTime {
    std::string label;
    double step_s = 0;
    double cpu_step_s = 0;  // process CPU time per step, all threads (CPU backend; 0 on CUDA)
};
std::vector<BenchStepTime> bench_paper_model_step_times(const std::string& backend,
                                                        const std::vector<std::string>& methods,
                                                        const std::vector<std::string>& precisions, double spacing,
                                                        long long steps, int pml_cells, const std::string& out,
                                                        int sponge_cells = 0);

// "PROGRAM --option value ..." for the options the user gave: benchmark files record how
// they were made.
std::string echo_command_line(const std::string& program, const CLI::App& command);
std::function<int()> add_poisson_command(CLI::App& app);

// `bench --plane-strain N...` (cmd_bench_plane_strain.cpp): steps/s of the 2D engine on N x N squares.
int run_plane_strain_bench(const std::vector<int>& sizes, bool cuda, const std::vector<std::string>& methods,
                           const std::vector<std::string>& precisions, long long steps, const std::string& out,
                           const std::string& command_line);

// Throws InputError(path, "", reason) when a file cannot be created at `path` (checked before
// long work starts, so a typo in --out does not cost a whole simulation).
void check_output_path(const std::string& path);

}  // namespace voxwave::cli
