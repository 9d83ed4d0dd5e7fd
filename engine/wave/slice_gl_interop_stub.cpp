// Builds without CUDA or without GL headers: the interop refuses with a clear message.
#include "wave/slice_gl_interop.hpp"

#if !VOXWAVE_GL_INTEROP
#include "core/errors.hpp"

namespace voxwave {

namespace {
const char* const kNoInterop = "this build has no CUDA-OpenGL interop (CUDA or the OpenGL headers were missing)";
}

bool gl_interop_built() { return false; }
std::vector<int> gl_interop_devices(std::string* why) {
    if (why) *why = kNoInterop;
    return {};
}
GlSliceBuffer::GlSliceBuffer(unsigned, int) { throw RuntimeError(kNoInterop); }
GlSliceBuffer::~GlSliceBuffer() = default;
void GlSliceBuffer::write(const WaveSession&, SlicePlane, int, SliceQuantity) {}
bool GlSliceBuffer::copy_from(DeviceSliceStaging&, StagedSliceInfo* info) {
    if (info) *info = {};
    return false;
}

}  // namespace voxwave
#endif
