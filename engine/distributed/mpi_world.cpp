#include "distributed/mpi_world.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/errors.hpp"

#if VOXWAVE_HAVE_MPI
#include <mpi.h>
#endif

namespace voxwave {

bool launched_by_mpi_launcher() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
        if (std::getenv(v)) return true;
    return false;
}

bool mpi_built() { return VOXWAVE_HAVE_MPI != 0; }

#if VOXWAVE_HAVE_MPI

namespace {
void check(int rc, const char* what) {
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        throw RuntimeError(std::string(what) + " failed: " + std::string(msg, std::size_t(len)));
    }
}
}  // namespace

MpiWorld::MpiWorld() {
    int initialised = 0;
    check(MPI_Initialized(&initialised), "MPI_Initialized");
    if (!initialised) {
        int provided = 0;
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
        started_ = true;
    }
    // Errors come back as codes (and become exceptions) instead of killing the job silently.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
    MPI_Comm local;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local),
          "MPI_Comm_split_type");
    check(MPI_Comm_rank(local, &local_rank_), "MPI_Comm_rank");
    MPI_Comm_free(&local);
}

MpiWorld::~MpiWorld() {
    if (started_) MPI_Finalize();
}

bool MpiWorld::all(bool ok) const {
    int mine = ok ? 1 : 0, all = 0;
    check(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
    return all == 1;
}
double MpiWorld::max(double v) const {
    double r = 0;
    check(MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    return r;
}
double MpiWorld::sum(double v) const {
    double r = 0;
    check(MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    return r;
}
void MpiWorld::barrier() const { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

namespace {
template <class T>
std::vector<T> gather_any(const std::vector<T>& mine, MPI_Datatype type, int rank, int size) {
    const int n = int(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
    check(MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
    std::vector<T> all;
    if (rank == 0) {
        int total = 0;
        for (int r = 0; r < size; ++r) {
            offsets[std::size_t(r)] = total;
            total += counts[std::size_t(r)];
        }
        all.resize(std::size_t(total));
    }
    check(MPI_Gatherv(mine.data(), n, type, all.data(), counts.data(), offsets.data(), type, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    return all;
}
}  // namespace

std::vector<double> MpiWorld::gather(const std::vector<double>& mine) const {
    return gather_any(mine, MPI_DOUBLE, rank_, size_);
}
std::vector<long long> MpiWorld::gather(const std::vector<long long>& mine) const {
    return gather_any(mine, MPI_LONG_LONG, rank_, size_);
}

std::string MpiWorld::broadcast(const std::string& s, int root) const {
    int n = int(s.size());
    check(MPI_Bcast(&n, 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Bcast");
    std::string out = rank_ == root ? s : std::string(std::size_t(n), '\0');
    check(MPI_Bcast(out.data(), n, MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
    return out;
}

void MpiWorld::abort(const std::string& message, int code) const {
    std::fprintf(stderr, "%s\n", message.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

std::intptr_t MpiWorld::comm_handle() const {
    MPI_Comm c = MPI_COMM_WORLD;
    std::intptr_t h = 0;
    static_assert(sizeof(MPI_Comm) <= sizeof(std::intptr_t));
    std::memcpy(&h, &c, sizeof c);
    return h;
}

#else  // no MPI in this build: a world of one

namespace {
int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}
}  // namespace

MpiWorld::MpiWorld() {
    if (env_int("OMPI_COMM_WORLD_SIZE", 1) > 1 || env_int("PMI_SIZE", 1) > 1 || env_int("SLURM_NTASKS", 1) > 1)
        throw InputError("", "mpi",
                         "started by an MPI launcher with several ranks, but this voxwave-cli was built without MPI "
                         "(install libopenmpi-dev and rebuild)");
}
MpiWorld::~MpiWorld() = default;
bool MpiWorld::all(bool ok) const { return ok; }
double MpiWorld::max(double v) const { return v; }
double MpiWorld::sum(double v) const { return v; }
void MpiWorld::barrier() const {}
std::vector<double> MpiWorld::gather(const std::vector<double>& mine) const { return mine; }
std::vector<long long> MpiWorld::gather(const std::vector<long long>& mine) const { return mine; }
std::string MpiWorld::broadcast(const std::string& s, int) const { return s; }
void MpiWorld::abort(const std::string& message, int code) const {
    std::fprintf(stderr, "%s\n", message.c_str());
    std::exit(code);
}
std::intptr_t MpiWorld::comm_handle() const { return 0; }

#endif

}  // namespace voxwave
