// The PML on the CPU steppers: two passes over the layer's flat tables (boundary/pml_layer.hpp),
// run each step between the stiffness product and the node update (time_stepper_cpu.hpp).
//
//   add_element_forces: f += (PML - interior) force of every layer element, from its moments of
//     w and their convolutions, which it advances (before a distributed run's force exchange:
//     these are element forces, partial on a slab's shared planes like the product's);
//   add_node_forces: f += the mass term's remainder m [c2 u + sum_p r_p p^2 psi_p(u)] at every
//     layer node (after the exchange: a node term, whole on each slab's copy of the node).
//
// Both compute in FP64 whatever the stepper's precision (the layer is a small part of the model,
// and the filters' residues grow where poles are close). The memory variables exist for the
// layer's elements and nodes only. Not reentrant: one step at a time.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "boundary/pml_layer.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
class PmlCorrectionCpu {
public:
    explicit PmlCorrectionCpu(const WaveProblem& problem);

    bool empty() const { return tables_.empty(); }
    // w = (1 + b) u - b u_prev (u_prev null: w = u), the stiffness product's operand.
    void add_element_forces(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev, Real b,
                            const std::array<Real*, 3>& f);
    void add_node_forces(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev,
                         const std::array<Real*, 3>& f);
    // Back to rest (every memory variable 0).
    void reset();
    std::size_t memory_bytes() const;
    std::size_t layer_elements() const { return tables_.element.size(); }
    std::size_t layer_nodes() const { return tables_.node.size(); }

private:
    const WaveProblem& problem_;
    PmlTables tables_;
    std::array<double, 3> scales_{};
    std::vector<double> lambda_, mu_;         // by material id
    std::vector<double> psi_, moments_prev_;  // per element pole and per element, 21 each
    std::vector<double> node_psi_;            // 3 per node pole
    std::vector<std::size_t> plane_first_;    // layer elements of element plane k: [plane_first_[k], [k + 1])
    std::vector<double> forces_;              // 24 per layer element, this step's corrections
};

extern template class PmlCorrectionCpu<double>;
extern template class PmlCorrectionCpu<float>;

}  // namespace voxwave
