// The central-difference update of one node, written once for the CPU and CUDA steppers
// (time_stepper_cpu.hpp states the scheme): (1 + h) u+ = 2u - (1 - h) u- - dt^2/m f.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "core/errors.hpp"
#include "core/host_device.hpp"
#include "wave/wavelet.hpp"

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

// The point-source loop of every CPU stepper, after its update: u+ += dt^2/m F(t_n) / (1 + h) at
// the source nodes. sources: WaveProblem::sources (node, force, wavelet, time_shift);
// components: 3, or 2 for plane strain; uniform_h: inv_one_plus_h holds one value for all nodes.
template <class Real, class Sources>
void add_point_sources(const Sources& sources, double t, int components, std::size_t nn, const Real* dt2_inv_mass,
                       const Real* inv_one_plus_h, bool uniform_h, Real* u_next) {
    for (const auto& s : sources) {
        const double w = evaluate_wavelet(s.wavelet, t - s.time_shift);
        if (w == 0.0) continue;
        const Real scale = dt2_inv_mass[s.node] * inv_one_plus_h[uniform_h ? 0 : s.node];
        for (int c = 0; c < components; ++c)
            u_next[std::size_t(c) * nn + s.node] += scale * static_cast<Real>(s.force[c] * w);
    }
}

// A state vector (u or u-, given in double) as every stepper holds it: `components` x nn, component
// major, in Real, held at 0 at the nodes where held(n) (fixed or massless: the update never moves
// them, so a state that moved them would not be one the scheme can reach). The one home of
// set_state's rule; throws RuntimeError("set_state: wrong vector size").
template <class Real, class Held>
std::vector<Real> stepper_state(const std::vector<double>& v, int components, std::size_t nn, Held held) {
    if (v.size() != std::size_t(components) * nn) throw RuntimeError("set_state: wrong vector size");
    std::vector<Real> out(v.begin(), v.end());
    for (std::size_t n = 0; n < nn; ++n)
        if (held(n))
            for (int c = 0; c < components; ++c) out[std::size_t(c) * nn + n] = Real(0);
    return out;
}

}  // namespace voxwave
