// One wave simulation over several MPI ranks (issue 8): slabs (slab_decomposition.hpp), one
// rank per GPU or several CPU ranks, the shared node planes' forces exchanged every step
// (force_exchange_mpi.hpp), traces gathered into one Result on rank 0.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "distributed/axis_permutation.hpp"
#include "distributed/force_exchange_mpi.hpp"
#include "distributed/mpi_world.hpp"
#include "distributed/slab_decomposition.hpp"
#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

struct DistributedOptions {
    HaloTransport halo = HaloTransport::Auto;  // CUDA only: NCCL when built, else host staging
};

struct DistributedRun {
    Result result;     // rank 0: every receiver, in the problem's order; other ranks: metadata only
    std::string note;  // backend, decomposition and transport, one line each (rank 0's view)
    std::vector<Slab> slabs;
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

// One rank's share of a distributed run, ready to step: its slab, the exchange with its
// neighbours and what the CUDA engine needs (run_wave_distributed and the scaling benchmark).
struct SlabSetup {
    AxisTurn turn;                        // the model turned so that its longest axis is the slab axis
    std::unique_ptr<WaveProblem> turned;  // the turned whole problem (null when not turned)
    std::vector<Slab> slabs;
    SlabProblem slab;
    Backend backend = Backend::Cpu;
    std::string backend_note;
    HaloTransport transport = HaloTransport::HostStaged;  // CUDA; the CPU engine always uses MPI
    int device = -1;
    std::unique_ptr<ForceExchange> exchange;
    std::vector<double> tcovfem_diagonal;  // CUDA TCOVFEM: the whole model's, restricted to the slab
    SlabForceLayout layout() const;
};
// Collective. Throws InputError for bad options or too many ranks (the same on every rank).
SlabSetup prepare_slab(const WaveProblem& whole, const MpiWorld& world, const DistributedOptions& options);

}  // namespace voxwave
