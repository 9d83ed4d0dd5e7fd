// Lets physics written once compile for both the CPU and CUDA (docs/architecture.md#layers).
#pragma once

#if defined(__CUDACC__)
#define VOXWAVE_HD __host__ __device__ __forceinline__
#else
#define VOXWAVE_HD inline
#endif

// Hot per-element kernels that the CPU loops vectorise across the elements of a row: an
// outlined call stops GCC's vectoriser ("statement clobbers memory"), so these are always inlined.
#if defined(__CUDACC__)
#define VOXWAVE_HD_INLINE __host__ __device__ __forceinline__
#else
#define VOXWAVE_HD_INLINE inline __attribute__((always_inline))
#endif

// A loop of constant trip count unrolled on both compilers: small arrays indexed by its counter
// then stay in registers on the GPU (a runtime index would put them in local memory).
// VOXWAVE_NO_UNROLL keeps a loop rolled (a GPU kernel's registers then hold one iteration).
#if defined(__CUDACC__)
#define VOXWAVE_UNROLL _Pragma("unroll")
#define VOXWAVE_NO_UNROLL _Pragma("unroll 1")
#else
#define VOXWAVE_UNROLL _Pragma("GCC unroll 16")
#define VOXWAVE_NO_UNROLL _Pragma("GCC unroll 1")
#endif
