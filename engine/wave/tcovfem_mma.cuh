// Device helpers of the TCOVFEM Tensor Core kernels (tcovfem_int8_cuda.cu: the split element
// kernel; tcovfem_step_fused_cuda.cu: the fused node-centred step): the INT8 mma, the local
// corner of a node, and the exact integer <-> FP64 moves that keep the digit expansion
// bit-identical to the CPU emulation in tcovfem_int8.hpp.
#pragma once

#include <cstdint>

#include "wave/cuda_support.cuh"
#include "wave/tcovfem_int8.hpp"

namespace voxwave::cuda {

// Local node n (0..7) -> corner offsets (a, b, c); inverse of voxel_local_node.
__host__ __device__ __forceinline__ void corner_of(int n, int& a, int& b, int& c) {
    c = n >> 2;
    const int m = n & 3;
    a = (m == 1 || m == 2) ? 1 : 0;
    b = (m >= 2) ? 1 : 0;
}

// c += A B on INT8 Tensor Cores, m16n8k32 (A row-major 16 x 32, B column-major 32 x 8, INT32 c).
__device__ __forceinline__ void mma_s8(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                       std::uint32_t a3, std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#else
    __trap();  // only sm_80+ has INT8 mma.sync; the engine refuses TCOVFEM on older devices
#endif
}

// The same with unsigned A (bytes of the digit words below the top one, in [0, 255]).
__device__ __forceinline__ void mma_u8(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                       std::uint32_t a3, std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#else
    __trap();
#endif
}

// The same two with c = 0 on entry (a chain's first product): c is not read, so the compiler
// need not zero 12 accumulator registers before each chain (CS2R, 48 instructions a warp-plane).
__device__ __forceinline__ void mma_s8_first(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                             std::uint32_t a3, std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%10,%10,%10};\n"
        : "=r"(c[0]), "=r"(c[1]), "=r"(c[2]), "=r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(0));
#else
    __trap();
#endif
}
__device__ __forceinline__ void mma_u8_first(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                             std::uint32_t a3, std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%10,%10,%10};\n"
        : "=r"(c[0]), "=r"(c[1]), "=r"(c[2]), "=r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(0));
#else
    __trap();
#endif
}

// The k = 16 shapes (A: rows g and g + 8, columns 4t..4t+3; B: one register), for the second
// k-block, whose upper 16 columns are empty: half the Tensor Core work of a k = 32 product.
__device__ __forceinline__ void mma_s8_k16(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t b0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
#else
    __trap();
#endif
}
__device__ __forceinline__ void mma_u8_k16(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t b0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
#else
    __trap();
#endif
}

// A^T as this lane's B fragments [n-tile][k-block][register] (tcovfem_pack_b_fragments' layout).
__device__ __forceinline__ void load_b_fragments(const std::uint32_t* packed, int lane, std::uint32_t (&bf)[3][2][2]) {
#pragma unroll
    for (int nt = 0; nt < 3; ++nt)
#pragma unroll
        for (int kb = 0; kb < 2; ++kb)
#pragma unroll
            for (int r = 0; r < 2; ++r) bf[nt][kb][r] = __ldg(packed + ((lane * 3 + nt) * 2 + kb) * 2 + r);
}

// round(x) to nearest (ties to even) as an int, for |x| < 2^31: one add of kTcovfemRoundingBias.
__device__ __forceinline__ int round_to_int(double x) { return __double2loint(__dadd_rn(x, kTcovfemRoundingBias)); }

// An integer |v| < 2^51 as a double, exactly: the bits of 1.5 * 2^52 + v are those of 1.5 * 2^52
// plus v as a 64-bit integer (one add to the high word), and subtracting 1.5 * 2^52 is exact.
__device__ __forceinline__ double exact_double(long long v) {
    return __longlong_as_double(0x4338000000000000ll + v) - kTcovfemRoundingBias;
}
// v s for an integer |v| < 2^51 and a power of two s (v s and 1.5 2^52 s normal), given
// bias_s = -1.5 2^52 s: (1.5 2^52 + v) s - 1.5 2^52 s is v s exactly, so the one fma that
// moves v to FP64 also applies the element's scale (one FP64 instruction, not an add and a multiply).
__device__ __forceinline__ double exact_double_scaled(long long v, double s, double bias_s) {
    return fma(__longlong_as_double(0x4338000000000000ll + v), s, bias_s);
}
// hi scale + lo, |hi scale| < 2^50, joined exactly in INT64 and moved to FP64.
__device__ __forceinline__ double exact_double(int hi, int scale, int lo) {
    return exact_double(static_cast<long long>(hi) * scale + lo);
}

}  // namespace voxwave::cuda
