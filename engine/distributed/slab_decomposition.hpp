// Domain decomposition of a wave problem into slabs of element planes (issue 8).
//
// Slabs cut the grid along z, the slowest axis of every array: a slab is then one contiguous
// range of each per-element and per-node array, its shared node planes are contiguous too (one
// message per component, no packing), and the stepper runs on it unchanged. The paper's model
// is longest along z; models longer along x or y are turned first (axis_permutation.hpp) so that
// the cut planes are the smallest ones.
//
// Slab s owns element planes [k0, k1) and holds node planes k0 .. k1, so neighbours share one
// node plane. Shared nodes are updated by both slabs from identical totals (force_exchange.hpp):
// every slab needs the WHOLE model's node masses, damping and constraints on its nodes, which is
// why slabs are cut from a built WaveProblem and not rasterised separately.
#pragma once

#include <cstddef>
#include <vector>

#include "wave/wave_problem.hpp"

namespace voxwave {

struct Slab {
    int index = 0, count = 1;
    int k0 = 0, k1 = 0;  // element planes [k0, k1)
    bool shares_lower() const { return index > 0; }
    bool shares_upper() const { return index + 1 < count; }
};

// `count` slabs of whole element planes with balanced work: a plane costs its solid elements
// plus a quarter of its void ones (a void element still reads its id and updates its nodes).
// Throws InputError("", "ranks", ...) when there are more slabs than element planes.
std::vector<Slab> partition_slabs(const VoxelGrid& grid, int count);
// The same check alone: throws InputError("", "ranks", ...) unless 1 <= count <= planes.
void check_slab_count(int planes, int count);

struct SlabProblem {
    Slab slab;
    WaveProblem problem;                   // the slab as a model of its own (local node numbers)
    std::size_t node_offset = 0;           // global node index of local node 0
    std::vector<std::size_t> receiver_of;  // global receiver index of each local receiver
};

// The slab's part of `whole`: its element planes, the whole model's masses and boundary data
// (BoundaryNodes::node_range: sponge damping, fixed nodes) on its node planes, every source on
// its node planes (both copies of a shared node take the same force), and the receivers it owns
// (a receiver on a shared plane belongs to the slab above, the top plane to the last slab).
SlabProblem make_slab_problem(const WaveProblem& whole, const Slab& slab);

// Per-node values of the whole model restricted to the slab's nodes.
std::vector<double> restrict_to_slab(const std::vector<double>& node_values, const VoxelGrid& whole, const Slab& slab);

// Which slab owns global node plane kn (receivers, results).
int owner_of_node_plane(const std::vector<Slab>& slabs, int kn);

}  // namespace voxwave
