// K u by a plain assembly of dense 24x24 element matrices (voxel_element_stiffness): the
// independent check of the fast stiffness kernels.
#pragma once

#include <vector>

#include "model/voxel_grid.hpp"
#include "wave/voxel_element_matrix.hpp"

namespace voxwave::testing {

inline std::vector<double> assembled_product(const VoxelGrid& g, const std::vector<Material>& materials,
                                             ElementMethod method, const std::vector<double>& u) {
    const std::size_t nn = g.node_count();
    std::vector<double> y(3 * nn, 0.0);
    const int off[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                const MaterialId id = g.at(i, j, k);
                if (id == kVoidId) continue;
                const ElementMatrix K = voxel_element_stiffness(method, g.spacing, materials[id - 1]);
                Eigen::Matrix<double, 24, 1> ue;
                std::size_t nodes[8];
                for (int a = 0; a < 8; ++a) {
                    nodes[a] = g.node_index(i + off[a][0], j + off[a][1], k + off[a][2]);
                    for (int c = 0; c < 3; ++c) ue(3 * a + c) = u[c * nn + nodes[a]];
                }
                const Eigen::Matrix<double, 24, 1> fe = K * ue;
                for (int a = 0; a < 8; ++a)
                    for (int c = 0; c < 3; ++c) y[c * nn + nodes[a]] += fe(3 * a + c);
            }
    return y;
}

}  // namespace voxwave::testing
