// Programmatic dependent launch (sm_90 and newer), the host's side: a kernel launched so that it
// may start before the previous kernel of its stream ends. The kernel must call
// release_next_and_await_previous_grid() (grid_dependency.hpp) before it reads anything that
// kernel writes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "core/cuda_check.cuh"

namespace voxwave::cuda {

// Whether the current device runs programmatic dependent launches (compute capability 9 and up).
inline bool device_runs_programmatic_launch() {
    static const bool runs = [] {
        int device = 0, major = 0;
        VOXWAVE_CUDA_CHECK(cudaGetDevice(&device));
        VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
        return major >= 9;
    }();
    return runs;
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...), as a programmatic dependent of the
// stream's previous kernel where `programmatic` (else an ordinary launch).
template <class... Params, class... Args>
void launch_programmatic(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                         cudaStream_t stream, bool programmatic, Args&&... args) {
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared_bytes;
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = programmatic ? 1 : 0;
    VOXWAVE_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace voxwave::cuda
