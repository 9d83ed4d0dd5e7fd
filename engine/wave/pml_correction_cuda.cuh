// The PML on the CUDA engine (time_stepper_cuda.cu): a mirror of the CPU layer pass
// (pml_correction_cpu.hpp) on flat device arrays of the layer's tables (boundary/pml_layer.hpp),
// with the same per-element and per-node arithmetic (pml_element_kernel.hpp), in FP64 whatever
// the engine's precision. Memory only for the layer's elements, nodes and poles.
//
// Two kernels a step (docs/architecture.md, "The PML on the GPU", says why they are shaped so):
//   add_element_forces: the (PML - interior) force of every layer element, from its moments of
//     w = keep u - b u- and their convolutions, which it advances; one warp per layer element,
//     lane v its moment value v (21 of 32 lanes): the corners and the stress moments go between
//     the lanes by shuffles, each lane runs its value's chain of convolutions in registers, the
//     memory variables of an element pole are 21 consecutive doubles (a warp's loads coalesce);
//     the force added with atomics (an element's 8 nodes are shared with its neighbours);
//   update_nodes: the central difference of the stretched displacement y = S u at every layer
//     node with the whole force a f there, and u+ from y+ (PmlTables), which replaces the
//     engine's u+ at the node; a thread per node and component, the memory variables stage by
//     stage (PmlStages).
// Split design: the element pass adds into f before the stiffness product (both add into f,
// which the previous update left zero), as on the CPU; update_nodes reads the whole f (plus
// TCOVFEM's FP64 diagonal, which the engine's update kernel adds) and keeps u+ in a scratch
// array that write_nodes copies over the update's u+.
// Fused step (which never holds f in memory): the kernel stays as it is for the whole model and
// both passes run after it. The update is linear in f, so the element pass moves u+ by
// -dt^2/m / (1 + h) df, and update_nodes recovers a f = 2u - (1 - h) u- - (1 + h) u+ from the
// engine's u+ (u and u- are still there: u+ goes to a third buffer).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "boundary/pml_layer.hpp"
#include "core/device_buffer.cuh"
#include "wave/pml_node_pole_args.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::cuda {

// The most poles of a layer element or node: two per stretched axis.
inline constexpr int kPmlMaxPoles = 6;

// Where stage k of the chains of the node pass's items keeps its memory variables: at
// base[k] * values + value * count[k] + q, q the item in the pass's order, value the component
// (3). The items are ordered by their number of poles, most first, so those with a stage k are
// the prefix [0, count[k]), and a warp's consecutive items read and write whole cache lines of
// each stage and component.
struct PmlStages {
    int stages = 0;  // the most poles of an item
    std::size_t count[kPmlMaxPoles] = {};
    std::size_t base[kPmlMaxPoles] = {};  // the item poles of the stages before k
};

// Where a PML pass adds its corrections: f (scale = null: f += df) or u+ (u+ += -scale df,
// scale = dt^2/m per node times 1 / (1 + h): ih per node, or ih0 where ih is null).
template <class Real>
struct PmlTarget {
    Real* out[3];
    const Real* scale = nullptr;
    const Real* ih = nullptr;
    Real ih0 = Real(1);
};

// Where update_nodes finds the whole force at a node: f (split; diag: TCOVFEM's FP64 diagonal
// per node or null, applied to keep u - b u- as the update kernel does), or the engine's u+
// (fused; recovered with its factors mh, ih per node or mh0, ih0, and a).
template <class Real>
struct PmlNodeForce {
    const Real* f[3] = {nullptr, nullptr, nullptr};
    const double* diag = nullptr;
    Real keep = Real(1), b = Real(0);
    const Real* up[3] = {nullptr, nullptr, nullptr};
    const Real* a = nullptr;
    const Real *mh = nullptr, *ih = nullptr;
    Real mh0 = Real(1), ih0 = Real(1);
};

template <class Real>
class PmlCorrection {
public:
    // tables: pml_tables of problem's layer (made on the host beside the engine's other tables).
    PmlCorrection(const WaveProblem& problem, const PmlTables& tables);

    bool empty() const { return elements_ == 0 && nodes_ == 0; }
    // A state (um, u) with no history in the layer: the convolutions 0, y = c0 u, y- = c0 um.
    void reset(const Real* const um[3], const Real* const u[3]);
    // u, um: u^n and u^{n-1} (SoA components); b: the engine's beta / dt (w = (1 + b) u - b u-).
    void add_element_forces(const Real* const u[3], const Real* const um[3], Real b, const PmlTarget<Real>& target,
                            cudaStream_t stream = nullptr);
    // u+ at every layer node that is not fixed: into out (the fused step's u+) or, out null,
    // into the scratch array that write_nodes copies (the split design, before its update).
    void update_nodes(const Real* const u[3], const Real* const um[3], const PmlNodeForce<Real>& force,
                      Real* const* out, cudaStream_t stream = nullptr);
    void write_nodes(Real* const out[3], cudaStream_t stream = nullptr);
    // What the layer holds on the device, bytes (the engine's memory check, before it allocates);
    // damped: Rayleigh's beta is not 0 (the moments of each step are kept for the next).
    static std::size_t bytes_of(const PmlTables& t, bool damped);

private:
    const WaveProblem& problem_;
    std::size_t elements_ = 0, nodes_ = 0;
    double scales_[3] = {0, 0, 0};
    DeviceBuffer<double> lambda_, mu_;  // by material id [256]
    // Elements: corner (0, 0, 0), material, class and first pole of each (element_first_pole);
    // their poles and coefficients by class (pml_element_classes).
    DeviceBuffer<unsigned long long> element_node0_, element_first_pole_;
    DeviceBuffer<std::uint8_t> ids_;
    DeviceBuffer<std::uint32_t> element_class_, class_first_pole_;
    DeviceBuffer<double> element_decay_, element_w_old_, element_w_new_, filter_const_, filter_newton_;
    // The exchange of the stress moments' terms between an element's lanes (PmlStressExchange).
    DeviceBuffer<std::uint32_t> exchange_from_;
    DeviceBuffer<double> exchange_mu_, exchange_lambda_;
    // Nodes, in the pass's order (PmlStages): index, c0, dt^2 / m (0 where fixed), and per pole
    // (stage-major) the Newton coefficient and the recursion factors.
    PmlStages node_stages_;
    DeviceBuffer<unsigned long long> node_;
    DeviceBuffer<double> node_scale_, node_a_, node_newton_, node_decay_, node_w_old_, node_w_new_;
    template <class Layer>
    friend void voxwave::fill_pml_node_poles(PmlNodePoleArgs&, const Layer&);
    double one_minus_h_ = 1, inv_one_plus_h_ = 1;  // Rayleigh's mass term, on y
    // The memory variables: psi 21 values per element pole ([pole][value]), moments_prev_
    // ([element][value]) only with Rayleigh's beta (PmlCorrectionCpu says why), node_psi_
    // (PmlStages); fresh_: the step after a reset, whose previous moments are 0.
    DeviceBuffer<double> psi_, moments_prev_, node_psi_;
    bool fresh_ = true;
    DeviceBuffer<double> y_, y_prev_;  // [component][node]: S u now and a step before (swapped each step)
    DeviceBuffer<Real> next_;          // [component][node]: u+ (split design)
};

extern template class PmlCorrection<double>;
extern template class PmlCorrection<float>;

}  // namespace voxwave::cuda
