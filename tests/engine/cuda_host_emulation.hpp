// What a CUDA kernel body reads of CUDA, for a host compiler, so that a test without a GPU runs
// the kernel's own code: a std::thread a CUDA thread, a barrier for __syncthreads and one a warp
// of 32 threads for __syncwarp, a lock for atomicAdd, __ldg a plain load. Blocks run one after
// the other (run_emulated_blocks), so a __shared__ array, defined by the including test as a
// static, is seen by all the emulated threads of the running block. Internal names: each test executable's files have
// their own.
#pragma once

#include <algorithm>
#include <barrier>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

struct EmulatedIndex {
    unsigned x = 0;
};
thread_local EmulatedIndex threadIdx, blockIdx;
EmulatedIndex blockDim, gridDim;
std::barrier<>* emulated_block_barrier = nullptr;
std::vector<std::barrier<>*> emulated_warp_barriers;  // warp w of the running block: threads 32 w .. 32 w + 31
std::mutex emulated_atomic_lock;
std::size_t emulated_atomic_adds = 0;  // atomicAdd calls since the test last zeroed it

void __syncthreads() { emulated_block_barrier->arrive_and_wait(); }
void __syncwarp(unsigned = 0xffffffffu) { emulated_warp_barriers[threadIdx.x / 32]->arrive_and_wait(); }

template <class T>
T __ldg(const T* p) {
    return *p;
}

template <class T>
T atomicAdd(T* p, T v) {
    const std::lock_guard<std::mutex> hold(emulated_atomic_lock);
    ++emulated_atomic_adds;
    const T old = *p;
    *p = old + v;
    return old;
}

// `blocks` blocks of `threads` threads, one after the other: thread t runs block(k) for every k in
// order with threadIdx.x = t (block sets blockIdx), and a barrier after each block keeps the
// block's shared arrays until all its threads are done.
template <class Block>
void run_emulated_blocks(int threads, std::size_t blocks, const Block& block) {
    std::barrier<> block_barrier(threads);
    emulated_block_barrier = &block_barrier;
    std::vector<std::unique_ptr<std::barrier<>>> warps;
    for (int w = 0; w * 32 < threads; ++w)
        warps.push_back(std::make_unique<std::barrier<>>(std::min(32, threads - w * 32)));
    emulated_warp_barriers.clear();
    for (auto& w : warps) emulated_warp_barriers.push_back(w.get());
    blockDim.x = unsigned(threads);
    gridDim.x = unsigned(blocks);
    std::vector<std::thread> team;
    for (int t = 0; t < threads; ++t)
        team.emplace_back([&, t] {
            threadIdx.x = unsigned(t);
            for (std::size_t k = 0; k < blocks; ++k) {
                block(k);
                block_barrier.arrive_and_wait();
            }
        });
    for (std::thread& x : team) x.join();
    emulated_block_barrier = nullptr;
    emulated_warp_barriers.clear();
}

}  // namespace
