#include "core/float_env.hpp"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace voxwave {

#if defined(__SSE2__)
FlushDenormalsScope::FlushDenormalsScope() : saved_(_mm_getcsr()) {
    _mm_setcsr(saved_ | 0x8040u);  // FTZ (bit 15) | DAZ (bit 6)
}
FlushDenormalsScope::~FlushDenormalsScope() { _mm_setcsr(saved_); }
#else
FlushDenormalsScope::FlushDenormalsScope() = default;
FlushDenormalsScope::~FlushDenormalsScope() = default;
#endif

}  // namespace voxwave
