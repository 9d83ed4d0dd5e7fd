// Central-difference time integration (seed 000 eq. 19) on the CPU, FP64 or FP32.
//
// With Rayleigh damping C = alpha M + beta K the update is
//   (1 + h) u+ = 2u - (1 - h) u- + dt^2 M^-1 (F - K w),  h = (alpha + sponge) dt / 2,
//   w = u + (beta / dt)(u - u-),
// i.e. the mass term is centred (diagonal, so still explicit) and the stiffness term uses the
// backward velocity, which keeps ONE stiffness product per step (K w). Fixed nodes and nodes
// touching no element have M^-1 = 0 and stay at rest.
//
// For VFEM and OVFEM the step is one sweep (VoxelStiffnessCpu::step_fused): the update of a node
// plane runs as soon as its force is complete, so f never goes to memory. TCOVFEM and a model
// with a PML take two passes, product then update; a PML (pml_correction_cpu.hpp) adds its
// element forces right after the product and replaces u+ at its nodes after the update. A
// subdomain of a distributed run (set_halo_exchange) steps like a whole model and then fills its
// ghost nodes from the neighbours (halo_exchange.hpp).
//
// The stiffness product is VoxelStiffnessCpu<Real> for VFEM and OVFEM, and for TCOVFEM (FP64
// only) TcovfemStiffnessCpu, the exact CPU emulation of the INT8 Tensor Core product with
// problem.stages digits.
#pragma once

#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include "wave/halo_exchange.hpp"
#include "wave/pml_correction_cpu.hpp"
#include "wave/tcovfem_stiffness_cpu.hpp"
#include "wave/voxel_stiffness_cpu.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
class CpuTimeStepper {
public:
    // The problem keeps the run rules (assert_run_rules; std::logic_error otherwise), and
    // TCOVFEM runs in CpuTimeStepper<double> only (it computes in INT8 digits and FP64).
    explicit CpuTimeStepper(const WaveProblem& problem);

    std::size_t node_count() const { return nn_; }
    // Displacement vectors are SoA: [component * node_count + node].
    void set_state(const std::vector<double>& u_prev, const std::vector<double>& u);
    std::vector<double> displacement() const;
    std::vector<double> previous_displacement() const;
    // Advances from t_n = n dt to t_{n+1}, with source forces evaluated at t_n.
    void step(std::int64_t n);
    // A subdomain of a distributed run: after each step the ghost nodes of u take the
    // neighbours' values (halo_exchange.hpp). Null: a whole model.
    void set_halo_exchange(HaloExchange* exchange) { exchange_ = exchange; }
    // Tests only: the two-pass path (product, then update) for VFEM and OVFEM too, to check the
    // fused sweep against it.
    void set_two_pass(bool two_pass) { two_pass_ = two_pass; }
    // Bytes one step must move between the caches and memory, counted for the path step takes
    // (the fused sweep, or the product and update passes with TCOVFEM or a PML).
    double bytes_per_step() const;
    // Bytes the stepper holds now: state, update factors, force vector or fused-sweep buffers.
    std::size_t memory_bytes() const;
    // K v for any v (SoA), without damping: used by energy checks and the element tests.
    std::vector<double> stiffness_times(const std::vector<double>& v) const;
    const std::vector<double>& node_mass() const { return problem_.node_mass; }
    double displacement_at(std::size_t node, int comp) const { return double(u_[comp * nn_ + node]); }
    double previous_at(std::size_t node, int comp) const { return double(up_[comp * nn_ + node]); }

private:
    std::array<const Real*, 3> cptrs(const std::vector<Real>& v) const;
    std::array<Real*, 3> ptrs(std::vector<Real>& v) const;
    // f = K w (w = u + b (u - u_prev)) with whichever product the method uses.
    void apply_stiffness(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev, Real b,
                         const std::array<Real*, 3>& f) const;

    // The VFEM/OVFEM product when step fuses the update into its sweep (not with a PML: its
    // correction needs the finished product); null otherwise.
    const VoxelStiffnessCpu<Real>* fused() const;
    void add_sources(std::int64_t n);

    using Stiffness = std::variant<VoxelStiffnessCpu<Real>, TcovfemStiffnessCpu>;
    static Stiffness make_stiffness(const WaveProblem& problem);

    const WaveProblem& problem_;
    std::size_t nn_;
    Stiffness stiffness_;
    std::vector<Real> u_, up_, f_;
    std::vector<Real> dt2_inv_mass_;    // dt^2 / m, 0 where the node is fixed or massless
    std::vector<Real> inv_one_plus_h_;  // 1 / (1 + h) per node (h from alpha and the sponge); one entry if uniform_h_
    std::vector<Real> one_minus_h_;     // (1 - h) per node; one entry if uniform_h_
    Real beta_over_dt_;
    HaloExchange* exchange_ = nullptr;
    bool two_pass_ = false;
    std::unique_ptr<PmlCorrectionCpu<Real>> pml_;  // null without a PML
    bool uniform_h_;                               // no sponge: every node has the same h (entry 0 of the h arrays)
};

extern template class CpuTimeStepper<double>;
extern template class CpuTimeStepper<float>;

}  // namespace voxwave
