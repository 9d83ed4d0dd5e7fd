#include "poisson/hierarchical_basis.hpp"

namespace voxwave::poisson {

SparseMatrixd hierarchical_step(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns, int level) {
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(std::size_t(unknowns) * 2);
    for (std::size_t i = 0; i < mesh.node_count(); ++i) {
        if (dof[i] < 0) continue;
        t.emplace_back(dof[i], dof[i], 1.0);
        if (mesh.node_level[i] != level) continue;
        const double w = 1.0 / mesh.parent_count[i];
        for (int p = 0; p < mesh.parent_count[i]; ++p) {
            const int parent = mesh.parents[i][p];
            // A parent on the boundary carries the value 0 (Dirichlet): it contributes nothing.
            if (dof[parent] >= 0) t.emplace_back(dof[i], dof[parent], w);
        }
    }
    SparseMatrixd S(unknowns, unknowns);
    S.setFromTriplets(t.begin(), t.end());
    return S;
}

SparseMatrixd hierarchical_transform(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns,
                                     int base_level) {
    SparseMatrixd S(unknowns, unknowns);
    S.setIdentity();
    // Level base+1 is interpolated first (its parents are nodal already), so it is the rightmost factor.
    for (int l = base_level + 1; l <= mesh.level; ++l) S = SparseMatrixd(hierarchical_step(mesh, dof, unknowns, l) * S);
    return S;
}

}  // namespace voxwave::poisson
