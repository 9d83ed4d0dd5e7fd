#include <cuda_gl_interop.h>
#include <algorithm>

#include "core/cuda_check.cuh"
#include "core/errors.hpp"
#include "wave/slice_gl_interop.hpp"

namespace voxwave {

bool gl_interop_built() { return true; }

std::vector<int> gl_interop_devices(std::string* why) {
    int present = 0;
    cudaError_t err = cudaGetDeviceCount(&present);
    if (err != cudaSuccess || present < 1) {
        if (why) *why = std::string("no CUDA device (") + cudaGetErrorString(err) + ")";
        return {};
    }
    unsigned count = 0;
    int devices[16];
    err = cudaGLGetDevices(&count, devices, 16, cudaGLDeviceListAll);
    if (err != cudaSuccess || count == 0) {
        if (why) *why = std::string("the OpenGL context is not on a CUDA device (") + cudaGetErrorString(err) + ")";
        cudaGetLastError();  // not sticky; clear it for later checked calls
        return {};
    }
    return std::vector<int>(devices, devices + std::min(count, 16u));
}

GlSliceBuffer::GlSliceBuffer(unsigned buffer, int device) {
    if (device >= 0) VOXWAVE_CUDA_CHECK(cudaSetDevice(device));
    VOXWAVE_CUDA_CHECK(cudaGetDevice(&device_));
    cudaGraphicsResource_t r = nullptr;
    // WriteDiscard: CUDA overwrites the whole slice each time, GL only reads it.
    VOXWAVE_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&r, buffer, cudaGraphicsRegisterFlagsWriteDiscard));
    resource_ = r;
}

GlSliceBuffer::~GlSliceBuffer() {
    if (!resource_) return;
    cudaSetDevice(device_);
    if (stream_) {
        cudaStreamSynchronize(static_cast<cudaStream_t>(stream_));
        cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
    }
    cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(resource_));
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

bool GlSliceBuffer::copy_from(DeviceSliceStaging& staging, StagedSliceInfo* info) {
    if (!staging.has_new()) {  // only the consumer takes, so a new one stays new
        if (info) *info = {};
        return false;
    }
    if (staging.device() != device_)
        throw RuntimeError("the engine runs on CUDA device " + std::to_string(staging.device()) +
                           ", the OpenGL buffer was registered on device " + std::to_string(device_));
    VOXWAVE_CUDA_CHECK(cudaSetDevice(device_));
    if (!stream_) {
        cudaStream_t s = nullptr;
        VOXWAVE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        stream_ = s;
    }
    auto stream = static_cast<cudaStream_t>(stream_);
    auto r = static_cast<cudaGraphicsResource_t>(resource_);
    VOXWAVE_CUDA_CHECK(cudaGraphicsMapResources(1, &r, stream));
    bool copied = false;
    try {
        float* dst = nullptr;
        std::size_t bytes = 0;
        VOXWAVE_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(reinterpret_cast<void**>(&dst), &bytes, r));
        copied = staging.copy_latest(dst, bytes / sizeof(float), stream, info);
    } catch (...) {
        cudaGraphicsUnmapResources(1, &r, stream);
        throw;
    }
    // GL work issued after the unmap starts after the copy queued on `stream` before it.
    VOXWAVE_CUDA_CHECK(cudaGraphicsUnmapResources(1, &r, stream));
    return copied;
}

}  // namespace voxwave
