// Does TCOVFEM's FP64 conversion work overlap the INT8 Tensor Core products on Hopper?
//
// Why: Nsight Compute on the fused TCOVFEM step (cuda-bench.md, sessions 14-15) shows its FP64
// instructions (22 % of peak) and its mma.sync IMMA (19 %) adding up to the SM's "shared pipe"
// (41 %): on sm_90 both issue through one pipe, so a DFMA cannot issue while an IMMA occupies
// it. wgmma (sm_90a) runs the products asynchronously on a warpgroup's Tensor Cores. This
// measures, per SM sub-partition, the cycles an iteration of each mix takes:
//   - DFMA only; mma.sync m16n8k32 u8 x s8 only; both in the same warps;
//   - wgmma m64n24k32 u8 x s8 (the same multiply-adds as 4 warps x 6 mma.sync) only; with DFMA.
//   - (session 16) mma.sync m16n8k16, TCOVFEM's shape of a byte's products (3 n-tiles of k = 32 +
//     k = 16 a warp) against its wgmma form (K = 48 padded to 64), and the FP64 <-> INT64
//     conversions F2I.S64.F64 / I2F.F64.S64 alone and beside DFMAs or mma.sync.
//   - (session 19) mma.sp m16n8k64 s8 x u8 (2:4-sparse A), the shape a layout without TCOVFEM's
//     byte permutes would need: 8.56 cycles a sub-partition against 6.2 for a dense k = 32.
// If a mix takes the sum of its parts the pipes are shared; if the larger part, they overlap.
// Results: bench/results/cuda-bench.md (device runs 2026-11-23-s15-run{3,4}, s16-run{1,2} and 2026-11-24-s19-run1
// in bench/results/device-runs.md; their raw output is in commit 200d46c under bench/results/logs/).
// The numbers are throughput only: the operands are arbitrary (no layout is checked).
//
// Build and run on the GPU machine (sm_90a for wgmma):
//   nvcc -O3 -arch=sm_90a -o /tmp/shared_pipe bench/micro/shared_pipe_h100.cu && /tmp/shared_pipe
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                                     \
    do {                                                                                             \
        cudaError_t e_ = (x);                                                                        \
        if (e_ != cudaSuccess) {                                                                     \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)

constexpr int kIterations = 4096;
constexpr int kThreads = 512;  // one block an SM: 16 warps, as many as the fused step's 2 blocks of 8

__device__ __forceinline__ void mma_u8(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                       std::uint32_t a3, std::uint32_t b0, std::uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// The k = 16 shape (A: 2 registers, B: 1): TCOVFEM's second k-block (columns 32..47 of 48).
__device__ __forceinline__ void mma_u8_k16(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t b0) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
}

// Session 19: the 2:4-sparse shape that would take q_M's raw words as B with no byte permutes:
// A (16 x 64 s8, stored as 16 x 32 with metadata e: one byte of each 4 selected) times B (64 x 8
// u8, a lane's 4 registers = 4 whole words). One selected byte a group is a valid 2:4 pattern.
__device__ __forceinline__ void mma_sp_s8u8_k64(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                                std::uint32_t a3, std::uint32_t b0, std::uint32_t b1, std::uint32_t b2,
                                                std::uint32_t b3, std::uint32_t e) {
    asm volatile(
        "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;\n"
        : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3), "r"(e));
}

// D (64 x 24, s32) += A (64 x 32 u8, registers: this warp's 16 rows) B (32 x 24 s8, shared memory).
__device__ __forceinline__ void wgmma_u8(int (&d)[12], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                         std::uint32_t a3, std::uint64_t b_desc) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n24k32.s32.u8.s8 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, p;\n}\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]),
          "+r"(d[9]), "+r"(d[10]), "+r"(d[11])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b_desc));
#else
    __trap();
#endif
}

__device__ __forceinline__ void wgmma_fence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
// Commit this iteration's wgmma group and wait until at most InFlight groups are pending: 0 waits
// for this one (its latency then adds to the iteration), 1 lets it run on while the next
// iteration issues, as a GEMM main loop does.
template <int InFlight>
__device__ __forceinline__ void wgmma_commit_and_wait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned %0;\n" ::"n"(InFlight) : "memory");
#endif
}
__device__ __forceinline__ void wgmma_wait_all() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
}

