// Programmatic dependent launch (sm_90 and newer), the kernel's side. A kernel launched by
// cuda::launch_programmatic (programmatic_launch.cuh) may be scheduled while the kernel before it
// in the stream still runs: its blocks take each SM's place as the previous kernel's blocks there
// exit, and do the work that reads only constants (index tables, parameters) while the last ones
// finish. release_next_and_await_previous_grid() is where such a kernel's constant-only prologue
// ends: it lets the next kernel of the stream be scheduled, then waits until the previous kernel
// has completed and its writes are visible; every read of a state the previous kernel writes
// comes after it. Without the launch attribute, and on the host (the emulated kernels of the
// tests), it does nothing.
#pragma once

#include "core/host_device.hpp"

namespace voxwave {

VOXWAVE_HD_INLINE void release_next_and_await_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace voxwave
