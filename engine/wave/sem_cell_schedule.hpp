// The schedule of the column-sweep CUDA SEM step (sem_stepper_cuda.hpp): the spectral voxel
// elements are grouped into cells, each cell a column of `planes` elements along z at one (i, j)
// (the last cell of a column may be shorter), and sem_colour_schedule.hpp's eight colours are
// given to the cells instead of the elements: cell (i, j, kc) has colour
// (i & 1) + 2 (j & 1) + 4 (kc & 1), so two cells of one colour share no node.
//
// Why cells: a block sweeps each of its cells along z, one element plane after the other, and the
// force of the node plane between two elements of one cell passes from the lower element to the
// upper one in registers (the thread that owns a GLL column of the lower element owns it in the
// upper one too), as do the u values of that plane. Only the nodes on a cell's faces go through
// the partial-force buffer, and u is read once a node plane along z instead of once an element.
// The colour roles (first writer, last completes) apply unchanged on the coarser cell grid: a
// cell "touches" a node when any of its elements is solid (sem_cell_solid), and a void element
// inside a cell contributes zero force to its nodes, so every cell that the role counts does visit
// the node.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "core/host_device.hpp"
#include "model/voxel_grid.hpp"
#include "wave/sem_colour_schedule.hpp"

namespace voxwave {

// The cells of an element grid: n cells along each axis (one element along x and y), `planes`
// element planes a cell along z.
struct SemCellGrid {
    int n[3];
    int planes;
};

inline SemCellGrid sem_cell_grid(const VoxelGrid& g, int planes) {
    planes = std::clamp(planes, 1, std::max(1, g.n[2]));
    return {{g.n[0], g.n[1], (g.n[2] + planes - 1) / planes}, planes};
}

// The role of cell (i, j, kc) at the node of its GLL column (a, b) on the cell's local node plane
// z (0 .. count, count = p times the cell's element planes): the node lies on the cell's lower
// face (z = 0), its upper face (z = count) or inside it along z, which sem_node_role reads as the
// local index 0, p or any index in between.
template <class Solid>
VOXWAVE_HD_INLINE SemNodeRole sem_cell_node_role(int p, const SemCellGrid& cg, int i, int j, int kc, int a, int b,
                                                 int z, int count, const Solid& solid) {
    const int c = z == 0 ? 0 : (z == count ? p : 1);
    return sem_node_role(p, cg.n, i, j, kc, a, b, c, solid);
}

// Whether each cell (x fastest) has a solid element.
inline std::vector<unsigned char> sem_cell_solid(const VoxelGrid& g, const SemCellGrid& cg) {
    std::vector<unsigned char> s(std::size_t(cg.n[0]) * cg.n[1] * cg.n[2], 0);
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i)
                if (g.at(i, j, k) != kVoidId)
                    s[std::size_t(i) +
                      std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * (k / cg.planes))] = 1;
    return s;
}

constexpr unsigned kSemNoCell = 0xffffffffu;

// The cells with a solid element, sorted by colour, each colour's run padded with kSemNoCell so
// that every group of `per_block` slots holds cells of one cell plane kc only (a block's cells
// then sweep the same number of element planes). Colour c's slots are
// cells[begin[c] .. begin[c + 1]); a cell is i + n_x (j + n_y kc).
struct SemCellLaunches {
    std::vector<unsigned> cells;
    std::array<std::size_t, 9> begin{};
};

inline SemCellLaunches sem_cell_launches(const SemCellGrid& cg, const std::vector<unsigned char>& solid,
                                         int per_block) {
    SemCellLaunches l;
    for (int colour = 0; colour < 8; ++colour) {
        l.begin[colour] = l.cells.size();
        for (int kc = colour >> 2; kc < cg.n[2]; kc += 2) {
            for (int j = (colour >> 1) & 1; j < cg.n[1]; j += 2)
                for (int i = colour & 1; i < cg.n[0]; i += 2) {
                    const std::size_t c =
                        std::size_t(i) + std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * kc);
                    if (solid[c]) l.cells.push_back(unsigned(c));
                }
            while ((l.cells.size() - l.begin[colour]) % std::size_t(per_block) != 0) l.cells.push_back(kSemNoCell);
        }
    }
    l.begin[8] = l.cells.size();
    return l;
}

}  // namespace voxwave
