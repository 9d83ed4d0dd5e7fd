// The sponge: an absorbing layer of mass-proportional damping that grows quadratically from 0 at
// the inner edge of the layer to its maximum on the face,
//   alpha(d) = alpha_max (1 - d / L)^2 for d < L,   alpha_max = 3 vp ln(1 / R) / (2 L),
// d the node's distance from the face, L the layer's thickness, R = 1e-3 the nominal reflection
// (the usual choice for a quadratic profile) and vp the fastest material's P-wave speed. Where
// layers overlap (edges, corners) a node takes the largest of their values.
#pragma once

#include <vector>

#include "boundary/boundary_conditions.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave {

// alpha_max of a sponge of thickness L (metres) in a model whose fastest P wave is vp_max (m/s).
double sponge_peak_damping(double vp_max, double thickness);

// Per-node damping (1/s) of every sponge face of bc on grid g, x-fastest like the nodes; empty
// when no face carries a sponge.
std::vector<double> sponge_node_damping(const BoundaryConditions& bc, const VoxelGrid& g, double vp_max);

// The same on any tensor-product node grid (the spectral elements' GLL nodes): along axis a, node
// i lies at distance from_lower[a][i] from the lower face and from_upper[a][i] from the upper one;
// the result is x-fastest over the three axes' nodes.
std::vector<double> sponge_node_damping(const BoundaryConditions& bc,
                                        const std::array<std::vector<double>, 3>& from_lower,
                                        const std::array<std::vector<double>, 3>& from_upper, double vp_max);

}  // namespace voxwave
