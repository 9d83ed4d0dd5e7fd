// Semi-structured grids of seed 002: a coarse grid refined uniformly (each cell into four).
//
// Q1 on the unit square (one square macro cell at level 0) and P1 on the flow-around-square
// domain (0,4) x (0,1) minus [5/4,7/4] x [1/4,3/4], whose 28-triangle coarse grid is
// reconstructed in poisson_mesh.cpp. Every level keeps its cells so that the hierarchical
// basis (interpolation parents of each new node) and the macro cells of any coarse level can
// be recovered: cell e of level l has the children 4e .. 4e+3 on level l+1.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace voxwave::poisson {

enum class PoissonGrid { UnitSquare, FlowAroundSquare };

// "unit-square" | "flow-around-square"; throws InputError("", field, ...) otherwise.
PoissonGrid parse_poisson_grid(const std::string& name, const std::string& field = "--grid");
const char* poisson_grid_name(PoissonGrid grid);

struct PoissonMesh {
    PoissonGrid grid = PoissonGrid::UnitSquare;
    int vertices_per_cell = 4;  // 4: Q1 squares, 3: P1 triangles
    int level = 0;              // finest level
    std::vector<std::array<double, 2>> xy;
    std::vector<int> node_level;  // level on which the node first appears
    std::vector<char> on_boundary;
    // Interpolation parents of a node created on level l > 0: the two ends of the coarse edge
    // (weights 1/2) or the four corners of the coarse square (weights 1/4).
    std::vector<std::array<int, 4>> parents;
    std::vector<int> parent_count;
    // cells[l]: the cells of level l, vertices counter-clockwise.
    std::vector<std::vector<std::array<int, 4>>> cells;

    std::size_t node_count() const { return xy.size(); }
    const std::vector<std::array<int, 4>>& fine_cells() const { return cells[level]; }
};

// The coarsest grid (level 0).
PoissonMesh coarse_poisson_mesh(PoissonGrid grid);
// Coarse grid refined `level` times.
PoissonMesh refined_poisson_mesh(PoissonGrid grid, int level);

// Interior node counts without building anything: N on level L (Table 2's column).
long long interior_node_count(PoissonGrid grid, int level);
long long cell_count(PoissonGrid grid, int level);

}  // namespace voxwave::poisson
