#include <cuda_gl_interop.h>

#include "core/errors.hpp"
#include "wave/cuda_support.cuh"
#include "wave/slice_gl_interop.hpp"

namespace voxwave {

bool gl_interop_built() { return true; }

GlSliceBuffer::GlSliceBuffer(unsigned buffer) {
    cudaGraphicsResource_t r = nullptr;
    // WriteDiscard: CUDA overwrites the whole slice each time, GL only reads it.
    VOXWAVE_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&r, buffer, cudaGraphicsRegisterFlagsWriteDiscard));
    resource_ = r;
}

GlSliceBuffer::~GlSliceBuffer() {
    if (resource_) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(resource_));
}

void GlSliceBuffer::write(const WaveSession& session, SlicePlane plane, int index, SliceQuantity quantity) {
    auto r = static_cast<cudaGraphicsResource_t>(resource_);
    VOXWAVE_CUDA_CHECK(cudaGraphicsMapResources(1, &r));
    float* dst = nullptr;
    std::size_t bytes = 0;
    VOXWAVE_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(reinterpret_cast<void**>(&dst), &bytes, r));
    const auto e = slice_extent(session.problem().grid, plane);
    if (bytes < std::size_t(e[0]) * e[1] * sizeof(float)) {
        cudaGraphicsUnmapResources(1, &r);
        throw RuntimeError("GL slice buffer too small: " + std::to_string(bytes) + " bytes for a " +
                           std::to_string(e[0]) + " x " + std::to_string(e[1]) + " slice");
    }
    try {
        session.slice_to_device(plane, index, quantity, dst);
    } catch (...) {
        cudaGraphicsUnmapResources(1, &r);
        throw;
    }
    VOXWAVE_CUDA_CHECK(cudaGraphicsUnmapResources(1, &r));
}

}  // namespace voxwave
