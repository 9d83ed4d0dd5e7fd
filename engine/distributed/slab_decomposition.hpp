// Domain decomposition of a wave problem into boxes of elements, one per MPI rank.
//
// The ranks form a process grid (px, py, pz); each axis is cut into whole element planes with
// balanced work (partition_axis), so rank (cx, cy, cz) owns the box of element ranges
// [e0, e1) along each axis. The model is first turned so that its longest axis is z
// (axis_permutation.hpp): slabs (a grid of 1 x 1 x K) are then the thinnest cut, and their seams
// are whole contiguous node planes. When slabs would get thin the automatic choice cuts y as
// well (choose_process_grid).
//
// Each subdomain holds, beside its own elements, one ghost element layer on every side where it
// has a neighbour (wave/halo_exchange.hpp says why): every node of its own box then sees all its
// elements, and the stepper runs unchanged on the extended box. The extended box carries the
// WHOLE model's node masses, damping, fixed nodes and PML profiles on its nodes (so subdomains are
// cut from a built WaveProblem and not rasterised separately); its outermost ghost nodes are held
// locally (fixed: no mass term, no PML node pass) and take the neighbours' values every step.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "scene/process_grid.hpp"
#include "wave/halo_exchange.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// One range of element planes along one axis.
struct Slab {
    int index = 0, count = 1;
    int k0 = 0, k1 = 0;  // element planes [k0, k1)
    bool shares_lower() const { return index > 0; }
    bool shares_upper() const { return index + 1 < count; }
};

// `count` ranges of whole element planes along `axis` with balanced work: a plane costs its solid
// elements plus a quarter of its void ones (a void element still reads its id and updates its
// nodes). Throws InputError("", "ranks", ...) when there are more ranges than element planes.
std::vector<Slab> partition_axis(const VoxelGrid& grid, int axis, int count);
// Slabs along z, the axis a turned model is longest along.
inline std::vector<Slab> partition_slabs(const VoxelGrid& grid, int count) { return partition_axis(grid, 2, count); }
// The same check alone: throws InputError("", "ranks", ...) unless 1 <= count <= planes.
void check_slab_count(int planes, int count);

// ProcessGrid, parse_process_grid: scene/process_grid.hpp.

// The process grid for `ranks` ranks on a model turned longest along z: x is never cut (the
// fused step's warps run along x rows); among the grids py x pz with py * pz = ranks whose boxes
// keep at least kMinPlanesPerRank planes along each cut axis, the one whose busiest rank sends the
// fewest ghost nodes per step (fewer cut axes on a tie). Slabs whenever none of them qualifies.
constexpr int kMinPlanesPerRank = 2;
ProcessGrid choose_process_grid(const VoxelGrid& grid, int ranks);
// Throws InputError("", field, ...) unless g has `ranks` ranks and at most one per element plane
// along each axis of `grid`.
void check_process_grid(const VoxelGrid& grid, const ProcessGrid& g, int ranks, const std::string& field);

struct Subdomain {
    int index = 0;  // rank: cx + px (cy + py cz)
    std::array<int, 3> ranks{1, 1, 1}, coord{0, 0, 0};
    std::array<int, 3> e0{0, 0, 0}, e1{0, 0, 0};  // owned elements [e0, e1) along each axis
    bool has_neighbour(int axis, int side) const {
        return side == 0 ? coord[std::size_t(axis)] > 0 : coord[std::size_t(axis)] + 1 < ranks[std::size_t(axis)];
    }
    int neighbour(int axis, int side) const;
    // The extended box with its ghost element layers: elements [g0, g1) along each axis.
    std::array<int, 3> g0() const;
    std::array<int, 3> g1() const;
};
std::vector<Subdomain> partition_boxes(const VoxelGrid& grid, const ProcessGrid& g);

// The ghost exchange of `sub` (wave/halo_exchange.hpp): per cut axis, z first, the owned node
// planes next to each seam out and the ghost node plane in. `planes_per_element`: node planes
// per element plane (WaveProblem::node_planes_per_element; sem's GLL grid has p). Only the
// outermost ghost node plane is received: the ghost element's inner node planes see all their
// elements here (the ghost element alone), so they are computed like the owned ones.
HaloPlan halo_plan(const Subdomain& sub, int planes_per_element = 1);

struct SubdomainProblem {
    Subdomain sub;
    WaveProblem problem;                   // the extended box as a model of its own (local node numbers)
    std::array<int, 3> node_origin{};      // global node coordinates of local node (0, 0, 0): sub.g0()
    std::vector<std::size_t> receiver_of;  // global receiver index of each local receiver
    // run.snapshots: the whole series' point of each local snapshot node. The subdomain's series
    // samples the points it owns (the receivers' rule), listed as a grid of {points, 1, 1}; the
    // distributed run gathers them into the whole grid's order.
    std::vector<std::size_t> snapshot_point_of;
};

// The subdomain's part of `whole` (on its node grid: the voxel corners or sem's GLL nodes): its
// extended box's elements, the whole model's masses and
// boundary data on its nodes (BoundaryNodes::node_box) with the ghost nodes held, every source
// on its nodes (every copy of a node takes the same force), and the receivers and snapshot points
// it owns (a node on a seam belongs to the box above along that axis; the last node plane to the
// last box).
SubdomainProblem make_subdomain_problem(const WaveProblem& whole, const Subdomain& sub);

}  // namespace voxwave
