#include "wave/sem_mesh.hpp"

#include <algorithm>
#include <cmath>

#include "boundary/sponge_layer.hpp"

namespace voxwave {

SemMesh sem_mesh(const VoxelGrid& g, int order) {
    SemMesh m;
    m.order = order;
    m.gll = gll_tables(order);
    m.spacing = g.spacing;
    m.origin = g.origin;
    for (int a = 0; a < 3; ++a) m.n[a] = order * g.n[a] + 1;
    return m;
}

std::array<int, 3> sem_nearest_node(const SemMesh& mesh, const VoxelGrid& g, const std::array<double, 3>& p) {
    std::array<int, 3> out{};
    const int order = mesh.order;
    for (int a = 0; a < 3; ++a) {
        // The element holding the point (clamped into the grid) has the nearest node among its
        // own: the nodes of the neighbours on its faces are its own face nodes.
        const double x = (p[a] - g.origin[a]) / g.spacing;
        const int e = static_cast<int>(std::clamp(std::floor(x), 0.0, double(std::max(0, g.n[a] - 1))));
        const double r = 2.0 * (x - e) - 1.0;  // reference coordinate in the element
        int best = 0;
        for (int l = 1; l <= order; ++l)
            if (std::abs(mesh.gll.xi[l] - r) < std::abs(mesh.gll.xi[best] - r)) best = l;
        out[a] = std::min(order * e + best, mesh.n[a] - 1);
    }
    return out;
}

std::vector<double> sem_node_masses(const SemMesh& mesh, const VoxelGrid& g, const std::vector<Material>& materials) {
    std::vector<double> m(mesh.node_count(), 0.0);
    const int p = mesh.order;
    const double jac = 0.125 * g.spacing * g.spacing * g.spacing;
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                const MaterialId id = g.at(i, j, k);
                if (id == kVoidId) continue;
                const double me = materials[id - 1].density * jac;
                for (int c = 0; c <= p; ++c)
                    for (int b = 0; b <= p; ++b)
                        for (int a = 0; a <= p; ++a)
                            m[mesh.node_index(p * i + a, p * j + b, p * k + c)] +=
                                me * mesh.gll.w[a] * mesh.gll.w[b] * mesh.gll.w[c];
            }
    return m;
}

BoundaryNodes sem_boundary_nodes(const BoundaryConditions& bc, const SemMesh& mesh, const VoxelGrid& g, double vp_max) {
    BoundaryNodes out;
    std::array<std::vector<double>, 3> lower, upper;
    for (int a = 0; a < 3; ++a)
        for (int i = 0; i < mesh.n[a]; ++i) {
            lower[a].push_back(mesh.offset(i));
            upper[a].push_back(g.n[a] * g.spacing - mesh.offset(i));
        }
    out.node_damping = sponge_node_damping(bc, lower, upper, vp_max);
    // The PML's profiles are per element plane (an element's stretch is constant over it), so
    // they are the voxel grid's; its node tables are built on the GLL grid (pml_tables).
    out.pml = pml_layer(bc, g, vp_max);

    std::vector<std::size_t> fixed;
    for (const Vec3& p : bc.fixed_points) {
        const auto n = sem_nearest_node(mesh, g, p);
        fixed.push_back(mesh.node_index(n[0], n[1], n[2]));
    }
    for (int f = 0; f < 6; ++f) {
        // A PML ends on a held face, as the voxel grid's (boundary_nodes).
        if (!bc.faces[std::size_t(f)].fixed && bc.faces[std::size_t(f)].absorbing != AbsorbingType::Pml) continue;
        const int axis = face_axis(f), at = face_is_upper(f) ? mesh.n[axis] - 1 : 0;
        for (int k = 0; k < mesh.n[2]; ++k)
            for (int j = 0; j < mesh.n[1]; ++j)
                for (int i = 0; i < mesh.n[0]; ++i) {
                    const int idx[3] = {i, j, k};
                    if (idx[axis] == at) fixed.push_back(mesh.node_index(i, j, k));
                }
    }
    std::sort(fixed.begin(), fixed.end());
    fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
    out.fixed_nodes = std::move(fixed);
    return out;
}

}  // namespace voxwave
