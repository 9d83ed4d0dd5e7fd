// The device paths of the ghost exchanges: each phase packs its send boxes with one kernel,
// moves them (NCCL send/receive between the GPUs, or pinned host memory and MPI) and unpacks the
// received boxes into the ghost nodes with one kernel, all in stream order after the step's
// kernels. The packing order is box_node's (wave/halo_exchange.hpp), the host path's too.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "distributed/halo_exchange_mpi.hpp"

#if VOXWAVE_HAVE_NCCL
#include <nccl.h>
#endif

namespace voxwave {
namespace {

struct BoxArgs {
    int lo[3], hi[3];
};

// pack: buf[c * count + i] = u[c * nn + box_node(i)]; unpack the other way.
template <class Real, bool Pack>
__global__ void box_copy_kernel(Real* u, std::size_t nn, std::size_t nx, std::size_t ny, BoxArgs box, std::size_t count,
                                Real* buf) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const std::size_t node = box_node(box.lo, box.hi, nx, ny, i);
    const std::size_t c = blockIdx.y;
    if (Pack)
        buf[c * count + i] = u[c * nn + node];
    else
        u[c * nn + node] = buf[c * count + i];
}

template <bool Pack>
void box_copy(void* u, bool fp64, const HaloPlan& plan, const NodeBox& b, void* buf, cudaStream_t stream) {
    const std::size_t count = b.count();
    if (count == 0) return;
    BoxArgs box{};
    for (int a = 0; a < 3; ++a) {
        box.lo[a] = b.lo[std::size_t(a)];
        box.hi[a] = b.hi[std::size_t(a)];
    }
    const unsigned threads = 256;
    const dim3 grid(unsigned((count + threads - 1) / threads), 3);
    const std::size_t nn = plan.node_count(), nx = std::size_t(plan.nodes[0]), ny = std::size_t(plan.nodes[1]);
    if (fp64)
        box_copy_kernel<double, Pack>
            <<<grid, threads, 0, stream>>>(static_cast<double*>(u), nn, nx, ny, box, count, static_cast<double*>(buf));
    else
        box_copy_kernel<float, Pack>
            <<<grid, threads, 0, stream>>>(static_cast<float*>(u), nn, nx, ny, box, count, static_cast<float*>(buf));
    VOXWAVE_CUDA_CHECK_LAUNCH("box_copy_kernel");
}

// Device send and receive buffers, one pair per transfer of a phase (at most two), each the
// plan's largest box.
struct DeviceBoxes {
    cuda::DeviceBuffer<unsigned char> send[2], recv[2];
    std::size_t bytes = 0;
    void ensure(std::size_t b) {
        if (b <= bytes) return;
        for (int t = 0; t < 2; ++t) send[t] = {}, recv[t] = {};  // the old go before the new are allocated
        bytes = b;
        for (int t = 0; t < 2; ++t) {
            send[t] = cuda::DeviceBuffer<unsigned char>(b);
            recv[t] = cuda::DeviceBuffer<unsigned char>(b);
        }
    }
};

}  // namespace

// Pinned host copies of the boxes for the host-staged path, and the device boxes.
struct DeviceStaging {
    cuda::PinnedHostBuffer<unsigned char> send[2];
    cuda::PinnedHostBuffer<unsigned char> recv[2];
    DeviceBoxes device;
    std::size_t bytes = 0;
    ~DeviceStaging() { release(); }  // the pinned buffers go before the device ones
    void release() {
        for (int t = 0; t < 2; ++t) {
            send[t] = {};
            recv[t] = {};
        }
    }
    void ensure(std::size_t b) {
        device.ensure(b);
        if (b <= bytes) return;
        release();
        bytes = b;
        for (int t = 0; t < 2; ++t) {
            send[t] = cuda::PinnedHostBuffer<unsigned char>(b);
            recv[t] = cuda::PinnedHostBuffer<unsigned char>(b);
        }
    }
};

void DeviceStagingRelease::operator()(DeviceStaging* staging) const { delete staging; }

