// Lets physics written once compile for both the CPU and CUDA (DESIGN §1).
#pragma once

#if defined(__CUDACC__)
#define VOXWAVE_HD __host__ __device__ __forceinline__
#else
#define VOXWAVE_HD inline
#endif
