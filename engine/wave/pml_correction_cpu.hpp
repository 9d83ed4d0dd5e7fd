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
// layer's elements and nodes only. Both run 8 layer elements (nodes) per 64-byte vector, batches
// of one structure (docs/architecture.md, "The CPU pass"); the element pass adds its forces by
// element planes of one parity at a time, so its result does not depend on the thread count. Not
// reentrant: one step at a time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "boundary/pml_layer.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
class PmlCorrectionCpu {
public:
    explicit PmlCorrectionCpu(const WaveProblem& problem);

    bool empty() const { return batches_.empty() && node_batches_.empty(); }
    // w = (1 + b) u - b u_prev (u_prev null: w = u), the stiffness product's operand.
    void add_element_forces(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev, Real b,
                            const std::array<Real*, 3>& f);
    // u_next[c][n] = u+ at every layer node that is not fixed, from u and the whole force f.
    void update_nodes(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& f,
                      const std::array<Real*, 3>& u_next);
    // A state (u-, u) with no history in the layer: the convolutions 0, y = c0 u and y- = c0 u-.
    void reset(const std::array<const Real*, 3>& u_prev, const std::array<const Real*, 3>& u);
    std::size_t memory_bytes() const;
    std::size_t layer_elements() const { return layer_elements_; }
    std::size_t layer_nodes() const { return layer_nodes_; }

private:
    // Eight FP64 lanes of one 64-byte vector: the element pass runs 8 layer elements at once.
    struct alignas(64) Lanes {
        double v[8];
    };
    // Layer elements of one structure: the same number of chain stages, the same filters with a
    // constant term and with a Newton coefficient at each stage (a face, an edge or a corner of
    // the layer, kappa = 1 or not). Their batches run one program: each stage advances only the
    // values that a later filter reads, and the force reads only the filters that change.
    struct ElementGroup {
        unsigned force_filters = 0;                   // a superset of the filters that change, one the force pass knows
        unsigned const_filters = 0;                   // filters with F(inf) != 1
        int stages = 0;                               // chain stages run: the last with a nonzero coefficient
        std::array<unsigned, 6> stage_filters{};      // filters with a nonzero Newton coefficient per stage
        std::array<std::uint32_t, 6> stage_values{};  // the values a stage advances, one bit each
        std::size_t psi_values = 0;                   // memory variables per lane: the stages' values
    };
    // Up to 8 layer elements of one element plane and one group (the last lanes of a partial
    // batch repeat its last element and are not added). Rows are deduplicated: batches of the
    // same classes and materials share one.
    struct ElementBatch {
        std::uint32_t group = 0, count = 0;
        bool contiguous = false;             // 8 consecutive elements of one row: u is read as vectors
        std::size_t row = 0;                 // offset of its coefficients in rows_
        std::size_t psi = 0;                 // offset of its memory variables in psi_
        std::array<std::size_t, 8> node0{};  // each lane's lowest corner node
    };

    // Up to 8 layer nodes that are not fixed, with the same number of poles (the last lanes of a
    // partial batch repeat its last node and are not written).
    struct NodeBatch {
        int poles = 0;
        std::uint32_t count = 0;
        bool contiguous = false;               // 8 consecutive nodes of one row
        std::size_t row = 0;                   // c0, then per pole a, decay, w_old, w_new: in node_rows_
        std::size_t state = 0;                 // y, y- (3 each), the convolutions (3 per pole): in node_state_
        std::array<std::size_t, 8> node{};     // each lane's node
        std::array<double, 8> dt2_inv_mass{};  // dt^2 / m of each lane's node
    };

    const WaveProblem& problem_;
    std::size_t layer_elements_ = 0, layer_nodes_ = 0;
    std::array<double, 3> scales_{};
    std::array<std::size_t, 8> corner_offset_{};  // an element's corner nodes from its lowest (local order)
    std::vector<ElementGroup> groups_;
    std::vector<ElementBatch> batches_;
    std::vector<std::size_t> plane_first_batch_;  // batches of element plane k: [first[k], first[k + 1])
    // Per batch: lambda, mu, the constants, then per stage decay, w_old, w_new and the
    // coefficients of the stage's filters, each 8 lanes.
    std::vector<Lanes> rows_;
    // The chained convolutions: per batch, stage by stage, the values that stage advances.
    std::vector<Lanes> psi_;
    // The chain's input is linear over a step, so each stage needs the moments of the step before
    // too: recomputed from u- (which the stepper still holds) when w = u. With Rayleigh's beta, w
    // = (1 + b) u - b u-, whose previous value needs u two steps back as well: kept here at the
    // layer elements' nodes (the runs of consecutive nodes in node_runs_), 3 values a node, where
    // the 21 previous moments per element would be 7 times the bytes. fresh_: the step after a
    // reset, whose previous moments are 0 (no history).
    std::vector<Real> u_before_;                         // 3 x the grid's nodes, with Rayleigh's beta only
    std::vector<std::array<std::size_t, 2>> node_runs_;  // [first, last) of the layer elements' nodes
    bool fresh_ = true;
    // The nodes' mass term (PmlTables): y = S u at this step and the one before and the chained
    // convolutions of u, per batch of 8 nodes; their coefficients by class of equal rows.
    std::vector<NodeBatch> node_batches_;
    std::vector<Lanes> node_rows_, node_state_;

    // The element pass of batch `index`: its forces added to f (its lanes' nodes, one thread).
    void element_batch(std::size_t index, const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev,
                       double b, const std::array<Real*, 3>& f);
};

extern template class PmlCorrectionCpu<double>;
extern template class PmlCorrectionCpu<float>;

}  // namespace voxwave
