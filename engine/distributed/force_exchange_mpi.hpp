// The force exchanges of a distributed run (force_exchange.hpp says what they do).
//
//  - MpiForceExchange: MPI point-to-point between neighbouring slabs. The CPU engine's exchange,
//    and the CUDA engine's host-staged fallback (device -> pinned host -> MPI -> device).
//  - NCCL (make_nccl_force_exchange): GPU to GPU with ncclSend/ncclRecv on the engine's halo
//    stream, no host involvement, so it overlaps with the interior elements.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "distributed/mpi_world.hpp"
#include "distributed/slab_decomposition.hpp"
#include "wave/force_exchange.hpp"

namespace voxwave {

struct DeviceStaging;  // pinned host and device buffers of the host-staged path (CUDA builds)
// Frees a DeviceStaging where its type is complete: with the device paths.
struct DeviceStagingRelease {
    void operator()(DeviceStaging* staging) const;
};

class MpiForceExchange final : public ForceExchange {
public:
    MpiForceExchange(const MpiWorld& world, const Slab& slab);
    ~MpiForceExchange() override;
    bool shares_lower() const override { return slab_.shares_lower(); }
    bool shares_upper() const override { return slab_.shares_upper(); }
    void exchange_host(const std::array<double*, 3>& f, const SlabForceLayout& layout) override;
    void exchange_host(const std::array<float*, 3>& f, const SlabForceLayout& layout) override;
    void start_device(void* f, bool fp64, const SlabForceLayout& layout, void* stream) override;
    void finish_device(void* f, bool fp64, const SlabForceLayout& layout, void* stream) override;

    // Sends `send[side]` to the neighbour on that side and receives into `recv[side]` (side 0:
    // below, 1: above; sides without a neighbour are skipped). Blocking.
    void swap_planes(const void* send_lower, const void* send_upper, void* recv_lower, void* recv_upper,
                     std::size_t bytes_per_side) const;

private:
    template <class Real>
    void exchange_host_impl(const std::array<Real*, 3>& f, const SlabForceLayout& layout);

    const MpiWorld& world_;
    Slab slab_;
    std::vector<unsigned char> send_[2], recv_[2];
    std::unique_ptr<DeviceStaging, DeviceStagingRelease> staging_;  // made by the first start_device
};

// Which transport carries the device path.
enum class HaloTransport { Auto, Nccl, HostStaged };
HaloTransport parse_halo_transport(const std::string& s, const std::string& field);
const char* to_string(HaloTransport t);
// True when this build links NCCL.
bool nccl_built();

// NCCL communicator over the world's ranks (unique id broadcast through MPI), on CUDA device
// `device`. Throws InputError("", "--halo", ...) in builds without NCCL.
std::unique_ptr<ForceExchange> make_nccl_force_exchange(const MpiWorld& world, const Slab& slab, int device);

// Median seconds of `repetitions` device exchanges of shared planes of `plane_nodes` nodes (3
// components of `fp64` reals per plane and direction) through `exchange`, on a scratch buffer:
// the link's cost at any plane size, for the scaling projection. Collective over the ranks.
double measure_device_exchange_seconds(ForceExchange& exchange, std::size_t plane_nodes, bool fp64, int repetitions);

}  // namespace voxwave
