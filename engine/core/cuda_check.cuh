// The one check of CUDA calls: a failure becomes a RuntimeError naming the call, file and line.
// The status codes of the CUDA libraries (cuBLAS, cuSOLVER, cuSPARSE) go through the same macro
// once cuda_library_check.cuh is included.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "core/errors.hpp"

namespace voxwave::cuda {

// "<library> error in <call> (<file>:<line>): <status>", for every overload of check.
[[noreturn]] inline void throw_call_error(const char* library, const std::string& status, const char* what,
                                          const char* file, int line) {
    throw RuntimeError(std::string(library) + " error in " + what + " (" + file + ":" + std::to_string(line) +
                       "): " + status);
}

inline void check(cudaError_t err, const char* what, const char* file, int line) {
    if (err != cudaSuccess) throw_call_error("CUDA", cudaGetErrorString(err), what, file, line);
}

}  // namespace voxwave::cuda

#define VOXWAVE_CUDA_CHECK(call) ::voxwave::cuda::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch-configuration errors appear here, execution errors at the next sync.
#define VOXWAVE_CUDA_CHECK_LAUNCH(name) ::voxwave::cuda::check(cudaGetLastError(), name, __FILE__, __LINE__)
