// The schedule of the column-sweep CUDA SEM step (sem_stepper_cuda.hpp): the spectral voxel
// elements are grouped into cells, each cell `width` elements along x by one along y by `planes`
// element planes along z (the last cell of a row or a column may be shorter), and
// sem_colour_schedule.hpp's eight colours are given to the cells instead of the elements: cell
// (i, j, kc) has colour (i & 1) + 2 (j & 1) + 4 (kc & 1), so two cells of one colour share no node.
//
// Why cells: a block sweeps one cell along z, one element plane after the other, a row of
// elements along x at a time. The force of the node plane between two elements of the cell passes
// from the lower element to the upper one in registers (the thread that owns a GLL column of the
// lower element owns it in the upper one too), as do the u values of that plane; the force of a
// node shared by two neighbours along x passes through shared memory. Only the nodes on a cell's
// faces go through the partial-force buffer, and u is read about once a node. The colour roles
// (first writer, last completes) apply unchanged on the coarser cell grid: a cell "touches" a node
// when any of its elements is solid (sem_cell_solid), and a void element inside a cell contributes
// zero force to its nodes, so every cell that the role counts does visit the node.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "core/host_device.hpp"
#include "model/voxel_grid.hpp"
#include "wave/sem_colour_schedule.hpp"

namespace voxwave {

// The cells of an element grid: n cells along each axis, `width` elements a cell along x (one
// along y) and `planes` element planes along z.
struct SemCellGrid {
    int n[3];
    int width;
    int planes;
};

inline SemCellGrid sem_cell_grid(const VoxelGrid& g, int width, int planes) {
    width = std::clamp(width, 1, std::max(1, g.n[0]));
    planes = std::clamp(planes, 1, std::max(1, g.n[2]));
    return {{(g.n[0] + width - 1) / width, g.n[1], (g.n[2] + planes - 1) / planes}, width, planes};
}

// Element planes a cell of `width` elements along x, for a device that runs `slots` blocks at
// once (SMs x resident blocks an SM): the L in 2..16 that minimises the estimated time of a colour
// launch, waves x (L + 1/4) element planes. A block sweeps its L planes one after the other and
// its set-up (the roles, the first planes' loads) costs about a quarter of one more; the largest
// colour has ceil(n_x / 2) ceil(n_y / 2) ceil(n_z / 2) cells, and a partial last wave costs a
// whole wave's time. (H200, p = 4 FP64, 60^3 elements, 264 slots: the measured step times at
// L = 2, 4, 5, 8 and 15 are within 4 % of 74 us x waves x (L + 1/4).) On a tie the taller cell:
// fewer z faces go through the partial-force buffer.
inline int sem_cell_planes_for(const VoxelGrid& g, int width, long long slots) {
    width = std::clamp(width, 1, std::max(1, g.n[0]));
    slots = std::max(slots, 1LL);
    const long long cx = (g.n[0] + width - 1) / width, cy = g.n[1];
    int best = 2;
    long long best_cost = -1;
    for (int planes = 2; planes <= 16; ++planes) {
        const long long cz = (g.n[2] + planes - 1) / planes;
        const long long blocks = ((cx + 1) / 2) * ((cy + 1) / 2) * ((cz + 1) / 2);
        const long long cost = (blocks + slots - 1) / slots * (4 * planes + 1);
        if (best_cost < 0 || cost <= best_cost) {
            best = planes;
            best_cost = cost;
        }
    }
    return best;
}

// The role of cell (i, j, kc) at its node x, b, z: x in 0 .. x_count along x (x_count = p times
// the cell's elements along x), b in 0 .. p along y, z in 0 .. z_count along z (p times its
// element planes). The node lies on the cell's lower or upper face or inside it along each axis,
// which sem_node_role reads as the local index 0, p or any index in between.
template <class Solid>
VOXWAVE_HD_INLINE SemNodeRole sem_cell_node_role(int p, const SemCellGrid& cg, int i, int j, int kc, int x, int x_count,
                                                 int b, int z, int z_count, const Solid& solid) {
    const int a = x == 0 ? 0 : (x == x_count ? p : 1), c = z == 0 ? 0 : (z == z_count ? p : 1);
    return sem_node_role(p, cg.n, i, j, kc, a, b, c, solid);
}

// Whether each cell (x fastest) has a solid element.
inline std::vector<unsigned char> sem_cell_solid(const VoxelGrid& g, const SemCellGrid& cg) {
    std::vector<unsigned char> s(std::size_t(cg.n[0]) * cg.n[1] * cg.n[2], 0);
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i)
                if (g.at(i, j, k) != kVoidId)
                    s[std::size_t(i / cg.width) +
                      std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * (k / cg.planes))] = 1;
    return s;
}

// The cells with a solid element, sorted by colour (one block a cell, one launch a colour):
// colour c's cells are cells[begin[c] .. begin[c + 1]); a cell is i + n_x (j + n_y kc).
struct SemCellLaunches {
    std::vector<unsigned> cells;
    std::array<std::size_t, 9> begin{};
};

inline SemCellLaunches sem_cell_launches(const SemCellGrid& cg, const std::vector<unsigned char>& solid) {
    SemCellLaunches l;
    for (int colour = 0; colour < 8; ++colour) {
        l.begin[colour] = l.cells.size();
        for (int kc = colour >> 2; kc < cg.n[2]; kc += 2)
            for (int j = (colour >> 1) & 1; j < cg.n[1]; j += 2)
                for (int i = colour & 1; i < cg.n[0]; i += 2) {
                    const std::size_t c =
                        std::size_t(i) + std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * kc);
                    if (solid[c]) l.cells.push_back(unsigned(c));
                }
    }
    l.begin[8] = l.cells.size();
    return l;
}

}  // namespace voxwave
