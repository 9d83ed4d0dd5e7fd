// The central-difference update of one node, written once for the CPU and CUDA steppers
// (time_stepper_cpu.hpp states the scheme): (1 + h) u+ = 2u - (1 - h) u- - dt^2/m f.
#pragma once

#include "core/host_device.hpp"

namespace voxwave {

// a_f = dt^2/m f (0 at fixed or massless nodes).
template <class Real>
VOXWAVE_HD_INLINE Real central_difference_node(Real u, Real u_prev, Real a_f, Real one_minus_h, Real inv_one_plus_h) {
    return (Real(2) * u - one_minus_h * u_prev - a_f) * inv_one_plus_h;
}

}  // namespace voxwave