// Per iteration and warp: Imma mma.sync (6 independent accumulators of 4), Dfma DFMAs (8
// independent chains); per iteration and warpgroup: Wgmma wgmma (one accumulator of 12), whose
// wait comes after the iteration's DFMAs and leaves InFlight groups pending. With InFlight = 1 the
// A registers stay constant (changing them would need a fence that waits for the pending group).
template <int Imma, int Dfma, int Wgmma, int InFlight = 0, int Imma16 = 0, int F2i = 0, int I2f = 0, int Sparse = 0>
__global__ void __launch_bounds__(kThreads, 1) mix_kernel(long long* cycles, int* sink, double seed) {
    __shared__ __align__(128) std::uint8_t b_tile[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) b_tile[i] = std::uint8_t(i * 7 + 3);
    __syncthreads();
    const unsigned lane = threadIdx.x & 31;
    std::uint32_t a0 = lane * 0x01010101u, a1 = a0 ^ 0x5a5a5a5au, a2 = a0 + 1, a3 = a1 + 3;
    const std::uint32_t b0 = 0x01020304u * (lane & 3), b1 = b0 ^ 0x0f0f0f0fu;
    int acc[6][4] = {};
    int wacc[12] = {};
    double x[8];
    for (int j = 0; j < 8; ++j) x[j] = seed * (j + 1 + lane);
    // The conversions' operands change by integer adds only (no FP64 instruction among them).
    long long cvt_acc[8] = {};
    int cvt_lo = int(lane) * 977;
    const int cvt_hi = 0x43400000 + int(lane);  // about 2^53: a 64-bit integer value
    const double m = 1.0 + 1e-9, s = 1e-12;
    // No swizzle; leading and stride byte offsets 128 and 256, start at b_tile (bits 0-13, 16-29, 32-45 >> 4).
    const std::uint64_t addr = static_cast<std::uint64_t>(__cvta_generic_to_shared(b_tile));
    const std::uint64_t desc =
        ((addr >> 4) & 0x3fff) | (std::uint64_t(128 >> 4) << 16) | (std::uint64_t(256 >> 4) << 32);
    __syncthreads();
    const long long t0 = clock64();
    for (int it = 0; it < kIterations; ++it) {
        if constexpr (Wgmma > 0) {
            if (InFlight == 0 || it == 0) wgmma_fence();
#pragma unroll
            for (int w = 0; w < Wgmma; ++w) wgmma_u8(wacc, a0, a1, a2, a3, desc);
        }
#pragma unroll
        for (int i = 0; i < Imma; ++i) mma_u8(acc[i % 6], a0, a1, a2, a3, b0, b1);
#pragma unroll
        for (int i = 0; i < Imma16; ++i) mma_u8_k16(acc[(i + 3) % 6], a2, a3, b1);
#pragma unroll
        for (int i = 0; i < Sparse; ++i)  // metadata 0x44444444: indices (0, 1) in every group
            mma_sp_s8u8_k64(acc[i % 6], a0, a1, a2, a3, b0, b1, b0 ^ 0x33u, b1 ^ 0x55u, 0x44444444u);
#pragma unroll
        for (int i = 0; i < Dfma; ++i) x[i % 8] = fma(x[i % 8], m, s);
#pragma unroll
        for (int i = 0; i < F2i; ++i) cvt_acc[i % 8] ^= __double2ll_rn(__hiloint2double(cvt_hi + i, cvt_lo + i));
#pragma unroll
        for (int i = 0; i < I2f; ++i)
            cvt_acc[i % 8] ^= __double_as_longlong(__ll2double_rn((static_cast<long long>(cvt_hi) << 24) + cvt_lo + i));
        if constexpr (F2i > 0 || I2f > 0) cvt_lo += 3;
        if constexpr (Wgmma > 0) wgmma_commit_and_wait<InFlight>();
        if constexpr (InFlight == 0) a0 += 0x01010101u;  // keeps the products from being hoisted
    }
    if constexpr (Wgmma > 0) wgmma_wait_all();
    const long long t1 = clock64();
    int r = 0;
    for (int i = 0; i < 6; ++i) r += acc[i][0] + acc[i][1] + acc[i][2] + acc[i][3];
    for (int i = 0; i < 12; ++i) r += wacc[i];
    double xs = 0;
    for (int j = 0; j < 8; ++j) xs += x[j];
    long long cs = 0;
    for (int j = 0; j < 8; ++j) cs ^= cvt_acc[j];
    if (r == 0x7fffffff || xs == 0.125 || cs == 0x123456789ll) sink[0] = 1;  // never: keeps the work live
    if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

template <int Imma, int Dfma, int Wgmma, int InFlight = 0, int Imma16 = 0, int F2i = 0, int I2f = 0, int Sparse = 0>
void run(const char* name, int sms, long long* d_cycles, int* d_sink) {
    auto kernel = mix_kernel<Imma, Dfma, Wgmma, InFlight, Imma16, F2i, I2f, Sparse>;
    kernel<<<sms, kThreads>>>(d_cycles, d_sink, 1.0);  // warm-up
    CHECK(cudaGetLastError());
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    kernel<<<sms, kThreads>>>(d_cycles, d_sink, 1.0);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    long long* h = new long long[sms];
    CHECK(cudaMemcpy(h, d_cycles, sizeof(long long) * sms, cudaMemcpyDeviceToHost));
    double mean = 0;
    for (int i = 0; i < sms; ++i) mean += double(h[i]) / sms;
    delete[] h;
    // Per SM sub-partition (4 warps of the 16): instructions an iteration, cycles an iteration.
    const double per_iter = mean / kIterations;
    const double macs = (double(Imma) * 4096 * 16 + double(Sparse) * 4096 * 16 + double(Imma16) * 2048 * 16 +
                         double(Wgmma) * 64 * 24 * 32 * 4) *
                        kIterations * sms;
    std::printf("| %-34s | %5d | %5d | %5d | %5d | %8.1f | %7.3f | %7.1f |\n", name, Imma * 4, Imma16 * 4, Dfma * 4,
                Wgmma, per_iter, ms, 2.0 * macs / (ms * 1e-3) / 1e12);
}

int main() {
    int dev = 0, sms = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaDeviceProp p{};
    CHECK(cudaGetDeviceProperties(&p, dev));
    std::printf("%s, %d SMs, %d threads a block (16 warps an SM), %d iterations\n\n", p.name, sms, kThreads,
                kIterations);
    long long* d_cycles = nullptr;
    int* d_sink = nullptr;
    CHECK(cudaMalloc(&d_cycles, sizeof(long long) * sms));
    CHECK(cudaMalloc(&d_sink, sizeof(int)));
    std::printf(
        "| mix (per warp and iteration) | IMMA.16832 a sub-partition | IMMA.16816 a sub-partition | DFMA a "
        "sub-partition | wgmma a warpgroup | cycles an iteration | ms | INT8 TOPS |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    run<0, 24, 0>("24 DFMA", sms, d_cycles, d_sink);
    run<0, 48, 0>("48 DFMA", sms, d_cycles, d_sink);
    run<6, 0, 0>("6 mma.sync", sms, d_cycles, d_sink);
    run<6, 24, 0>("6 mma.sync + 24 DFMA", sms, d_cycles, d_sink);
    run<6, 48, 0>("6 mma.sync + 48 DFMA", sms, d_cycles, d_sink);
    run<0, 0, 2>("2 wgmma (same MACs)", sms, d_cycles, d_sink);
    run<0, 24, 2>("2 wgmma + 24 DFMA", sms, d_cycles, d_sink);
    run<0, 48, 2>("2 wgmma + 48 DFMA", sms, d_cycles, d_sink);
    run<0, 0, 4>("4 wgmma", sms, d_cycles, d_sink);
    run<0, 48, 4>("4 wgmma + 48 DFMA", sms, d_cycles, d_sink);
    run<0, 0, 2, 1>("2 wgmma, 1 group in flight", sms, d_cycles, d_sink);
    run<0, 24, 2, 1>("2 wgmma + 24 DFMA, 1 in flight", sms, d_cycles, d_sink);
    run<0, 48, 2, 1>("2 wgmma + 48 DFMA, 1 in flight", sms, d_cycles, d_sink);
    run<0, 0, 4, 1>("4 wgmma, 1 group in flight", sms, d_cycles, d_sink);
    run<0, 48, 4, 1>("4 wgmma + 48 DFMA, 1 in flight", sms, d_cycles, d_sink);
    // TCOVFEM's shape (session 16): a byte's products for 16 elements are 3 n-tiles of k = 32 +
    // k = 16 (K = 48) a warp; on wgmma the K = 48 needs two k = 32 blocks (one half empty), so a
    // warpgroup's byte is 2 wgmma m64n24k32 for the 4 warps' 3 + 3 mma.sync: the rows "2 wgmma, 1
    // group in flight" (a byte) and "4 wgmma ..." above (two bytes, alone and with 48 DFMA). Is the
    // k = 16 half a k = 32 (then wgmma's padding eats its lower cost per multiply-add)?
    run<0, 0, 0, 0, 6>("6 mma.sync k16", sms, d_cycles, d_sink);
    run<0, 0, 0, 0, 12>("12 mma.sync k16", sms, d_cycles, d_sink);
    run<3, 0, 0, 0, 3>("3 k32 + 3 k16 (a byte, 16 elements)", sms, d_cycles, d_sink);
    run<6, 0, 0, 0, 6>("6 k32 + 6 k16 (two bytes)", sms, d_cycles, d_sink);
    run<6, 48, 0, 0, 6>("6 k32 + 6 k16 + 48 DFMA", sms, d_cycles, d_sink);
    // The paper's conversion (session 16): q = cvt.rni.s64.f64 of the FP64 product, one F2I.S64.F64
    // (and back, I2F.F64.S64) instead of TCOVFEM's three FP64 operations. Do they use the shared pipe?
    // A row's name gives its F2I / I2F count a warp (no column counts them; a sub-partition runs 4x).
    run<0, 0, 0, 0, 0, 24>("24 F2I.S64.F64", sms, d_cycles, d_sink);
    run<0, 24, 0, 0, 0, 24>("24 F2I.S64.F64 + 24 DFMA", sms, d_cycles, d_sink);
    run<6, 0, 0, 0, 0, 24>("24 F2I.S64.F64 + 6 mma.sync", sms, d_cycles, d_sink);
    run<0, 0, 0, 0, 0, 0, 24>("24 I2F.F64.S64", sms, d_cycles, d_sink);
    run<0, 24, 0, 0, 0, 0, 24>("24 I2F.F64.S64 + 24 DFMA", sms, d_cycles, d_sink);
    run<6, 0, 0, 0, 0, 0, 24>("24 I2F.F64.S64 + 6 mma.sync", sms, d_cycles, d_sink);
    // Session 19: mma.sp m16n8k64 (s8 x u8, 2:4 A): as fast as a dense k = 32 (the same stored
    // multiply-adds) or as a dense k = 64 (the logical ones)? Its MACs are counted as a k = 32's.
    run<0, 0, 0, 0, 0, 0, 0, 6>("6 mma.sp k64 (2:4)", sms, d_cycles, d_sink);
    run<0, 0, 0, 0, 0, 0, 0, 12>("12 mma.sp k64 (2:4)", sms, d_cycles, d_sink);
    run<0, 48, 0, 0, 0, 0, 0, 6>("6 mma.sp k64 + 48 DFMA", sms, d_cycles, d_sink);
    run<6, 0, 0, 0, 0, 0, 0, 6>("6 k32 + 6 mma.sp k64", sms, d_cycles, d_sink);
    CHECK(cudaFree(d_cycles));
    CHECK(cudaFree(d_sink));
    return 0;
}
