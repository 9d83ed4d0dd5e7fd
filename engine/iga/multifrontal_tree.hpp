// The elimination tree of the seed's multi-frontal solver (symbolic phase, shared by the CPU
// and CUDA numeric phases).
//
// Level 0: one front per element (the element matrix). Level L + 1: one front per 2 x 2 patch of
// level-L fronts, holding the union of the children's not-yet-eliminated unknowns. At every
// node the unknowns whose whole support lies inside the node's patch are "fully assembled":
// they come first in the front and are eliminated there (the seed's dark dots); the rest form
// the interface passed up as a Schur complement. The root eliminates everything left (the
// seed's "top problem", a cross of width about p through the domain). Dirichlet unknowns never
// enter a front: their contribution is already in the right-hand side (IgaLoad).
//
// N must be a power of two, so every level halves both sides exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "iga/iga_space.hpp"

namespace voxwave::iga {

struct FrontLevel {
    int nodes_per_side = 0;               // nodes of this level = nodes_per_side^2, node = x + nodes_per_side * y
    int patch = 0;                        // elements per side of one node's patch
    std::vector<int> size;                // front size m per node
    std::vector<int> elim;                // fully assembled unknowns k per node (the first k of the front)
    std::vector<std::int64_t> dof_begin;  // per node, into dofs (count + 1)
    std::vector<int> dofs;                // global dofs, eliminated first
    // Leaves only: the element-local index (ax + (p+1) ay) of each front dof.
    std::vector<int> local;
    // Non-leaves: the 4 children (indices into the level below; order (0,0),(1,0),(0,1),(1,1))
    // and, per child slot, the parent-front position of each of the child's interface unknowns.
    std::vector<int> children;
    std::vector<std::int64_t> map_begin;  // 4 * count + 1
    std::vector<int> map;

    int count() const noexcept { return static_cast<int>(size.size()); }
};

struct FrontTree {
    int p = 0, N = 0, n = 0;
    std::vector<FrontLevel> levels;  // levels[0] = elements, back() = root
    int max_front = 0;               // largest front size (the root's for N >= 4)
    double factor_flops = 0;         // dense Cholesky + Schur flops, summed over fronts
};

// Throws InputError("", "--elements", ...) unless N is a power of two, 2 <= N <= 8192.
void check_multifrontal_elements(int elements);
FrontTree build_front_tree(const IgaSpace& s);

// Bytes of all fronts of the tree (m (m + 1) doubles each), from a closed form calibrated on
// built trees (within 10 % for p = 1..4, N = 256..1024; up to 30 % over on smaller meshes): about 6 s p unknowns per
// front of a patch of s x s elements, so 0.7 x 288 N^2 p^2 bytes per level. Cheap enough to check before building the
// tree, which itself needs memory for N in the thousands.
double estimated_front_bytes(int degree, int elements);
// Throws InputError("", "--elements", "N = .. with p = .. needs about X GiB of memory, this
// machine has Y GiB") when the CPU solver's peak (about half of all fronts: the kept factor rows
// plus one level in flight) exceeds 80 % of the physical memory.
void check_multifrontal_fits_in_memory(int degree, int elements);

// Flops of eliminating k of m unknowns (Cholesky k^3/3, triangular solve k^2 (m-k), Schur
// update k (m-k)^2, the right-hand side column included in the last two).
double front_flops(double m, double k);

}  // namespace voxwave::iga
