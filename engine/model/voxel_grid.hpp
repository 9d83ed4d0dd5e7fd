// The voxel model: a structured grid of cubic elements, each with a material id.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace voxwave {

using MaterialId = std::uint8_t;
inline constexpr MaterialId kVoidId = 0;  // no element

// Elements are indexed (i, j, k) along (x, y, z); x runs fastest in memory:
// index = i + nx * (j + ny * k). Element (i, j, k) occupies
// [origin + (i, j, k) * spacing, origin + (i + 1, j + 1, k + 1) * spacing].
// Nodes are the (nx+1) x (ny+1) x (nz+1) cube corners, also x-fastest.
struct VoxelGrid {
    std::array<int, 3> n{0, 0, 0};
    double spacing = 0;                     // ds, metres
    std::array<double, 3> origin{0, 0, 0};  // metres
    std::vector<MaterialId> ids;            // size nx*ny*nz

    std::size_t element_count() const { return std::size_t(n[0]) * n[1] * n[2]; }
    std::size_t node_count() const { return std::size_t(n[0] + 1) * (n[1] + 1) * (n[2] + 1); }
    std::size_t element_index(int i, int j, int k) const {
        return std::size_t(i) + std::size_t(n[0]) * (std::size_t(j) + std::size_t(n[1]) * k);
    }
    std::size_t node_index(int i, int j, int k) const {
        return std::size_t(i) + std::size_t(n[0] + 1) * (std::size_t(j) + std::size_t(n[1] + 1) * k);
    }
    MaterialId at(int i, int j, int k) const { return ids[element_index(i, j, k)]; }
    std::array<double, 3> node_position(int i, int j, int k) const {
        return {origin[0] + i * spacing, origin[1] + j * spacing, origin[2] + k * spacing};
    }
    std::array<double, 3> extent() const { return {n[0] * spacing, n[1] * spacing, n[2] * spacing}; }

    bool operator==(const VoxelGrid&) const = default;
};

// Nearest grid node to p (metres), clamped into the grid.
inline std::array<int, 3> nearest_node(const VoxelGrid& g, const std::array<double, 3>& p) {
    std::array<int, 3> n{};
    for (int d = 0; d < 3; ++d) {
        const long v = std::lround((p[d] - g.origin[d]) / g.spacing);
        n[d] = static_cast<int>(std::clamp<long>(v, 0, g.n[d]));
    }
    return n;
}

}  // namespace voxwave
