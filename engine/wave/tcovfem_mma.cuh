// Device helpers of the TCOVFEM Tensor Core kernels (tcovfem_int8_cuda.cu: the split element
// kernel; tcovfem_step_fused_cuda.cu: the fused node-centred step): the INT8 mma, the local
// corner of a node, and the exact integer <-> FP64 moves that keep the digit expansion
// bit-identical to the CPU emulation in tcovfem_int8.hpp.
#pragma once

#include <cstdint>

#include "wave/tcovfem_int8.hpp"
#include "wave/wave_kernel_args.cuh"

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

// The same two starting a chain, c = A B + init (c is not read): no zeroing of 12 accumulator
// registers before each chain (CS2R, 48 instructions a warp-plane), and init biases a chain.
__device__ __forceinline__ void mma_s8_first(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                             std::uint32_t a3, std::uint32_t b0, std::uint32_t b1, int init = 0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%10,%10,%10};\n"
        : "=r"(c[0]), "=r"(c[1]), "=r"(c[2]), "=r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(init));
#else
    __trap();
#endif
}
__device__ __forceinline__ void mma_u8_first(int (&c)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2,
                                             std::uint32_t a3, std::uint32_t b0, std::uint32_t b1, int init = 0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%10,%10,%10};\n"
        : "=r"(c[0]), "=r"(c[1]), "=r"(c[2]), "=r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(init));
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

// round(w s) of the exact product, to nearest (ties to even) as an int, for |w s| < 2^31: one
// fma with kTcovfemRoundingBias (as tcovfem_to_int64 rounds).
__device__ __forceinline__ int round_product_to_int(double w, double s) {
    return __double2loint(fma(w, s, kTcovfemRoundingBias));
}

// 2^n for n in [-1022, 1023], as bits: tcovfem_pow2 without its ldexp branch for other n (its
// range check and branch took about 6 instructions a call, several calls an element row). The
// fused step's exponents stay in range: e in [kTcovfemMinExponent, 1024], so 7M - e >= 7 - 1024
// and e - 7M >= -900 - 56.
__device__ __forceinline__ double pow2_normal(int n) { return __hiloint2double((1023 + n) << 20, 0); }

// A double from shared memory, in program order among the volatile asm (the mma): the fused
// step's w loads are unconditional (no zeroing and predication per input), and a plain load
// there was hoisted across the previous m-tile's products, 206 registers against 145.
__device__ __forceinline__ double load_shared_in_order(const double* p) {
    double v;
    asm volatile("ld.shared.f64 %0, [%1];\n" : "=d"(v) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p))));
    return v;
}

// The bias the fused step adds to the chains joined as the low part (kept non-negative:
// |chain| < 2^26), and 1.5 2^52 + it: both exact doubles. For a power of two s (normal range),
// fma(join_bits(..), s, -kTcovfemJoinBias s) is the joined integer times s exactly: the one fma
// that moves it to FP64 also applies the element's scale.
constexpr int kTcovfemChainBias = 1 << 27;
constexpr double kTcovfemJoinBias = kTcovfemRoundingBias + kTcovfemChainBias;

// The bits of 1.5 2^52 + (hi 2^Shift + lo) as a double, for lo >= 0 (a biased chain) and
// |hi 2^Shift + lo| < 2^51: the 64-bit sum as a shift-add with carry and the high word's
// shift-add, the 1.5 2^52 folded into the latter. ptxas still turns this into an IMAD.WIDE with
// the pair {lo, 0x43380000} (two moves, 3 instructions a join, in the SASS), but written in
// C++ as a 64-bit shift and add the 1.5 2^52 took one add more, and with a signed lo a sign
// extension more (4-6 instructions a join; cuda-bench.md, the fused TCOVFEM step's instruction counts).
template <int Shift>
__device__ __forceinline__ double join_bits(int hi, unsigned lo) {
    unsigned out_lo, out_hi;
    asm("{\n\t.reg .u32 t;\n\t"
        "shl.b32 t, %2, %4;\n\t"
        "add.cc.u32 %0, t, %3;\n\t"
        "shr.s32 t, %2, %5;\n\t"
        "addc.u32 %1, t, 0x43380000;\n\t}"
        : "=r"(out_lo), "=r"(out_hi)
        : "r"(hi), "r"(lo), "n"(Shift), "n"(32 - Shift));
    return __hiloint2double(static_cast<int>(out_hi), static_cast<int>(out_lo));
}

}  // namespace voxwave::cuda
