// `voxwave-cli cluster-job`: a folder with the scene and a Slurm batch script that runs it on
// several GPUs (issue 8); submitting it is left to the user (`sbatch job.slurm`).
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "distributed/slab_decomposition.hpp"
#include "scene/cluster_job.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"

namespace voxwave::cli {
namespace {
struct ClusterJobOptions {
    std::string scene, dir, process_grid = "auto";
    ClusterJobSpec spec;
};

// The engine names the spec's members; the user typed options.
InputError as_option_error(const InputError& e) {
    static const std::map<std::string, std::string> option = {
        {"gpus", "--gpus"},           {"gpus_per_node", "--gpus-per-node"},
        {"partition", "--partition"}, {"account", "--account"},
        {"time_limit", "--time"},     {"job_name", "--name"},
        {"folder", "--dir"},          {"extra_modules", "--modules"},
        {"command", "--command"},     {"process_grid", "--process-grid"}};
    const auto it = option.find(e.field());
    if (!e.file().empty() || it == option.end()) return e;
    return InputError("", it->second, e.reason());
}

int run(ClusterJobOptions o) {
    if (o.spec.job_name.empty()) o.spec.job_name = cluster_job_name_for(o.scene);
    try {
        o.spec.process_grid = parse_process_grid(o.process_grid, "--process-grid");
        validate_cluster_job(o.spec);  // a bad option is reported before the scene is read
        const Scene scene = read_scene_json(o.scene);
        if (!o.spec.process_grid.automatic()) {
            // The grid against the job's ranks and the scene's element planes, as mpirun will check it.
            VoxelGrid shape;
            shape.n = element_counts(scene.grid, scene.grid.spacing);
            check_process_grid(shape, o.spec.process_grid, o.spec.gpus, "process_grid");
        }
        write_cluster_job(o.dir, scene, o.spec);
    } catch (const InputError& e) {
        throw as_option_error(e);
    }
    const std::filesystem::path dir(o.dir);
    std::printf("wrote %s\n", (dir / o.spec.scene_file).c_str());
    std::printf("wrote %s\n", (dir / kClusterJobScript).c_str());
    std::printf("submit with: cd %s && sbatch %s\n", shell_quote(o.dir).c_str(), kClusterJobScript);
    return kOk;
}
}  // namespace

std::function<int()> add_cluster_job_command(CLI::App& app) {
    auto o = std::make_shared<ClusterJobOptions>();
    CLI::App* c = app.add_subcommand(
        "cluster-job", "Write a folder with the scene and a Slurm script that runs it on several GPUs (MPI + NCCL)");
    c->add_option("scene", o->scene, "Scene file (.json)")->required();
    c->add_option("--gpus", o->spec.gpus, "GPUs in all, one MPI rank each")->required();
    c->add_option("--gpus-per-node", o->spec.gpus_per_node, "GPUs of one node (default 4)");
    c->add_option("--partition", o->spec.partition, "Slurm partition (default: the cluster's)");
    c->add_option("--account", o->spec.account, "Slurm account (default: the user's)");
    c->add_option("--time", o->spec.time_limit, "Time limit, [D-]HH:MM:SS or MM:SS (default 01:00:00)");
    c->add_option("--name", o->spec.job_name, "Job name (default: the scene file's name)");
    c->add_option("--modules", o->spec.extra_modules, "Environment modules to load, e.g. \"cuda openmpi\"");
    c->add_option("--command", o->spec.command,
                  "What the job runs: run (one simulation over the GPUs) or scan (the scene's probe scan, the shots "
                  "shared over the GPUs); default: scan when the scene has a scan block, else run");
    c->add_option("--process-grid", o->process_grid,
                  "MPI ranks along x, y and z as PXxPYxPZ (their product: --gpus), or auto (default): passed to "
                  "the job's run");
    c->add_option("--dir", o->dir, "Folder to write (created if missing): the scene and job.slurm")->required();
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
