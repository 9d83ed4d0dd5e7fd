#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "core/cuda_check.cuh"
#include "core/device_buffer.cuh"
#include "core/event_timer.cuh"
#include "wave/slice_staging.hpp"

namespace voxwave {

namespace {

// Device side of a slot's statistics: max |value| as float bits (non-negative floats order as
// their bit patterns), the count of non-zero values and the log histogram of |value| / max.
struct DeviceStats {
    unsigned max_bits;
    unsigned nonzero;
    unsigned bins[kStagingBins];
};

__global__ void abs_max_kernel(const float* v, std::size_t n, DeviceStats* s) {
    unsigned best = 0, nonzero = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const float a = fabsf(v[i]);
        if (!isfinite(a) || a == 0.0f) continue;
        best = max(best, __float_as_uint(a));
        ++nonzero;
    }
    for (int o = 16; o > 0; o >>= 1) {
        best = max(best, __shfl_down_sync(0xffffffffu, best, o));
        nonzero += __shfl_down_sync(0xffffffffu, nonzero, o);
    }
    if ((threadIdx.x & 31) == 0 && nonzero) {
        atomicMax(&s->max_bits, best);
        atomicAdd(&s->nonzero, nonzero);
    }
}

__global__ void abs_histogram_kernel(const float* v, std::size_t n, DeviceStats* s) {
    __shared__ unsigned bins[kStagingBins];
    for (int b = threadIdx.x; b < kStagingBins; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    const float inv_max = 1.0f / __uint_as_float(s->max_bits);
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const float a = fabsf(v[i]);
        if (!isfinite(a) || a == 0.0f) continue;
        const float t = -log2f(fminf(a * inv_max, 1.0f)) * kStagingBinsPerOctave;
        atomicAdd(&bins[t < float(kStagingBins - 1) ? int(t) : kStagingBins - 1], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < kStagingBins; b += blockDim.x)
        if (bins[b]) atomicAdd(&s->bins[b], bins[b]);
}

// Members in the order of their creation (one slot after the other); data grows in snapshot().
struct Slot {
    cuda::DeviceBuffer<float> data;                     // its size() is the capacity, floats
    cuda::DeviceBuffer<DeviceStats> stats{1};           // device, not zeroed here
    cuda::PinnedHostBuffer<DeviceStats> host_stats{1};  // pinned
    cuda::Event ready{cudaEventDisableTiming};          // recorded by the producer after the writes
    cuda::Event released{cudaEventDisableTiming};       // recorded by the consumer after its copy
    StagedSliceInfo info;
};

int current_device() {
    int d = 0;
    VOXWAVE_CUDA_CHECK(cudaGetDevice(&d));
    return d;
}

// Frees what `r` holds now, through its destructor (unchecked: for teardown).
template <class R>
void drop(R& r) noexcept {
    R gone = std::move(r);
}

}  // namespace

struct DeviceSliceStaging::Impl {
    int device = current_device();  // first: the slots below are created on it
    Slot slots[3];
    mutable std::mutex mutex;
    int pending = -1;  // published, not taken
    int reading = -1;  // taken by the consumer, its copy being enqueued
    std::uint64_t sequence = 0;
};

// Impl's members create, in order: the device's number, then per slot its device statistics,
// pinned statistics and the two events.
DeviceSliceStaging::DeviceSliceStaging() : impl_(std::make_unique<Impl>()) {}

DeviceSliceStaging::~DeviceSliceStaging() {
    // Possibly the last owner on another thread: the buffers are the staging device's.
    if (cudaSetDevice(impl_->device) != cudaSuccess) {
        // No CUDA call without the staging device: the slots' memory and events are left, not freed
        // on whatever device is current (their owners' destructors must not run).
        static_cast<void>(impl_.release());
        return;
    }
    // Slot by slot: wait for the consumer's last copy out of it, then free its memory and events in
    // this order, before the next slot's wait.
    for (Slot& s : impl_->slots) {
        if (s.released.get()) cudaEventSynchronize(s.released.get());
        drop(s.data);
        drop(s.stats);
        drop(s.host_stats);
        drop(s.ready);
        drop(s.released);
    }
}

int DeviceSliceStaging::device() const { return impl_->device; }

StagedSliceInfo DeviceSliceStaging::snapshot(const WaveSession& session, SlicePlane plane, int index,
                                             SliceQuantity quantity, double quantile) {
    Impl& m = *impl_;
    int w = 0;
    {
        std::lock_guard lock(m.mutex);
        while (w == m.pending || w == m.reading) ++w;  // three slots: one is always free
    }
    Slot& s = m.slots[w];
    const auto e = slice_extent(session.problem().grid, plane);
    const std::size_t n = std::size_t(e[0]) * e[1];
    if (s.data.size() < n) {
        // A consumer's copy out of the old buffer may still be queued.
        s.released.synchronize();
        s.data.reset();                         // the old buffer goes before the new one is allocated
        s.data = cuda::DeviceBuffer<float>(n);  // not zeroed: the slice overwrites it
    }
    // The session's kernels run on this thread's default stream; so do the writes below. They
    // start after the consumer's last copy out of this slot (a no-op before the first copy).
    VOXWAVE_CUDA_CHECK(cudaStreamWaitEvent(0, s.released.get(), 0));
    session.slice_to_device(plane, index, quantity, s.data.get());
    VOXWAVE_CUDA_CHECK(cudaMemsetAsync(s.stats.get(), 0, sizeof(DeviceStats), 0));
    constexpr int threads = 256;
    const int blocks = int(std::min<std::size_t>(120, (n + threads - 1) / threads));
    abs_max_kernel<<<blocks, threads>>>(s.data.get(), n, s.stats.get());
    VOXWAVE_CUDA_CHECK_LAUNCH("abs_max_kernel");
    abs_histogram_kernel<<<blocks, threads>>>(s.data.get(), n, s.stats.get());
    VOXWAVE_CUDA_CHECK_LAUNCH("abs_histogram_kernel");
    VOXWAVE_CUDA_CHECK(
        cudaMemcpyAsync(s.host_stats.get(), s.stats.get(), sizeof(DeviceStats), cudaMemcpyDeviceToHost, 0));
    s.ready.record(0);
    s.ready.synchronize();
    StagedSliceInfo info;
    info.width = e[0];
    info.height = e[1];
    info.step = session.step();
    const DeviceStats& hs = s.host_stats[0];
    unsigned bits = hs.max_bits;
    float peak = 0;
    static_assert(sizeof(bits) == sizeof(peak));
    std::memcpy(&peak, &bits, sizeof(peak));
    info.max_abs = hs.nonzero ? peak : 0.0f;
    info.level = staged_level_from_histogram(hs.bins, hs.nonzero, info.max_abs, quantile);
    {
        std::lock_guard lock(m.mutex);
        info.sequence = ++m.sequence;
        s.info = info;
        m.pending = w;
    }
    return info;
}

bool DeviceSliceStaging::has_new(StagedSliceInfo* info) const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->pending < 0) return false;
    if (info) *info = impl_->slots[impl_->pending].info;
    return true;
}

