// Cluster jobs (issue 8): a folder holding a scene and the Slurm batch script that runs it on
// several GPUs, one MPI rank per GPU (`mpirun -np K voxwave-cli run SCENE -o RESULT`; rank 0
// writes the one result file). The CLI's `cluster-job` command and the GUI's "Run on a
// cluster..." dialog both go through here, so they write the same script and give the same errors.
#pragma once

#include <string>

#include "scene/process_grid.hpp"
#include "scene/scene.hpp"

namespace voxwave {

struct ClusterJobSpec {
    std::string job_name;
    int gpus = 2;           // MPI ranks, one per GPU
    int gpus_per_node = 4;  // GPUs of one node of the partition
    std::string partition;  // optional
    std::string account;    // optional
    std::string time_limit = "01:00:00";
    std::string cli = "voxwave-cli";  // the command on the cluster (a name on PATH or a path)
    std::string scene_file = "scene.json";
    std::string result_file = "result.h5";
    std::string backend = "cuda";
    std::string extra_modules;  // e.g. "cuda openmpi", emitted as `module load ...` when not empty
    ProcessGrid process_grid;   // ranks along x, y, z: passed as --process-grid unless automatic
    // The voxwave-cli command the job runs: "run" (one simulation over the ranks), "scan" (the
    // scene's probe scan, the shots shared over the ranks) or "" (write_cluster_job picks: scan
    // when the scene has a scan block, else run). A scan, whose ranks each hold the whole model,
    // takes no process grid.
    std::string command;
};

// The name of the batch script inside a job folder.
inline constexpr const char* kClusterJobScript = "job.slurm";

// Throws InputError("", FIELD, reason) with FIELD the member's name ("gpus", "time_limit",
// "job_name"...): gpus or gpus_per_node below 1, a time limit that is not [D-]HH:MM:SS or MM:SS
// (or is zero), a job name that is empty or has characters outside [A-Za-z0-9._-], a partition
// or account with white space, an empty cli, scene or result file name, a scene file name that
// is a path or the script's own name, an unknown backend, module names with characters a shell
// would interpret, a command other than "", run or scan, a process grid whose rank count is not
// `gpus`, or one given to a scan.
void validate_cluster_job(const ClusterJobSpec& spec);

// The bash batch script (validated first, so it throws what validate_cluster_job throws):
// #SBATCH lines (nodes = ceil(gpus / gpus_per_node), ntasks = gpus, ntasks-per-node and
// gpus-per-node = min(gpus, gpus_per_node)), NCCL_NVLS_ENABLE=0, the optional `module load`,
// and the mpirun line (`run`, or `scan` when spec.command says so; --process-grid when the grid
// is not automatic); file names are quoted for bash where needed.
std::string slurm_batch_script(const ClusterJobSpec& spec);

// `text` as one bash word: unchanged when it only has characters bash never interprets, else
// in single quotes with each embedded ' written '\''.
std::string shell_quote(const std::string& text);

// A job name made from a scene file's name: its stem with every character outside
// [A-Za-z0-9._-] replaced by '_' ("voxwave" when nothing is left).
std::string cluster_job_name_for(const std::string& scene_path);

// Creates `folder` (and its parents) when missing. Throws InputError(folder, "", reason) when it
// cannot be created or is not a folder.
void create_job_folder(const std::string& folder);

// Writes <folder>/<spec.scene_file> (write_scene_json) and <folder>/job.slurm (mode 0755), each
// atomically, creating the folder if missing. The folder is made self-contained: a voxels file
// or sample-wavelet file the scene refers to (resolved from scene.base_dir) is copied into it
// and referred to by its file name, since the folder is what gets copied to the cluster. Throws
// InputError: the spec's (as validate_cluster_job, before anything is written), the folder's or
// a file's (naming its path), two referenced files with the same name, the scene's, a command
// "scan" for a scene without a scan ("command"). An empty spec.command becomes scan when the
// scene has a scan block, else run.
void write_cluster_job(const std::string& folder, const Scene& scene, const ClusterJobSpec& spec);

}  // namespace voxwave
