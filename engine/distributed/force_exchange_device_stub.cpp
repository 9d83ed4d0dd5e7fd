// Builds without nvcc: the host path of the MPI exchange works; device paths refuse.
#include "core/errors.hpp"
#include "distributed/force_exchange_mpi.hpp"

#if !VOXWAVE_CUDA_COMPILED
namespace voxwave {

struct DeviceStaging {};

MpiForceExchange::MpiForceExchange(const MpiWorld& world, const Slab& slab) : world_(world), slab_(slab) {}
MpiForceExchange::~MpiForceExchange() = default;
void MpiForceExchange::start_device(void*, bool, const SlabForceLayout&, void*) {
    throw InputError("", "backend", "this build has no CUDA engine");
}
void MpiForceExchange::finish_device(void*, bool, const SlabForceLayout&, void*) {
    throw InputError("", "backend", "this build has no CUDA engine");
}
bool nccl_built() { return false; }
double measure_device_exchange_seconds(ForceExchange&, std::size_t, bool, int) {
    throw InputError("", "backend", "this build has no CUDA engine");
}
std::unique_ptr<ForceExchange> make_nccl_force_exchange(const MpiWorld&, const Slab&, int) {
    throw InputError("", "--halo", "this build has no CUDA engine");
}

}  // namespace voxwave
#endif
