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

namespace detail {

// Where an Allocation's memory lives: how it is taken (checked) and given back.
struct DeviceMemory {
    static void take(void** p, std::size_t bytes) { VOXWAVE_CUDA_CHECK(cudaMalloc(p, bytes)); }
    static cudaError_t give_back(void* p) { return cudaFree(p); }
};
struct PinnedHostMemory {
    static void take(void** p, std::size_t bytes) { VOXWAVE_CUDA_CHECK(cudaMallocHost(p, bytes)); }
    static cudaError_t give_back(void* p) { return cudaFreeHost(p); }
};

// n elements of T owned by one object, move-only. None are allocated for n = 0; the contents start
// undefined (as cudaMalloc and cudaMallocHost leave them).
template <class T, class Memory>
class Allocation {
public:
    Allocation() = default;
    explicit Allocation(std::size_t n) { allocate(n); }
    ~Allocation() {
        if (p_) Memory::give_back(p_);  // no throw from a destructor; the allocation was checked
    }
    Allocation(const Allocation&) = delete;
    Allocation& operator=(const Allocation&) = delete;
    Allocation(Allocation&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    Allocation& operator=(Allocation&& o) noexcept {
        swap(o);
        return *this;
    }

    // Frees the memory now, checked (the destructor's free is not); size() is 0 after.
    void reset() {
        if (p_) VOXWAVE_CUDA_CHECK(Memory::give_back(p_));
        p_ = nullptr;
        n_ = 0;
    }
    T* get() const noexcept { return p_; }
    std::size_t size() const noexcept { return n_; }
    std::size_t bytes() const noexcept { return n_ * sizeof(T); }
    void swap(Allocation& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
    }

protected:
    // Only on an empty object (after reset()).
    void allocate(std::size_t n) {
        n_ = n;
        if (n) Memory::take(reinterpret_cast<void**>(&p_), n * sizeof(T));
    }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};

}  // namespace detail

template <class T>
class DeviceBuffer : public detail::Allocation<T, detail::DeviceMemory> {
    using Base = detail::Allocation<T, detail::DeviceMemory>;

public:
    DeviceBuffer() = default;
    // n elements, contents undefined (as cudaMalloc leaves them).
    explicit DeviceBuffer(std::size_t n) : Base(n) {}
    // A device copy of `host`.
    explicit DeviceBuffer(const std::vector<T>& host) : Base(host.size()) { upload(host); }
    // n elements, all zero.
    static DeviceBuffer zeros(std::size_t n) {
        DeviceBuffer b;
        b.resize(n);
        return b;
    }

    // Frees the old memory, then holds n zeroed elements (accumulators start from zero).
    void resize(std::size_t n) {
        this->reset();
        this->allocate(n);
        if (n) VOXWAVE_CUDA_CHECK(cudaMemset(this->get(), 0, n * sizeof(T)));
    }
    void upload(const T* src, std::size_t n, std::size_t offset = 0) {
        if (n) VOXWAVE_CUDA_CHECK(cudaMemcpy(this->get() + offset, src, n * sizeof(T), cudaMemcpyHostToDevice));
    }
    void upload(const std::vector<T>& v) { upload(v.data(), v.size()); }
    void download(T* dst, std::size_t n, std::size_t offset = 0) const {
        if (n) VOXWAVE_CUDA_CHECK(cudaMemcpy(dst, this->get() + offset, n * sizeof(T), cudaMemcpyDeviceToHost));
    }
    std::vector<T> download() const {
        std::vector<T> host(this->size());
        download(host.data(), host.size());
        return host;
    }
};

// Page-locked host memory (cudaMallocHost): the host end of asynchronous copies. Never zeroed.
template <class T>
class PinnedHostBuffer : public detail::Allocation<T, detail::PinnedHostMemory> {
    using Base = detail::Allocation<T, detail::PinnedHostMemory>;

public:
    PinnedHostBuffer() = default;
    // n elements, contents undefined (as cudaMallocHost leaves them); none allocated for n = 0.
    explicit PinnedHostBuffer(std::size_t n) : Base(n) {}
    T& operator[](std::size_t i) const noexcept { return this->get()[i]; }
};

}  // namespace voxwave::cuda
