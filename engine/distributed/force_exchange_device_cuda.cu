// The device paths of the force exchanges: host staging through pinned memory and MPI, and NCCL
// send/receive on the engine's halo stream. Both end with one kernel that adds the received
// planes to the slab's own partial forces.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "distributed/force_exchange_mpi.hpp"

#if VOXWAVE_HAVE_NCCL
#include <nccl.h>
#endif

namespace voxwave {
namespace {

// f[c * nn + offset(side) + i] = own + received, for side 0 (local plane 0) and 1 (plane nz);
// received planes are [component][plane node]. own + received in this order on both slabs of a
// seam would be enough; IEEE addition is commutative, so any order gives both copies the same bits.
template <class Real>
__global__ void add_received_planes_kernel(Real* f, std::size_t nn, std::size_t pn, std::size_t upper_offset,
                                           const Real* recv_lower, const Real* recv_upper) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= 3 * pn) return;
    const int side = int(blockIdx.y);
    const Real* in = side == 0 ? recv_lower : recv_upper;
    if (!in) return;
    const std::size_t c = i / pn, node = i % pn;
    Real& out = f[c * nn + (side == 0 ? 0 : upper_offset) + node];
    out = out + in[i];
}

void add_received_planes(void* f, bool fp64, const SlabForceLayout& l, const void* recv_lower, const void* recv_upper,
                         cudaStream_t stream) {
    if (!recv_lower && !recv_upper) return;
    const unsigned threads = 256;
    const dim3 grid(unsigned((3 * l.plane_nodes + threads - 1) / threads), 2);
    const std::size_t upper = std::size_t(l.nz) * l.plane_nodes;
    if (fp64)
        add_received_planes_kernel<double><<<grid, threads, 0, stream>>>(
            static_cast<double*>(f), l.nodes, l.plane_nodes, upper, static_cast<const double*>(recv_lower),
            static_cast<const double*>(recv_upper));
    else
        add_received_planes_kernel<float><<<grid, threads, 0, stream>>>(static_cast<float*>(f), l.nodes, l.plane_nodes,
                                                                        upper, static_cast<const float*>(recv_lower),
                                                                        static_cast<const float*>(recv_upper));
    VOXWAVE_CUDA_CHECK_LAUNCH("add_received_planes_kernel");
}

// Device buffers for the received planes of both sides.
struct DeviceRecvPlanes {
    cuda::DeviceBuffer<unsigned char> side[2];
    std::size_t bytes = 0;
    void ensure(std::size_t b, bool lower, bool upper) {
        if (b == bytes) return;
        for (auto& p : side) p = {};  // the old planes go before the new ones are allocated
        bytes = b;
        if (lower) side[0] = cuda::DeviceBuffer<unsigned char>(b);
        if (upper) side[1] = cuda::DeviceBuffer<unsigned char>(b);
    }
};

}  // namespace

// Pinned host copies of the shared planes (3 components each) for the host-staged path.
struct DeviceStaging {
    cuda::PinnedHostBuffer<unsigned char> send[2];
    cuda::PinnedHostBuffer<unsigned char> recv[2];
    DeviceRecvPlanes device;
    std::size_t bytes = 0;
    ~DeviceStaging() { release(); }  // the pinned planes go before the device ones
    // Frees the pinned planes (unchecked), side by side: send, then receive.
    void release() {
        for (int s = 0; s < 2; ++s) {
            send[s] = {};
            recv[s] = {};
        }
    }
    void ensure(std::size_t b, bool lower, bool upper) {
        device.ensure(b, lower, upper);
        if (b == bytes) return;
        release();
        bytes = b;
        const bool shared[2] = {lower, upper};
        for (int s = 0; s < 2; ++s)
            if (shared[s]) {
                send[s] = cuda::PinnedHostBuffer<unsigned char>(b);
                recv[s] = cuda::PinnedHostBuffer<unsigned char>(b);
            }
    }
};

void DeviceStagingRelease::operator()(DeviceStaging* staging) const { delete staging; }

void MpiForceExchange::start_device(void* f, bool fp64, const SlabForceLayout& l, void* stream_handle) {
    auto stream = static_cast<cudaStream_t>(stream_handle);
    const std::size_t real = fp64 ? 8 : 4, plane_bytes = l.plane_nodes * real;
    if (!staging_) staging_.reset(new DeviceStaging);
    staging_->ensure(3 * plane_bytes, slab_.shares_lower(), slab_.shares_upper());
    const std::size_t offset[2] = {0, std::size_t(l.nz) * l.plane_nodes};
    for (int side = 0; side < 2; ++side) {
        if (!staging_->send[side].get()) continue;
        // The three component planes are nn apart in f: one strided copy.
        const char* src = static_cast<const char*>(f) + offset[side] * real;
        VOXWAVE_CUDA_CHECK(cudaMemcpy2DAsync(staging_->send[side].get(), plane_bytes, src, l.nodes * real, plane_bytes,
                                             3, cudaMemcpyDeviceToHost, stream));
    }
}

