// The ghost exchanges of a distributed run (wave/halo_exchange.hpp says what they do).
//
//  - MpiHaloExchange: MPI point-to-point between neighbouring subdomains. The CPU engine's
//    exchange, and the CUDA engine's host-staged path (pack kernel -> pinned host -> MPI ->
//    device -> unpack kernel).
//  - NCCL (make_nccl_halo_exchange): GPU to GPU with ncclSend/ncclRecv between the pack and
//    unpack kernels on the engine's stream, no host involvement.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "distributed/mpi_world.hpp"
#include "wave/halo_exchange.hpp"

namespace voxwave {

struct DeviceStaging;  // device and pinned host buffers of the device paths (CUDA builds)
// Frees a DeviceStaging where its type is complete: with the device paths.
struct DeviceStagingRelease {
    void operator()(DeviceStaging* staging) const;
};

class MpiHaloExchange final : public HaloExchange {
public:
    MpiHaloExchange(const MpiWorld& world, HaloPlan plan);
    ~MpiHaloExchange() override;
    const HaloPlan& plan() const override { return plan_; }
    void exchange_host(const std::array<double*, 3>& u) override;
    void exchange_host(const std::array<float*, 3>& u) override;
    void exchange_host(const std::array<double*, 3>& u, const NodeEntry& entry) override;
    void exchange_host(const std::array<float*, 3>& u, const NodeEntry& entry) override;
    void exchange_device_phases(void* u, bool fp64, void* stream, std::size_t first, std::size_t end) override;
    bool device_exchange_blocks_host() const override { return true; }

    // Phase `phase`: sends send[t] to transfer t's neighbour and receives recv[t] from it, `bytes[t]`
    // each (blocking).
    void swap_boxes(std::size_t phase, const std::vector<const void*>& send, const std::vector<void*>& recv,
                    const std::vector<std::size_t>& bytes) const;

private:
    template <class Real, class Entry>
    void exchange_host_impl(const std::array<Real*, 3>& u, const Entry& entry);

    // Phases [first, end) in order, host or device: pack(transfer, t) fills transfer t's send buffer and
    // returns its {send, recv} host buffers, ready() waits until they hold the data, then the
    // MPI swap, then unpack(transfer, t, bytes) takes the received box.
    struct HostBoxes {
        const void* send;
        void* recv;
    };
    template <class Pack, class Ready, class Unpack>
    void run_phases(std::size_t bytes_per_node, Pack&& pack, Ready&& ready, Unpack&& unpack, std::size_t first = 0,
                    std::size_t end = std::size_t(-1)) {
        for (std::size_t p = first; p < std::min(end, plan_.phases.size()); ++p) {
            const HaloPhase& ph = plan_.phases[p];
            std::vector<const void*> send;
            std::vector<void*> recv;
            std::vector<std::size_t> bytes;
            for (std::size_t t = 0; t < ph.transfers.size(); ++t) {
                bytes.push_back(ph.transfers[t].send.count() * bytes_per_node);
                const HostBoxes b = pack(ph.transfers[t], t, bytes.back());
                send.push_back(b.send);
                recv.push_back(b.recv);
            }
            ready();
            swap_boxes(p, send, recv, bytes);
            for (std::size_t t = 0; t < ph.transfers.size(); ++t) unpack(ph.transfers[t], t, bytes[t]);
        }
    }

    const MpiWorld& world_;
    HaloPlan plan_;
    std::vector<unsigned char> send_[2], recv_[2];
    std::unique_ptr<DeviceStaging, DeviceStagingRelease> staging_;  // made by the first exchange_device
};

// Which transport carries the device path.
enum class HaloTransport { Auto, Nccl, HostStaged };
HaloTransport parse_halo_transport(const std::string& s, const std::string& field);
const char* to_string(HaloTransport t);
// True when this build links NCCL.
bool nccl_built();

// NCCL communicator over the world's ranks (unique id broadcast through MPI), on CUDA device
// `device`. Throws InputError("", "--halo", ...) in builds without NCCL.
std::unique_ptr<HaloExchange> make_nccl_halo_exchange(const MpiWorld& world, HaloPlan plan, int device);

// Median seconds of `repetitions` device exchanges of `exchange`'s plan on a scratch buffer (3
// components of `fp64` reals per node): the link's cost alone. Collective over the ranks.
double measure_device_exchange_seconds(HaloExchange& exchange, bool fp64, int repetitions);

}  // namespace voxwave
