#include "core/float_env.hpp"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace voxwave {

void flush_denormals_on_this_thread() {
#if defined(__SSE2__)
    _mm_setcsr(_mm_getcsr() | 0x8040);  // FTZ (bit 15) | DAZ (bit 6)
#endif
}

}  // namespace voxwave
