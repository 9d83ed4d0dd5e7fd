// Floating-point environment of the engine's worker threads.
#pragma once

namespace voxwave {

// Flushes subnormal results and inputs to zero (x86 MXCSR FTZ|DAZ) on the calling thread for
// the lifetime of the object, then restores the thread's previous mode.
// Why: ahead of a wavefront the central-difference solution decays super-exponentially and
// passes through the subnormal range, where every operation costs ~100x; a 2 mm model then
// runs 10-40x slower for no physical reason. Values that small (< 1e-308 in FP64, < 1e-38 in
// FP32) are 30 orders of magnitude below any displacement we record. Restoring matters: the
// OpenMP pool threads and the caller's thread go on to run other code (strtod reads
// subnormal text differently under DAZ).
class FlushDenormalsScope {
public:
    FlushDenormalsScope();
    ~FlushDenormalsScope();
    FlushDenormalsScope(const FlushDenormalsScope&) = delete;
    FlushDenormalsScope& operator=(const FlushDenormalsScope&) = delete;

private:
    unsigned saved_ = 0;
};

}  // namespace voxwave
