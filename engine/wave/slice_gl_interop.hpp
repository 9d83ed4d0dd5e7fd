// CUDA-OpenGL interop for the live view: a GL buffer object registered with CUDA once, into
// which the CUDA engine writes a wavefield slice on the GPU (no copy through the host), either
// directly (write: the caller owns the session) or from a DeviceSliceStaging that another thread
// fills (copy_from: the GUI, while the worker thread keeps stepping).
// No GL calls here: the caller owns the GL buffer and its context (the GUI's view, or the
// headless EGL test).
#pragma once

#include <string>
#include <vector>

#include "wave/slice_staging.hpp"
#include "wave/wave_session.hpp"

namespace voxwave {

// True when this build has the interop (CUDA compiled and the GL headers were found).
bool gl_interop_built();

// The CUDA devices that the current OpenGL context (current on this thread) renders on; empty
// with the reason in *why when there is none (no interop in the build, no CUDA device, or the
// context is not on an NVIDIA GPU, e.g. Mesa's llvmpipe).
std::vector<int> gl_interop_devices(std::string* why = nullptr);

class GlSliceBuffer {
public:
    // Registers GL buffer object `buffer` (its context must be current on this thread) on CUDA
    // device `device` (-1: the thread's current device). The buffer's storage must not be
    // re-specified (glBufferData) while registered. Throws RuntimeError when the build or the
    // device cannot do interop.
    explicit GlSliceBuffer(unsigned buffer, int device = -1);
    ~GlSliceBuffer();
    GlSliceBuffer(const GlSliceBuffer&) = delete;
    GlSliceBuffer& operator=(const GlSliceBuffer&) = delete;

    // Maps the buffer, lets the session's CUDA engine write width x height floats of the slice
    // into it, unmaps (the GL side may draw from it afterwards). The buffer must hold them.
    void write(const WaveSession& session, SlicePlane plane, int index, SliceQuantity quantity);

    // When `staging` has a new snapshot: maps the buffer, copies the snapshot into it device to
    // device on this buffer's own CUDA stream (which does not wait for the engine's kernels),
    // unmaps; GL commands issued afterwards see the data. Returns false when there was nothing
    // new (*info = {}) or when the snapshot does not fit the buffer (*info its size: grow the
    // buffer, register it again and retry). Throws RuntimeError on a CUDA failure or when the staging is on another
    // device.
    bool copy_from(DeviceSliceStaging& staging, StagedSliceInfo* info);

private:
    void* resource_ = nullptr;  // cudaGraphicsResource_t
    void* stream_ = nullptr;    // cudaStream_t, non-blocking, for copy_from
    int device_ = 0;
};

}  // namespace voxwave