bool DeviceSliceStaging::copy_latest(float* device_out, std::size_t capacity_floats, void* stream_ptr,
                                     StagedSliceInfo* info) {
    Impl& m = *impl_;
    int r = -1;
    {
        std::lock_guard lock(m.mutex);
        if (m.pending < 0) {
            if (info) *info = {};
            return false;
        }
        const Slot& p = m.slots[m.pending];
        if (std::size_t(p.info.width) * p.info.height > capacity_floats) {
            if (info) *info = p.info;
            return false;
        }
        r = m.reading = m.pending;
        m.pending = -1;
    }
    Slot& s = m.slots[r];
    auto stream = static_cast<cudaStream_t>(stream_ptr);
    try {
        const std::size_t n = std::size_t(s.info.width) * s.info.height;
        // The producer synchronised on `ready` before publishing; waiting on it keeps the order
        // explicit on the consumer's stream all the same.
        VOXWAVE_CUDA_CHECK(cudaStreamWaitEvent(stream, s.ready.get(), 0));
        VOXWAVE_CUDA_CHECK(
            cudaMemcpyAsync(device_out, s.data.get(), n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
        s.released.record(stream);
    } catch (...) {
        std::lock_guard lock(m.mutex);
        m.reading = -1;
        throw;
    }
    std::lock_guard lock(m.mutex);
    if (info) *info = s.info;
    m.reading = -1;
    return true;
}

}  // namespace voxwave
