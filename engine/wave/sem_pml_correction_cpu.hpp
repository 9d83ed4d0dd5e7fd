// The convolutional PML of the spectral voxel elements (run.method "sem") on the CPU: the voxel
// elements' formulation (boundary/pml_layer.hpp, docs/architecture.md#the-convolutional-pml) on
// the GLL element's quadrature.
//
// An element takes the stretch s_a at its centre, constant over it, so its stretched stiffness is
// the interior one with the displacement gradient G_kl = d_l u_k at every GLL point, where it
// enters stress column j, replaced by F_jl G_kl (F_jl = S / (s_j s_l), the same six filters and
// Newton coefficients as a voxel element of the same place: pml_tables):
//     tau_ij = lambda delta_ij sum_k F_jk G_kk + mu (F_jj G_ij + F_ji G_ji).
// The chained convolutions run on the 9 gradient components of each of the element's (p + 1)^3
// points (where the voxel element has its 21 moments), and the force is the element kernel's
// transposed product (sem_node_force) of the weighted change tau(F - 1), added after the
// stiffness product: an element with s = 1 adds exactly 0, so the layer's inner interface is the
// interior element. The mass of each GLL node is stretched by the elements around it (equal
// shares: the GLL weights of a shared node are equal on both sides) and the node is advanced as
// central differences of y = S u with the whole force, as the voxel layer's nodes are.
//
//   add_element_forces, right after the stiffness product: f += the layer elements' changes;
//   update_nodes, after the node update, whose u+ it replaces at the layer's nodes.
//
// The state arrays are in the CPU stepper's node order (SemNodeOrderCpu, sem_plane_sweep_cpu.hpp),
// so that the layer's passes read and write the stepper's own state with no conversion a step;
// the tables keep the x-fastest GLL numbering of sem_mesh, mapped through the order.
//
// FP64 whatever the stepper's precision; memory for the layer's elements and nodes only (per
// element 9 (p + 1)^3 values per pole and its previous gradient). Not reentrant.
#pragma once

#include <cstddef>
#include <vector>

#include "boundary/pml_layer.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_plane_sweep_cpu.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
class SemPmlCorrectionCpu {
public:
    // problem: a sem problem with a PML (boundary.pml), mesh its GLL grid, order the layout of
    // the arrays below (of mesh's nodes).
    SemPmlCorrectionCpu(const WaveProblem& problem, const SemMesh& mesh, const SemNodeOrderCpu& order);

    bool empty() const { return tables_.empty(); }
    // Arrays are SoA in `order` ([c * order.size + order.index(node)]). w = (1 + b) u - b u_prev
    // (u_prev null or b = 0: w = u), the stiffness product's operand.
    void add_element_forces(const Real* u, const Real* u_prev, Real b, Real* f);
    // u_next = u+ at every layer node that is not fixed, from u and the whole force f.
    void update_nodes(const Real* u, const Real* f, Real* u_next);
    // A state (u-, u) with no history in the layer: the convolutions 0, y = c0 u, y- = c0 u-.
    void reset(const Real* u_prev, const Real* u);
    std::size_t memory_bytes() const;
    std::size_t layer_elements() const { return tables_.element.size(); }
    std::size_t layer_nodes() const { return tables_.node.size(); }

private:
    template <int P>
    void element_forces(const Real* u, const Real* u_prev, Real b);

    const WaveProblem& problem_;
    const SemMesh& mesh_;
    SemNodeOrderCpu order_;
    std::size_t ns_;    // entries a component (order_.size)
    PmlTables tables_;  // node: the entries in order_ (the x-fastest numbering until the constructor maps it)
    std::vector<double> lambda_, mu_;        // by material id
    std::size_t values_;                     // 9 (p + 1)^3: an element's gradient
    std::vector<double> psi_;                // the chained convolutions, values_ per element pole
    std::vector<double> gradient_prev_;      // the chain's input one step back, values_ per element
    std::vector<double> forces_;             // 3 (p + 1)^3 per layer element, this step's changes
    std::vector<std::size_t> plane_first_;   // layer elements of element plane k: [plane_first_[k], [k + 1])
    std::vector<double> node_psi_;           // 3 per node pole
    std::vector<double> y_, y_prev_;         // 3 per layer node: S u at this step and the one before
    std::vector<double> node_dt2_inv_mass_;  // dt^2 / m per layer node, 0 where fixed
};

extern template class SemPmlCorrectionCpu<double>;
extern template class SemPmlCorrectionCpu<float>;

}  // namespace voxwave
