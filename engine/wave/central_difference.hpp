// The central-difference update of one node, written once for the CPU and CUDA steppers
// (time_stepper_cpu.hpp states the scheme): (1 + h) u+ = 2u - (1 - h) u- - dt^2/m f.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace voxwave {

// a_f = dt^2/m f (0 at fixed or massless nodes).
template <class Real>
VOXWAVE_HD_INLINE Real central_difference_node(Real u, Real u_prev, Real a_f, Real one_minus_h, Real inv_one_plus_h) {
    return (Real(2) * u - one_minus_h * u_prev - a_f) * inv_one_plus_h;
}

// K's operand under stiffness-proportional damping, w = keep u - b u_prev, as one explicit fma.
// Why: written out, the compiler may contract it either way, and the CPU and the GPU then differ
// in the last bit of w. TCOVFEM rounds w into its digits, so a last-bit difference can move a
// digit (M = 4: by 2^-28 of the element's scale); with this form both give the same bits.
template <class Real>
VOXWAVE_HD_INLINE Real damped_operand(Real u, Real u_prev, Real keep, Real b) {
    return fma(keep, u, -(b * u_prev));
}

}  // namespace voxwave
