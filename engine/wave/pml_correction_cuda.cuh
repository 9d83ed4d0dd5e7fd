// The PML on the CUDA engine (time_stepper_cuda.cu): a mirror of the CPU layer pass
// (pml_correction_cpu.hpp) on flat device arrays of the layer's tables (boundary/pml_layer.hpp),
// with the same per-element and per-node arithmetic (pml_element_kernel.hpp), in FP64 whatever
// the engine's precision. Memory only for the layer's elements, nodes and poles.
//
// Two kernels a step, one thread per layer element and one per layer node:
//   add_element_forces: the (PML - interior) force of every layer element, from its moments of
//     w = keep u - b u- and their convolutions, which it advances; added with atomics (an
//     element's 8 nodes are shared with its neighbours);
//   add_node_forces: the mass term's remainder m [c2 u + sum_p r_p p^2 psi_p(u)] at every layer
//     node (the mass factors c0 and c1 are in the engine's update coefficients).
// Where the corrections go (PmlTarget):
//   - into f, before the update (split design): the element pass may run before the stiffness
//     product (both add into f, which the previous update left zero), so that a slab's shared
//     planes carry it through the force exchange as on the CPU; the node pass after the exchange;
//   - into u+, after the update (fused step, which never holds f in memory): the update is linear
//     in f, so a force correction df at node n moves u+ by -dt^2/m (1 / (1 + h)) df. The fused
//     kernel stays as it is for the whole model and both passes run after it; u and u- are still
//     there (u+ goes to a third buffer).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "boundary/pml_layer.hpp"
#include "core/device_buffer.cuh"
#include "wave/wave_problem.hpp"

namespace voxwave::cuda {

// Where a PML pass adds its corrections: f (scale = null: f += df) or u+ (u+ += -scale df,
// scale = dt^2/m per node times 1 / (1 + h): ih per node, or ih0 where ih is null).
template <class Real>
struct PmlTarget {
    Real* out[3];
    const Real* scale = nullptr;
    const Real* ih = nullptr;
    Real ih0 = Real(1);
};

template <class Real>
class PmlCorrection {
public:
    // tables: pml_tables of problem's layer (made on the host beside the engine's other tables).
    PmlCorrection(const WaveProblem& problem, const PmlTables& tables);

    bool empty() const { return elements_ == 0 && nodes_ == 0; }
    // Back to rest: every memory variable 0.
    void reset();
    // u, um: u^n and u^{n-1} (SoA components); b: the engine's beta / dt (w = (1 + b) u - b u-).
    void add_element_forces(const Real* const u[3], const Real* const um[3], Real b, const PmlTarget<Real>& target,
                            cudaStream_t stream = nullptr);
    void add_node_forces(const Real* const u[3], const Real* const um[3], const PmlTarget<Real>& target,
                         cudaStream_t stream = nullptr);
    std::size_t device_bytes() const;
    // What the tables of a layer hold on the device, bytes (the engine's memory check).
    static std::size_t bytes_of(const PmlTables& t);

private:
    const WaveProblem& problem_;
    std::size_t elements_ = 0, nodes_ = 0;
    double scales_[3] = {0, 0, 0};
    DeviceBuffer<std::uint8_t> ids_;  // material of each layer element
    DeviceBuffer<unsigned long long> element_, element_first_pole_, node_, node_first_pole_;
    DeviceBuffer<double> lambda_, mu_;  // by material id [256]
    DeviceBuffer<double> element_decay_, element_w_old_, element_w_new_, filter_const_, filter_residue_;
    DeviceBuffer<double> node_decay_, node_w_old_, node_w_new_, node_stiffness_, node_residue_;
    DeviceBuffer<double> psi_, moments_prev_, node_psi_;  // the memory variables
};

extern template class PmlCorrection<double>;
extern template class PmlCorrection<float>;

}  // namespace voxwave::cuda
