// Scans over MPI ranks (docs/architecture.md#probes-and-scans): the shots are independent, so
// each rank runs its share of them (probe_scan.hpp's ScanShare: round-robin, one GPU a rank) on
// its own copy of the whole model, and rank 0 gathers the rows into the one result.
#pragma once

#include <cstddef>
#include <string>

#include "core/progress.hpp"
#include "distributed/mpi_world.hpp"
#include "model/voxel_grid.hpp"
#include "scene/result.hpp"
#include "scene/scene.hpp"

namespace voxwave {

// On rank 0: what run_probe_scan gives in one process, bit for bit (shot 0's traces and probes,
// every shot's rows in shot order); other ranks get an empty Result. `progress` counts the
// rank's own steps. Each rank takes CUDA device local_rank % devices when the backend is CUDA.
// An error on any rank makes every rank throw (the failing rank its own error, the others
// RuntimeError "the scan failed on another rank"), so no rank waits for a gather that never comes.
// `batch`: run_probe_scan's, for each rank's share of the shots. wall_seconds is the slowest
// rank's scan, wall_seconds - setup_seconds the slowest rank's shot loops (probe_scan.hpp).
Result run_probe_scan_distributed(const Scene& scene, VoxelGrid model, const std::string& label, const MpiWorld& world,
                                  const ProgressFn& progress, std::string* backend_note = nullptr,
                                  std::size_t batch = 1);

}  // namespace voxwave
