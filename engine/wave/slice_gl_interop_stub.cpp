// Builds without CUDA or without GL headers: the interop refuses with a clear message.
#include "wave/slice_gl_interop.hpp"

#if !VOXWAVE_GL_INTEROP
#include "core/errors.hpp"

namespace voxwave {

bool gl_interop_built() { return false; }
GlSliceBuffer::GlSliceBuffer(unsigned) {
    throw RuntimeError("this build has no CUDA-OpenGL interop (CUDA or the OpenGL headers were missing)");
}
GlSliceBuffer::~GlSliceBuffer() = default;
void GlSliceBuffer::write(const WaveSession&, SlicePlane, int, SliceQuantity) {}

}  // namespace voxwave
#endif