void MpiForceExchange::finish_device(void* f, bool fp64, const SlabForceLayout& l, void* stream_handle) {
    auto stream = static_cast<cudaStream_t>(stream_handle);
    VOXWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));  // the planes are on the host now
    swap_planes(staging_->send[0].get(), staging_->send[1].get(), staging_->recv[0].get(), staging_->recv[1].get(),
                staging_->bytes);
    for (int side = 0; side < 2; ++side)
        if (staging_->recv[side].get())
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(staging_->device.side[side].get(), staging_->recv[side].get(),
                                               staging_->bytes, cudaMemcpyHostToDevice, stream));
    add_received_planes(f, fp64, l, staging_->device.side[0].get(), staging_->device.side[1].get(), stream);
}

double measure_device_exchange_seconds(ForceExchange& exchange, std::size_t plane_nodes, bool fp64, int reps) {
    const std::size_t real = fp64 ? 8 : 4;
    // A slab of one element plane: node planes 0 and 1 are both shared planes.
    const SlabForceLayout layout{2 * plane_nodes, plane_nodes, 1};
    auto f = cuda::DeviceBuffer<unsigned char>::zeros(3 * layout.nodes * real);
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
        exchange.start_device(f.get(), fp64, layout, stream);
        exchange.finish_device(f.get(), fp64, layout, stream);
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

class NcclForceExchange final : public ForceExchange {
public:
    NcclForceExchange(const MpiWorld& world, const Slab& slab, int device) : slab_(slab), rank_(world.rank()) {
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
    ~NcclForceExchange() override {
        if (comm_) ncclCommDestroy(comm_);
    }
    bool shares_lower() const override { return slab_.shares_lower(); }
    bool shares_upper() const override { return slab_.shares_upper(); }
    void exchange_host(const std::array<double*, 3>&, const SlabForceLayout&) override { host_refused(); }
    void exchange_host(const std::array<float*, 3>&, const SlabForceLayout&) override { host_refused(); }

    void start_device(void* f, bool fp64, const SlabForceLayout& l, void* stream_handle) override {
        auto stream = static_cast<cudaStream_t>(stream_handle);
        const std::size_t real = fp64 ? 8 : 4;
        recv_.ensure(3 * l.plane_nodes * real, slab_.shares_lower(), slab_.shares_upper());
        const ncclDataType_t type = fp64 ? ncclFloat64 : ncclFloat32;
        const std::size_t offset[2] = {0, std::size_t(l.nz) * l.plane_nodes};
        const int peer[2] = {rank_ - 1, rank_ + 1};
        VOXWAVE_NCCL_CHECK(ncclGroupStart());
        for (int side = 0; side < 2; ++side) {
            if (!recv_.side[side].get()) continue;
            for (int c = 0; c < 3; ++c) {
                // Each component plane is contiguous in f: sent straight from it, no packing.
                const char* src = static_cast<const char*>(f) + (std::size_t(c) * l.nodes + offset[side]) * real;
                char* dst = reinterpret_cast<char*>(recv_.side[side].get()) + std::size_t(c) * l.plane_nodes * real;
                VOXWAVE_NCCL_CHECK(ncclSend(src, l.plane_nodes, type, peer[side], comm_, stream));
                VOXWAVE_NCCL_CHECK(ncclRecv(dst, l.plane_nodes, type, peer[side], comm_, stream));
            }
        }
        VOXWAVE_NCCL_CHECK(ncclGroupEnd());
        add_received_planes(f, fp64, l, recv_.side[0].get(), recv_.side[1].get(), stream);
    }
    void finish_device(void*, bool, const SlabForceLayout&, void*) override {}  // all of it is on the stream

private:
    [[noreturn]] static void host_refused() {
        throw RuntimeError("the NCCL exchange moves device memory; the CPU engine uses the MPI exchange");
    }
    Slab slab_;
    int rank_;
    ncclComm_t comm_ = nullptr;
    DeviceRecvPlanes recv_;
};

}  // namespace

std::unique_ptr<ForceExchange> make_nccl_force_exchange(const MpiWorld& world, const Slab& slab, int device) {
    return std::make_unique<NcclForceExchange>(world, slab, device);
}

#else

bool nccl_built() { return false; }
std::unique_ptr<ForceExchange> make_nccl_force_exchange(const MpiWorld&, const Slab&, int) {
    throw InputError("", "--halo", "this build has no NCCL (libnccl was not found when it was configured); use host");
}

#endif

}  // namespace voxwave
