// One wave simulation over several MPI ranks: boxes of elements with ghost layers
// (slab_decomposition.hpp), one rank per GPU or several CPU ranks, each running the ordinary
// single-model step (the fused step included) on its box, the ghost nodes' displacements
// exchanged every step (halo_exchange_mpi.hpp), traces gathered into one Result on rank 0.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "distributed/axis_permutation.hpp"
#include "distributed/halo_exchange_mpi.hpp"
#include "distributed/mpi_world.hpp"
#include "distributed/slab_decomposition.hpp"
#include "scene/result.hpp"
#include "wave/slice.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

struct DistributedOptions {
    HaloTransport halo = HaloTransport::Auto;   // CUDA only: NCCL when built, else host staging
    ProcessGrid grid;                           // ranks along x, y, z of the model; automatic by default
    std::string grid_field = "--process-grid";  // what an error about `grid` names
    bool overlap = true;  // CUDA: the exchange's z phase beside the interior (CudaEngineOptions::overlap_exchange)
};

struct DistributedRun {
    Result result;                      // rank 0: every receiver, in the problem's order; other ranks: metadata only
    std::string note;                   // backend, decomposition and transport, one line each (rank 0's view)
    std::vector<Subdomain> subdomains;  // in the turned model's axes
    ProcessGrid grid;                   // in the problem's axes
};

// Every rank calls this with the same whole problem (each builds it from the same scene).
// Progress is reported by rank 0 only. Errors before the time loop that every rank sees alike
// (bad options, too many ranks for the model) are thrown as usual; once the ranks depend on
// each other, a failure on any rank prints "rank R of K: reason" and stops the whole job
// (MPI_Abort) instead of leaving the others waiting.
DistributedRun run_wave_distributed(const WaveProblem& whole, const MpiWorld& world, const ProgressFn& progress,
                                    const DistributedOptions& options = {});

// The CUDA device a rank uses: its rank on the machine modulo the devices there.
int device_for_local_rank(int local_rank, int device_count);

// One rank's share of a distributed run, ready to step: its subdomain, the exchange with its
// neighbours and the CUDA device (run_wave_distributed and the scaling benchmark).
struct SubdomainSetup {
    AxisTurn turn;                        // the model turned so that its longest axis is z
    std::unique_ptr<WaveProblem> turned;  // the turned whole problem (null when not turned)
    ProcessGrid grid;                     // in the turned axes
    std::vector<Subdomain> subdomains;
    SubdomainProblem mine;
    Backend backend = Backend::Cpu;
    std::string backend_note;
    HaloTransport transport = HaloTransport::HostStaged;  // CUDA; the CPU engine always uses MPI
    int device = -1;
    std::unique_ptr<HaloExchange> exchange;
};
// Collective. Throws InputError for bad options or too many ranks (the same on every rank).
SubdomainSetup prepare_subdomain(const WaveProblem& whole, const MpiWorld& world, const DistributedOptions& options);

// The process grid of a run on `grid` (the problem's axes) with `ranks` ranks: `asked` when it is
// not automatic (checked: InputError naming `field`), else choose_process_grid on the turned
// grid; returned in the turned axes (turn: longest_axis_last(grid)).
ProcessGrid resolve_process_grid(const VoxelGrid& grid, int ranks, const ProcessGrid& asked, const std::string& field);

// A slice of the whole model's wavefield (the live preview's, slice.hpp) from the ranks' states:
// each rank contributes the pixels of the nodes it owns from its subdomain's u and u- (SoA, the
// subdomain problem's nodes), in the problem's axes (components turned back). Collective; rank 0
// gets the image, the other ranks an empty one. `plane`, `index` and the image are in the axes of
// `whole` (the problem every rank was given).
SliceImage gather_slice(const MpiWorld& world, const SubdomainSetup& setup, const VoxelGrid& whole,
                        const std::vector<double>& u, const std::vector<double>& u_prev, double dt, SlicePlane plane,
                        int index, SliceQuantity quantity);

}  // namespace voxwave
