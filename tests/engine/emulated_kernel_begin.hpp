// Opens the inclusion of a CUDA kernel header for the host emulation (cuda_host_emulation.hpp):
// __global__ and __launch_bounds__ vanish and __shared__ becomes a static (one block runs at a
// time). Include the kernel header next, then emulated_kernel_end.hpp. No include guard: each
// inclusion defines the macros again. Kernel headers with #pragma unroll need
// -Wno-unknown-pragmas (tests/CMakeLists.txt).
#include "cuda_host_emulation.hpp"

#define __global__
#define __launch_bounds__(...)
#define __shared__ static
