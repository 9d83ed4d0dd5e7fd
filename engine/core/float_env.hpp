// Floating-point environment of the engine's worker threads.
#pragma once

namespace voxwave {

// Flushes subnormal results and inputs to zero on the calling thread (x86 MXCSR FTZ|DAZ).
// Why: ahead of a wavefront the central-difference solution decays super-exponentially and
// passes through the subnormal range, where every operation costs ~100x; a 2 mm model then
// runs 10-40x slower for no physical reason. Values that small (< 1e-308 in FP64, < 1e-38 in
// FP32) are 30 orders of magnitude below any displacement we record.
void flush_denormals_on_this_thread();

}  // namespace voxwave
