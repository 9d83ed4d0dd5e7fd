// CUDA-OpenGL interop for the live view: a GL buffer object registered with CUDA once, into
// which the CUDA engine writes a wavefield slice on the GPU (no copy through the host).
// No GL calls here: the caller owns the GL buffer and its context (the GUI's view, or the
// headless EGL test).
#pragma once

#include "wave/wave_session.hpp"

namespace voxwave {

// True when this build has the interop (CUDA compiled and the GL headers were found).
bool gl_interop_built();

class GlSliceBuffer {
public:
    // Registers GL buffer object `buffer` (its context must be current on this thread).
    // Throws RuntimeError when the build or the device cannot do interop.
    explicit GlSliceBuffer(unsigned buffer);
    ~GlSliceBuffer();
    GlSliceBuffer(const GlSliceBuffer&) = delete;
    GlSliceBuffer& operator=(const GlSliceBuffer&) = delete;

    // Maps the buffer, lets the session's CUDA engine write width x height floats of the slice
    // into it, unmaps (the GL side may draw from it afterwards). The buffer must hold them.
    void write(const WaveSession& session, SlicePlane plane, int index, SliceQuantity quantity);

private:
    void* resource_ = nullptr;  // cudaGraphicsResource_t
};

}  // namespace voxwave
