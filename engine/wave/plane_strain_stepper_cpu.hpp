// The plane-strain (2D) time loop on the CPU, FP64 or FP32: the square elements of
// plane_strain_element_kernel.hpp with lumped mass rho ds^2 / 4 per element node (per unit
// thickness), and the central-difference update of time_stepper_cpu.hpp (Rayleigh damping with
// one stiffness product K w a step, the sponge through the per-node h, fixed nodes with
// dt^2/m = 0), shared with the 3D engine through update_coefficients and central_difference.hpp.
//
// The problem's grid has one element layer (n[2] = 1) and the nodes are its lower node plane,
// x-fastest: node = i + (nx + 1) j. Threads take element rows, even rows then odd rows, so that
// two threads never add into the same node row; a row's elements are computed SIMD-wide (void
// squares have lambda = mu = 0 and add nothing).
#pragma once

#include <cstdint>
#include <vector>

#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
class PlaneStrainStepperCpu {
public:
    // problem.dimensions must be 2 (std::logic_error otherwise); VFEM or OVFEM.
    explicit PlaneStrainStepperCpu(const WaveProblem& problem);

    std::size_t node_count() const { return nn_; }
    // Displacement vectors are SoA: [component * node_count + node], 2 components.
    void set_state(const std::vector<double>& u_prev, const std::vector<double>& u);
    std::vector<double> displacement() const { return {u_.begin(), u_.end()}; }
    std::vector<double> previous_displacement() const { return {up_.begin(), up_.end()}; }
    // Advances from t_n = n dt to t_{n+1}, with source forces evaluated at t_n.
    void step(std::int64_t n);
    // K v for any v (SoA), without damping.
    std::vector<double> stiffness_times(const std::vector<double>& v) const;
    double displacement_at(std::size_t node, int comp) const { return double(u_[comp * nn_ + node]); }
    double previous_at(std::size_t node, int comp) const { return double(up_[comp * nn_ + node]); }

private:
    // f = K w, w = (1 + b) u - b u_prev (u_prev ignored when b = 0).
    void apply_stiffness(const Real* u, const Real* u_prev, Real b, Real* f) const;

    const WaveProblem& problem_;
    int nx_, ny_;
    std::size_t nn_;
    std::vector<Real> lambda_, mu_;  // per material id, times nothing (the mode scales are separate)
    Real sc0_, sc1_;
    std::vector<Real> u_, up_, f_;
    std::vector<Real> dt2_inv_mass_, inv_one_plus_h_, one_minus_h_;
    Real beta_over_dt_;
    mutable std::vector<Real> scratch_;  // per thread: one element row's forces, 8 arrays of nx
};

extern template class PlaneStrainStepperCpu<double>;
extern template class PlaneStrainStepperCpu<float>;

}  // namespace voxwave
