// Typed device memory owned by one object (cudaMalloc, never managed memory), and typed pinned
// host memory (cudaMallocHost) beside it, each released when the object goes; every transfer and
// every allocation checked.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "core/cuda_check.cuh"

namespace voxwave::cuda {

template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    // n elements, contents undefined (as cudaMalloc leaves them).
    explicit DeviceBuffer(std::size_t n) { allocate(n); }
    // A device copy of `host`.
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
    // n elements, all zero.
    static DeviceBuffer zeros(std::size_t n) {
        DeviceBuffer b;
        b.resize(n);
        return b;
    }
    ~DeviceBuffer() {
        if (p_) cudaFree(p_);  // no throw from a destructor; the allocation was checked
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        swap(o);
        return *this;
    }

    // Frees the old memory, then holds n zeroed elements (accumulators start from zero).
    void resize(std::size_t n) {
        release();
        allocate(n);
        if (n) VOXWAVE_CUDA_CHECK(cudaMemset(p_, 0, n * sizeof(T)));
    }
    void upload(const T* src, std::size_t n, std::size_t offset = 0) {
        if (n) VOXWAVE_CUDA_CHECK(cudaMemcpy(p_ + offset, src, n * sizeof(T), cudaMemcpyHostToDevice));
    }
    void upload(const std::vector<T>& v) { upload(v.data(), v.size()); }
    void download(T* dst, std::size_t n, std::size_t offset = 0) const {
        if (n) VOXWAVE_CUDA_CHECK(cudaMemcpy(dst, p_ + offset, n * sizeof(T), cudaMemcpyDeviceToHost));
    }
    std::vector<T> download() const {
        std::vector<T> host(n_);
        download(host.data(), n_);
        return host;
    }
    // Frees the memory now, checked (the destructor's free is not); size() is 0 after.
    void reset() { release(); }
    T* get() const noexcept { return p_; }
    std::size_t size() const noexcept { return n_; }
    std::size_t bytes() const noexcept { return n_ * sizeof(T); }
    void swap(DeviceBuffer& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
    }

private:
    void allocate(std::size_t n) {
        n_ = n;
        if (n) VOXWAVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T)));
    }
    void release() {
        if (p_) VOXWAVE_CUDA_CHECK(cudaFree(p_));
        p_ = nullptr;
        n_ = 0;
    }

    T* p_ = nullptr;
    std::size_t n_ = 0;
};

// Page-locked host memory (cudaMallocHost): the host end of asynchronous copies. Never zeroed.
template <class T>
class PinnedHostBuffer {
public:
    PinnedHostBuffer() = default;
    // n elements, contents undefined (as cudaMallocHost leaves them); none allocated for n = 0.
    explicit PinnedHostBuffer(std::size_t n) {
        n_ = n;
        if (n) VOXWAVE_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&p_), n * sizeof(T)));
    }
    ~PinnedHostBuffer() {
        if (p_) cudaFreeHost(p_);  // no throw from a destructor; the allocation was checked
    }
    PinnedHostBuffer(const PinnedHostBuffer&) = delete;
    PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;
    PinnedHostBuffer(PinnedHostBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    PinnedHostBuffer& operator=(PinnedHostBuffer&& o) noexcept {
        swap(o);
        return *this;
    }

    // Frees the memory now, checked (the destructor's free is not); size() is 0 after.
    void reset() {
        if (p_) VOXWAVE_CUDA_CHECK(cudaFreeHost(p_));
        p_ = nullptr;
        n_ = 0;
    }
    T* get() const noexcept { return p_; }
    T& operator[](std::size_t i) const noexcept { return p_[i]; }
    std::size_t size() const noexcept { return n_; }
    std::size_t bytes() const noexcept { return n_ * sizeof(T); }
    void swap(PinnedHostBuffer& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
    }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};

}  // namespace voxwave::cuda
