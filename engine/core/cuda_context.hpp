// Creating a CUDA device's context ahead of the work that is timed (a CUDA runtime's first call on
// a device pays for the context, a few hundred milliseconds): defined in device_cuda.cu, and as
// nothing in a build without CUDA (without_cuda.cpp).
#pragma once

namespace voxwave {

// Makes device `index` current and creates its context. Errors are left to the caller's own first
// CUDA call, which reports them in its context.
void cuda_start_context(int index);

}  // namespace voxwave