void MpiHaloExchange::exchange_device_phases(void* u, bool fp64, void* stream_handle, std::size_t first,
                                             std::size_t end) {
    auto stream = static_cast<cudaStream_t>(stream_handle);
    const std::size_t real = fp64 ? 8 : 4;
    if (!staging_) staging_.reset(new DeviceStaging);
    staging_->ensure(3 * plan_.largest_box() * real);
    run_phases(
        3 * real,
        [&](const HaloTransfer& tr, std::size_t t, std::size_t bytes) {
            box_copy<true>(u, fp64, plan_, tr.send, staging_->device.send[t].get(), stream);
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(staging_->send[t].get(), staging_->device.send[t].get(), bytes,
                                               cudaMemcpyDeviceToHost, stream));
            return HostBoxes{staging_->send[t].get(), staging_->recv[t].get()};
        },
        [&] { VOXWAVE_CUDA_CHECK(cudaStreamSynchronize(stream)); },  // the boxes are on the host now
        [&](const HaloTransfer& tr, std::size_t t, std::size_t bytes) {
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(staging_->device.recv[t].get(), staging_->recv[t].get(), bytes,
                                               cudaMemcpyHostToDevice, stream));
            box_copy<false>(u, fp64, plan_, tr.recv, staging_->device.recv[t].get(), stream);
        },
        first, end);
}

