// The MPI side of a distributed run: the communicator, one rank per GPU, and the few collective
// operations the driver needs. Built on OpenMPI from Debian when CMake finds MPI; otherwise the
// same class works for one process and refuses a launch with several ranks.
//
// MPI is started only when the process was launched by an MPI launcher (mpirun, mpiexec, srun
// with PMIx): a plain `voxwave-cli run` never touches MPI, so it starts as fast as before and
// works where no MPI runtime is installed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace voxwave {

// True when an MPI launcher started this process (OpenMPI, MPICH/Hydra, Slurm PMI/PMIx variables).
bool launched_by_mpi_launcher();
// True when this build links MPI.
bool mpi_built();

class MpiWorld {
public:
    // Starts MPI (MPI_Init_thread, funneled) unless it is running already. Throws InputError("",
    // "mpi", ...) when the build has no MPI but the launcher started several ranks.
    MpiWorld();
    ~MpiWorld();  // MPI_Finalize when this object started MPI
    MpiWorld(const MpiWorld&) = delete;
    MpiWorld& operator=(const MpiWorld&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    // Rank among the ranks of this machine (picks the GPU).
    int local_rank() const { return local_rank_; }

    // True on every rank when `ok` is true on every rank.
    bool all(bool ok) const;
    double max(double v) const;
    double sum(double v) const;
    void barrier() const;
    // Rank 0 gets every rank's values concatenated in rank order; other ranks get {}.
    std::vector<double> gather(const std::vector<double>& mine) const;
    std::vector<long long> gather(const std::vector<long long>& mine) const;
    // Rank `root`'s string on every rank.
    std::string broadcast(const std::string& s, int root = 0) const;
    // Stops every rank of the job (MPI_Abort) with `code`; the message is printed first.
    [[noreturn]] void abort(const std::string& message, int code) const;
    // The raw communicator for the ghost exchanges (an MPI_Comm, or 0 without MPI).
    std::intptr_t comm_handle() const;

private:
    int rank_ = 0, size_ = 1, local_rank_ = 0;
    bool started_ = false;
};

}  // namespace voxwave
