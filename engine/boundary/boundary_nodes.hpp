// What the steppers need from the boundary conditions, per node of one grid: the damping of the
// sponge layers, the PML's profiles and the fixed nodes (boundary_conditions.hpp describes the
// module).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "boundary/boundary_conditions.hpp"
#include "boundary/pml_layer.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave {

struct BoundaryNodes {
    // Mass-proportional damping (1/s) of each node from the sponge layers, x-fastest like the
    // nodes; empty when no face has one, so the steppers keep one uniform h for every node.
    std::vector<double> node_damping;
    // Nodes held at zero displacement (fixed faces and fixed points): sorted, each once.
    std::vector<std::size_t> fixed_nodes;
    // The PML faces' profiles along each axis (pml_layer.hpp); empty when no face has a PML.
    PmlLayer pml;

    bool has_node_damping() const { return !node_damping.empty(); }
    bool has_pml() const { return !pml.empty(); }
    double damping_at(std::size_t node) const { return node_damping.empty() ? 0.0 : node_damping[node]; }
    // One flag per node: true where the node is fixed.
    std::vector<bool> fixed_mask(std::size_t node_count) const;

    // The share of nodes [first, last), renumbered from 0 (a slab of the distributed run).
    BoundaryNodes node_range(std::size_t first, std::size_t last) const;
    // The share of the nodes of element box [e0, e1) (nodes e0 .. e1 along each axis) of a grid
    // of `n` elements, renumbered x-fastest in the box (a subdomain of the distributed run).
    BoundaryNodes node_box(const std::array<int, 3>& n, const std::array<int, 3>& e0,
                           const std::array<int, 3>& e1) const;
    // The same nodes under a renumbering: node n becomes new_index_of(n) (a turned model, whose
    // new axis a is old axis from[a]: the PML's profiles follow their axes).
    template <class NewIndex>
    BoundaryNodes turned(const NewIndex& new_index_of, const std::array<int, 3>& from = {0, 1, 2}) const;

    bool operator==(const BoundaryNodes&) const = default;
};

// The per-node boundary data of bc on grid g; vp_max is the fastest P-wave speed in the model
// (the sponge and the PML scale with it). Fixed points snap to their nearest node.
BoundaryNodes boundary_nodes(const BoundaryConditions& bc, const VoxelGrid& g, double vp_max);

template <class NewIndex>
BoundaryNodes BoundaryNodes::turned(const NewIndex& new_index_of, const std::array<int, 3>& from) const {
    BoundaryNodes out;
    out.pml = pml.turned(from);
    if (!node_damping.empty()) {
        out.node_damping.resize(node_damping.size());
        for (std::size_t n = 0; n < node_damping.size(); ++n) out.node_damping[new_index_of(n)] = node_damping[n];
    }
    out.fixed_nodes.reserve(fixed_nodes.size());
    for (std::size_t n : fixed_nodes) out.fixed_nodes.push_back(new_index_of(n));
    std::sort(out.fixed_nodes.begin(), out.fixed_nodes.end());
    return out;
}

}  // namespace voxwave
