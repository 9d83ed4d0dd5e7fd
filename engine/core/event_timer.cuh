// CUDA events owned by one object, and device time between two of them.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "core/cuda_check.cuh"

namespace voxwave::cuda {

class Event {
public:
    // cudaEventDisableTiming for events that only order streams (cheaper to record and wait on).
    explicit Event(unsigned flags = cudaEventDefault) { VOXWAVE_CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags)); }
    ~Event() {
        if (e_) cudaEventDestroy(e_);
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
    Event& operator=(Event&& o) noexcept {
        std::swap(e_, o.e_);
        return *this;
    }
    cudaEvent_t get() const noexcept { return e_; }
    void record(cudaStream_t stream = nullptr) { VOXWAVE_CUDA_CHECK(cudaEventRecord(e_, stream)); }
    void synchronize() const { VOXWAVE_CUDA_CHECK(cudaEventSynchronize(e_)); }

private:
    cudaEvent_t e_ = nullptr;
};

// Device seconds from `start` to `end` (both recorded, with timing); waits for `end`.
inline double elapsed_seconds(const Event& start, const Event& end) {
    end.synchronize();
    float ms = 0;
    VOXWAVE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
    return double(ms) * 1e-3;
}

// start() and stop() around device work on a stream; seconds() between them.
class EventTimer {
public:
    void start(cudaStream_t stream = nullptr) { start_.record(stream); }
    void stop(cudaStream_t stream = nullptr) { stop_.record(stream); }
    double seconds() const { return elapsed_seconds(start_, stop_); }

private:
    Event start_, stop_;
};

}  // namespace voxwave::cuda
