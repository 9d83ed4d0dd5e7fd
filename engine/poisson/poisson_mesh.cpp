#include "poisson/poisson_mesh.hpp"

#include <cstdint>
#include <unordered_map>

#include "core/errors.hpp"

namespace voxwave::poisson {

PoissonGrid parse_poisson_grid(const std::string& name, const std::string& field) {
    if (name == "unit-square") return PoissonGrid::UnitSquare;
    if (name == "flow-around-square") return PoissonGrid::FlowAroundSquare;
    throw InputError("", field, "unknown grid '" + name + "' (expected unit-square or flow-around-square)");
}

const char* poisson_grid_name(PoissonGrid grid) {
    return grid == PoissonGrid::UnitSquare ? "unit-square" : "flow-around-square";
}

namespace {

// The flow-around-square coarse grid (seed 002 Fig. 4), reconstructed from its stated
// properties: 28 triangles, 7 interior nodes, 12 isosceles right triangles (the squares
// [0,1]^2, [2,3] x [0,1] and [3,4] x [0,1], each cut by its diagonals), and a ring of 16
// triangles around the hole: on each side of the hole one node at distance 1/6 from the outer
// square [1,2] x [0,1], which makes the isosceles obtuse triangle on the outer side (base 1,
// height 1/6) similar to the one on the hole's side (base 1/2, height 1/12): "two different
// sizes" with the same C_i, and the remaining 8 triangles congruent scalene ones. Checks: no
// two interior nodes share an edge (Table 2: NNZ/N = 1.00 at L = 0), and the diagonal entries
// are 4 (square centres) and 7.5 (ring nodes), so kappa = 1.875 (Table 2: 1.88).
void flow_around_square(PoissonMesh& m) {
    const double s = 1.0 / 6.0;
    m.xy = {
        {0, 0},       {1, 0},       {2, 0},       {3, 0},       {4, 0},
        {4, 1},       {3, 1},       {2, 1},       {1, 1},       {0, 1},  // 0-9 outer
        {1.25, 0.25}, {1.75, 0.25}, {1.75, 0.75}, {1.25, 0.75},          // 10-13 hole
        {0.5, 0.5},   {2.5, 0.5},   {3.5, 0.5},                          // 14-16 square centres
        {1.5, s},     {2 - s, 0.5}, {1.5, 1 - s}, {1 + s, 0.5},          // 17-20 ring
    };
    m.on_boundary.assign(m.xy.size(), 0);
    for (int i = 0; i < 14; ++i) m.on_boundary[i] = 1;
    auto square = [&](int a, int b, int c, int d, int centre) {
        m.cells[0].push_back({a, b, centre, -1});
        m.cells[0].push_back({b, c, centre, -1});
        m.cells[0].push_back({c, d, centre, -1});
        m.cells[0].push_back({d, a, centre, -1});
    };
    square(0, 1, 8, 9, 14);
    square(2, 3, 6, 7, 15);
    square(3, 4, 5, 6, 16);
    // Ring: one strip per side of the hole: (outer a, outer b, hole corner c, hole corner d, node).
    auto strip = [&](int a, int b, int c, int d, int n) {
        m.cells[0].push_back({a, b, n, -1});  // large isosceles obtuse
        m.cells[0].push_back({n, c, d, -1});  // small isosceles obtuse (base on the hole)
        m.cells[0].push_back({a, n, d, -1});  // scalene
        m.cells[0].push_back({n, b, c, -1});  // scalene
    };
    strip(1, 2, 11, 10, 17);  // below the hole
    strip(2, 7, 12, 11, 18);  // right
    strip(7, 8, 13, 12, 19);  // above
    strip(8, 1, 10, 13, 20);  // left
    // Counter-clockwise orientation for every cell.
    for (auto& c : m.cells[0]) {
        const auto &p = m.xy[c[0]], &q = m.xy[c[1]], &r = m.xy[c[2]];
        if ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]) < 0) std::swap(c[1], c[2]);
    }
}

std::uint64_t edge_key(int a, int b) {
    if (a > b) std::swap(a, b);
    return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
}

int add_node(PoissonMesh& m, std::array<double, 2> p, int level, bool boundary, std::array<int, 4> parents, int count) {
    m.xy.push_back(p);
    m.node_level.push_back(level);
    m.on_boundary.push_back(boundary ? 1 : 0);
    m.parents.push_back(parents);
    m.parent_count.push_back(count);
    return static_cast<int>(m.xy.size()) - 1;
}

