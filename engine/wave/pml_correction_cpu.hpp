// The PML on the CPU steppers: two passes over the layer's flat tables (boundary/pml_layer.hpp).
//
//   add_element_forces, right after the stiffness product:
//     f += (PML - interior) force of every layer element, from its moments of w and their
//     convolutions, which it advances;
//   update_nodes, after the node update (whose u+ it replaces at the layer's nodes): the
//     central difference of the stretched displacement y = S u with the whole force f, and u+
//     from y+ (pml_layer.hpp, PmlTables).
//
// Both compute in FP64 whatever the stepper's precision (the layer is a small part of the model,
// and a run on another backend is compared with this one to FP64 rounding). The memory variables exist for the
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
    // u_next[c][n] = u+ at every layer node that is not fixed, from u and the whole force f.
    void update_nodes(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& f,
                      const std::array<Real*, 3>& u_next);
    // A state (u-, u) with no history in the layer: the convolutions 0, y = c0 u and y- = c0 u-.
    void reset(const std::array<const Real*, 3>& u_prev, const std::array<const Real*, 3>& u);
    std::size_t memory_bytes() const;
    std::size_t layer_elements() const { return tables_.element.size(); }
    std::size_t layer_nodes() const { return tables_.node.size(); }

private:
    const WaveProblem& problem_;
    PmlTables tables_;
    PmlElementClasses classes_;  // the elements' poles and coefficients, one row per class
    std::array<double, 3> scales_{};
    std::vector<double> lambda_, mu_;  // by material id
    // The chained convolutions per element pole, 21 each. The chain's input is linear over a step,
    // so each stage needs the moments of the step before too: recomputed from u- (which the
    // stepper still holds) when w = u, kept per element (21 each) only when Rayleigh's beta makes
    // w = (1 + b) u - b u- (whose previous value needs u at two steps back). fresh_: the step
    // after a reset, whose previous moments are 0 (no history).
    std::vector<double> psi_, moments_prev_;
    bool fresh_ = true;
    std::vector<double> node_psi_;           // 3 per node pole
    std::vector<double> y_, y_prev_;         // 3 per layer node: S u at this step and the one before
    std::vector<double> node_dt2_inv_mass_;  // dt^2 / m per layer node, 0 where fixed
    std::vector<std::size_t> plane_first_;   // layer elements of element plane k: [plane_first_[k], [k + 1])
    std::vector<double> forces_;             // 24 per layer element, this step's corrections
};

extern template class PmlCorrectionCpu<double>;
extern template class PmlCorrectionCpu<float>;

}  // namespace voxwave
