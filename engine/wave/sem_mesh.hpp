// The node grid of the spectral voxel elements (sem_element_kernel.hpp): a voxel grid of
// n_x x n_y x n_z elements of order p has (p n_a + 1) GLL nodes along each axis a, shared between
// neighbouring elements; element (i, j, k) owns global nodes (p i + a, p j + b, p k + c), a, b,
// c in 0..p. Nodes are x-fastest like the voxel grid's corners, which are the nodes whose three
// indices are multiples of p.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "boundary/boundary_nodes.hpp"
#include "model/material.hpp"
#include "model/voxel_grid.hpp"
#include "wave/sem_element_kernel.hpp"

namespace voxwave {

struct SemMesh {
    int order = 0;
    std::array<int, 3> n{0, 0, 0};  // nodes per axis
    double spacing = 0;
    std::array<double, 3> origin{0, 0, 0};
    GllTables gll;

    std::size_t node_count() const { return std::size_t(n[0]) * n[1] * n[2]; }
    std::size_t node_index(int i, int j, int k) const {
        return std::size_t(i) + std::size_t(n[0]) * (std::size_t(j) + std::size_t(n[1]) * k);
    }
    // Offset of node i along an axis from the grid's origin (metres).
    double offset(int i) const { return (i / order) * spacing + 0.5 * (gll.xi[i % order] + 1.0) * spacing; }
    std::array<double, 3> node_position(int i, int j, int k) const {
        return {origin[0] + offset(i), origin[1] + offset(j), origin[2] + offset(k)};
    }
};

SemMesh sem_mesh(const VoxelGrid& g, int order);

// Nearest GLL node to p (metres), clamped into the grid.
std::array<int, 3> sem_nearest_node(const SemMesh& mesh, const VoxelGrid& g, const std::array<double, 3>& p);

// GLL-lumped mass of every node: the sum over its elements of rho (ds / 2)^3 w_a w_b w_c.
std::vector<double> sem_node_masses(const SemMesh& mesh, const VoxelGrid& g, const std::vector<Material>& materials);

// The boundary on the GLL nodes: the sponge evaluated at each node's distances from the faces,
// fixed faces (and a PML's outer faces) hold every node on them, fixed points their nearest GLL
// node; the PML's profiles by element plane (sem_pml_correction_cpu.hpp).
BoundaryNodes sem_boundary_nodes(const BoundaryConditions& bc, const SemMesh& mesh, const VoxelGrid& g, double vp_max);

}  // namespace voxwave