void refine_once(PoissonMesh& m) {
    const int nv = m.vertices_per_cell;
    const auto& coarse = m.cells[m.level];
    const int level = m.level + 1;
    // An edge is on the boundary when only one cell has it.
    std::unordered_map<std::uint64_t, int> edge_cells;
    edge_cells.reserve(coarse.size() * 2);
    for (const auto& c : coarse)
        for (int k = 0; k < nv; ++k) ++edge_cells[edge_key(c[k], c[(k + 1) % nv])];
    std::unordered_map<std::uint64_t, int> midpoint;
    midpoint.reserve(edge_cells.size());
    auto mid = [&](int a, int b) {
        const std::uint64_t key = edge_key(a, b);
        auto it = midpoint.find(key);
        if (it != midpoint.end()) return it->second;
        const std::array<double, 2> p{0.5 * (m.xy[a][0] + m.xy[b][0]), 0.5 * (m.xy[a][1] + m.xy[b][1])};
        const int n = add_node(m, p, level, edge_cells[key] == 1, {std::min(a, b), std::max(a, b), -1, -1}, 2);
        midpoint.emplace(key, n);
        return n;
    };
    std::vector<std::array<int, 4>> fine;
    fine.reserve(coarse.size() * 4);
    for (const auto& c : coarse) {
        if (nv == 3) {
            const int a = c[0], b = c[1], d = c[2];
            const int ab = mid(a, b), bd = mid(b, d), da = mid(d, a);
            // The middle child (bd, da, ab) has at bd the angle of a, etc.: all four children
            // keep the parent's angle order, which the similarity classes of seed 002 rely on.
            fine.push_back({a, ab, da, -1});
            fine.push_back({ab, b, bd, -1});
            fine.push_back({da, bd, d, -1});
            fine.push_back({bd, da, ab, -1});
        } else {
            const int a = c[0], b = c[1], d = c[2], e = c[3];
            const int ab = mid(a, b), bd = mid(b, d), de = mid(d, e), ea = mid(e, a);
            std::array<double, 2> p{0.25 * (m.xy[a][0] + m.xy[b][0] + m.xy[d][0] + m.xy[e][0]),
                                    0.25 * (m.xy[a][1] + m.xy[b][1] + m.xy[d][1] + m.xy[e][1])};
            const int centre = add_node(m, p, level, false, {a, b, d, e}, 4);
            fine.push_back({a, ab, centre, ea});
            fine.push_back({ab, b, bd, centre});
            fine.push_back({centre, bd, d, de});
            fine.push_back({ea, centre, de, e});
        }
    }
    m.cells.push_back(std::move(fine));
    m.level = level;
}

}  // namespace

PoissonMesh coarse_poisson_mesh(PoissonGrid grid) {
    PoissonMesh m;
    m.grid = grid;
    m.cells.resize(1);
    if (grid == PoissonGrid::UnitSquare) {
        m.vertices_per_cell = 4;
        m.xy = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        m.on_boundary.assign(4, 1);
        m.cells[0].push_back({0, 1, 2, 3});
    } else {
        m.vertices_per_cell = 3;
        flow_around_square(m);
    }
    m.node_level.assign(m.xy.size(), 0);
    m.parents.assign(m.xy.size(), {-1, -1, -1, -1});
    m.parent_count.assign(m.xy.size(), 0);
    return m;
}

PoissonMesh refined_poisson_mesh(PoissonGrid grid, int level) {
    if (level < 0) throw InputError("", "--level", "must be >= 0");
    PoissonMesh m = coarse_poisson_mesh(grid);
    for (int l = 0; l < level; ++l) refine_once(m);
    return m;
}

long long cell_count(PoissonGrid grid, int level) {
    return (grid == PoissonGrid::UnitSquare ? 1LL : 28LL) << (2 * level);
}

long long interior_node_count(PoissonGrid grid, int level) {
    if (grid == PoissonGrid::UnitSquare) {
        const long long m = (1LL << level) - 1;
        return m * m;
    }
    // Each refinement adds one node per edge: interior nodes + interior edges of the level below.
    // Edges E = V + F on the annulus (Euler characteristic 0), boundary edges = boundary nodes.
    long long interior = 7, boundary = 14, faces = 28;
    for (int l = 0; l < level; ++l) {
        const long long edges = interior + boundary + faces;
        interior += edges - boundary;
        boundary *= 2;
        faces *= 4;
    }
    return interior;
}

}  // namespace voxwave::poisson
