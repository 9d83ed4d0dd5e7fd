// Central-difference time integration of the spectral voxel elements (run.method "sem") on the
// CPU, FP64 or FP32: the scheme of time_stepper_cpu.hpp (Rayleigh damping with one stiffness
// product K w a step, the sponge's per-node h, fixed and massless nodes at rest) on the GLL node
// grid of sem_mesh.hpp, with the GLL-lumped mass.
//
// The step is one sweep over the element planes (sem_plane_sweep_cpu.hpp): elements of an x row
// in SIMD lanes through the sum-factorised kernel (sem_element_kernel.hpp), the state stored in
// the sweep's node order (SemNodeOrderCpu: the interface speaks the x-fastest node numbering of
// sem_mesh and converts), each element plane's
// forces summed into a buffer of its node planes, and each node plane updated by central
// differences as soon as its force is complete. Threads take contiguous chunks of element
// planes; the force at a node plane between two chunks is summed in the one-thread order, so
// the results do not depend on the thread count. With a PML the step is the product, then the
// update (sem_pml_correction_cpu.hpp adds the layer's passes between and after).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "wave/halo_exchange.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_plane_sweep_cpu.hpp"
#include "wave/sem_pml_correction_cpu.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
class SemTimeStepperCpu {
public:
    // problem.method must be sem (std::logic_error otherwise).
    explicit SemTimeStepperCpu(const WaveProblem& problem);

    const SemMesh& mesh() const { return mesh_; }
    std::size_t node_count() const { return nn_; }
    // Displacement vectors are SoA: [component * node_count + node].
    void set_state(const std::vector<double>& u_prev, const std::vector<double>& u);
    std::vector<double> displacement() const;
    std::vector<double> previous_displacement() const;
    // Advances from t_n = n dt to t_{n+1}, with source forces evaluated at t_n.
    void step(std::int64_t n);
    // A subdomain of a distributed run (engine/distributed): after each step the exchange fills
    // the ghost nodes of u with the neighbours' values (wave/halo_exchange.hpp; null: none).
    void set_halo_exchange(HaloExchange* exchange);
    // K v for any v (SoA), without damping: energy checks and tests.
    std::vector<double> stiffness_times(const std::vector<double>& v) const;
    const std::vector<double>& node_mass() const { return problem_.node_mass; }
    double displacement_at(std::size_t node, int comp) const { return double(u_[comp * ns_ + order_.index(node)]); }
    double previous_at(std::size_t node, int comp) const { return double(up_[comp * ns_ + order_.index(node)]); }
    // Bytes the stepper holds: state, update factors, the sweep's buffers (N + 1 node planes a
    // thread, allocated by the first step) and the PML's pass.
    std::size_t memory_bytes() const;

private:
    // f = K w, w = (1 + b) u - b u_prev (u_prev null: w = u); f overwritten.
    void apply(const Real* u, const Real* u_prev, Real b, Real* f) const;
    template <int P>
    void apply_order(const Real* u, const Real* u_prev, Real b, Real* f) const;
    // The fused step of order P: the sweep hands each completed node plane to the update.
    template <int P>
    void step_order();
    // With a PML (sem_pml_correction_cpu.hpp): the product into f, the layer's element changes
    // added, every node updated, then the layer's nodes replaced from y (the voxel stepper's order).
    void step_with_pml();
    // The exchange of u (exchange_ set), in place through order_.
    void exchange_ghosts();
    SemSweepInput<Real> sweep_input() const;

    const WaveProblem& problem_;
    SemMesh mesh_;
    std::size_t nn_;
    SemNodeOrderCpu order_;          // the order of the state and the per-node factors below
    std::size_t ns_;                 // entries a component (order_.size)
    std::vector<Real> lambda_, mu_;  // per material id (entry 0: void)
    std::vector<Real> u_, up_;
    std::vector<Real> dt2_inv_mass_, inv_one_plus_h_, one_minus_h_;
    // No sponge and one alpha: every node has the same h, and the update reads two arrays less
    // (inv_one_plus_h_ and one_minus_h_ then hold that one value).
    bool uniform_h_ = false;
    Real beta_over_dt_;
    std::vector<SourceTerm> sources_;    // the problem's, their nodes in order_
    SemSweepWorkspace<Real> workspace_;  // the step's sweep buffers, kept between steps
    HaloExchange* exchange_ = nullptr;
    std::unique_ptr<SemPmlCorrectionCpu<Real>> pml_;  // its arrays in order_
    std::vector<Real> f_;                             // the force of the PML's two-pass step, in order_
};

extern template class SemTimeStepperCpu<double>;
extern template class SemTimeStepperCpu<float>;

}  // namespace voxwave