double measure_device_exchange_seconds(HaloExchange& exchange, bool fp64, int reps) {
    const std::size_t real = fp64 ? 8 : 4;
    auto u = cuda::DeviceBuffer<unsigned char>::zeros(3 * exchange.plan().node_count() * real);
    cudaStream_t stream = nullptr;
    VOXWAVE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const struct StreamGuard {
        cudaStream_t s;
        ~StreamGuard() { cudaStreamDestroy(s); }
    } stream_guard{stream};
    cuda::Event a, b;
    std::vector<double> times;
    for (int r = 0; r < reps + 3; ++r) {  // 3 warm-ups (connection set-up)
        a.record(stream);
        exchange.exchange_device(u.get(), fp64, stream);
        b.record(stream);
        const double s = cuda::elapsed_seconds(a, b);
        if (r >= 3) times.push_back(s);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

#if VOXWAVE_HAVE_NCCL

bool nccl_built() { return true; }

namespace {

void nccl_check(ncclResult_t r, const char* what) {
    if (r != ncclSuccess) throw RuntimeError(std::string("NCCL error in ") + what + ": " + ncclGetErrorString(r));
}
#define VOXWAVE_NCCL_CHECK(call) nccl_check((call), #call)

class NcclHaloExchange final : public HaloExchange {
public:
    NcclHaloExchange(const MpiWorld& world, HaloPlan plan, int device) : plan_(std::move(plan)) {
        // exchange_device sends the z phase's boxes in place: they must be whole node planes
        // (checked before the communicator exists, so that a throw leaks nothing).
        for (const HaloPhase& ph : plan_.phases)
            for (const HaloTransfer& tr : ph.transfers)
                if (ph.axis == 2)
                    for (const NodeBox* b : {&tr.send, &tr.recv})
                        if (b->lo[0] != 0 || b->lo[1] != 0 || b->hi[0] != plan_.nodes[0] ||
                            b->hi[1] != plan_.nodes[1] || b->hi[2] != b->lo[2] + 1)
                            throw RuntimeError("NCCL halo exchange: a z box that is not one whole node plane");
        // Point-to-point only; NVLink multicast must stay off on shared machines.
        setenv("NCCL_NVLS_ENABLE", "0", 0);
        VOXWAVE_CUDA_CHECK(cudaSetDevice(device));
        ncclUniqueId id;
        std::string bytes(sizeof id, '\0');
        if (world.rank() == 0) {
            VOXWAVE_NCCL_CHECK(ncclGetUniqueId(&id));
            std::memcpy(bytes.data(), &id, sizeof id);
        }
        bytes = world.broadcast(bytes, 0);
        std::memcpy(&id, bytes.data(), sizeof id);
        VOXWAVE_NCCL_CHECK(ncclCommInitRank(&comm_, world.size(), id, world.rank()));
    }
    ~NcclHaloExchange() override {
        if (comm_) ncclCommDestroy(comm_);
    }
    const HaloPlan& plan() const override { return plan_; }
    void exchange_host(const std::array<double*, 3>&) override { host_refused(); }
    void exchange_host(const std::array<float*, 3>&) override { host_refused(); }
    void exchange_host(const std::array<double*, 3>&, const NodeEntry&) override { host_refused(); }
    void exchange_host(const std::array<float*, 3>&, const NodeEntry&) override { host_refused(); }

    void exchange_device_phases(void* u, bool fp64, void* stream_handle, std::size_t first, std::size_t end) override {
        auto stream = static_cast<cudaStream_t>(stream_handle);
        const std::size_t real = fp64 ? 8 : 4;
        boxes_.ensure(3 * plan_.largest_box() * real);
        const ncclDataType_t type = fp64 ? ncclFloat64 : ncclFloat32;
        const std::size_t nn = plan_.node_count(), plane = std::size_t(plan_.nodes[0]) * std::size_t(plan_.nodes[1]);
        char* const base = static_cast<char*>(u);
        for (std::size_t p = first; p < std::min(end, plan_.phases.size()); ++p) {
            const HaloPhase& ph = plan_.phases[p];
            // Across z the boxes are whole node planes (a phase's boxes span the other axes), so
            // each component is contiguous in u: sent from and received into u itself, without
            // the pack and unpack kernels (two launches less a step, what counts at small planes).
            // Both sides of a seam take the same branch: it depends on the axis only.
            const bool in_place = ph.axis == 2;
            if (!in_place)
                for (std::size_t t = 0; t < ph.transfers.size(); ++t)
                    box_copy<true>(u, fp64, plan_, ph.transfers[t].send, boxes_.send[t].get(), stream);
            VOXWAVE_NCCL_CHECK(ncclGroupStart());
            for (std::size_t t = 0; t < ph.transfers.size(); ++t) {
                const HaloTransfer& tr = ph.transfers[t];
                if (in_place) {
                    for (std::size_t c = 0; c < 3; ++c) {
                        char* send = base + (c * nn + std::size_t(tr.send.lo[2]) * plane) * real;
                        char* recv = base + (c * nn + std::size_t(tr.recv.lo[2]) * plane) * real;
                        VOXWAVE_NCCL_CHECK(ncclSend(send, plane, type, tr.neighbour, comm_, stream));
                        VOXWAVE_NCCL_CHECK(ncclRecv(recv, plane, type, tr.neighbour, comm_, stream));
                    }
                } else {
                    const std::size_t n = 3 * tr.send.count();
                    VOXWAVE_NCCL_CHECK(ncclSend(boxes_.send[t].get(), n, type, tr.neighbour, comm_, stream));
                    VOXWAVE_NCCL_CHECK(ncclRecv(boxes_.recv[t].get(), n, type, tr.neighbour, comm_, stream));
                }
            }
            VOXWAVE_NCCL_CHECK(ncclGroupEnd());
            if (!in_place)
                for (std::size_t t = 0; t < ph.transfers.size(); ++t)
                    box_copy<false>(u, fp64, plan_, ph.transfers[t].recv, boxes_.recv[t].get(), stream);
        }
    }

private:
    [[noreturn]] static void host_refused() {
        throw RuntimeError("the NCCL exchange moves device memory; the CPU engine uses the MPI exchange");
    }
    HaloPlan plan_;
    ncclComm_t comm_ = nullptr;
    DeviceBoxes boxes_;
};

}  // namespace

std::unique_ptr<HaloExchange> make_nccl_halo_exchange(const MpiWorld& world, HaloPlan plan, int device) {
    return std::make_unique<NcclHaloExchange>(world, std::move(plan), device);
}

#else

bool nccl_built() { return false; }
std::unique_ptr<HaloExchange> make_nccl_halo_exchange(const MpiWorld&, HaloPlan, int) {
    throw InputError("", "--halo", "this build has no NCCL (libnccl was not found when it was configured); use host");
}

#endif

}  // namespace voxwave
