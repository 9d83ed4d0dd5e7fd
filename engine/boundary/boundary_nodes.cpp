#include "boundary/boundary_nodes.hpp"

#include <algorithm>

#include "boundary/sponge_layer.hpp"

namespace voxwave {

std::vector<bool> BoundaryNodes::fixed_mask(std::size_t node_count) const {
    std::vector<bool> mask(node_count, false);
    for (std::size_t n : fixed_nodes) mask[n] = true;
    return mask;
}

BoundaryNodes BoundaryNodes::node_range(std::size_t first, std::size_t last) const {
    BoundaryNodes out;
    out.pml = pml.node_range(first, last);
    if (!node_damping.empty())
        out.node_damping.assign(node_damping.begin() + std::ptrdiff_t(first),
                                node_damping.begin() + std::ptrdiff_t(last));
    for (std::size_t n : fixed_nodes)
        if (n >= first && n < last) out.fixed_nodes.push_back(n - first);
    return out;
}

BoundaryNodes boundary_nodes(const BoundaryConditions& bc, const VoxelGrid& g, double vp_max) {
    BoundaryNodes out;
    out.node_damping = sponge_node_damping(bc, g, vp_max);
    out.pml = pml_layer(bc, g, vp_max);

    std::vector<std::size_t> fixed;
    for (const Vec3& p : bc.fixed_points) {
        const auto n = nearest_node(g, p);
        fixed.push_back(g.node_index(n[0], n[1], n[2]));
    }
    for (int f = 0; f < 6; ++f) {
        // A PML ends on a held face: what reaches it has crossed the layer twice, attenuated by
        // R, while a free end would carry surface waves whose evanescent part the stretch grows.
        if (!bc.faces[std::size_t(f)].fixed && bc.faces[std::size_t(f)].absorbing != AbsorbingType::Pml) continue;
        const int axis = face_axis(f), at = face_is_upper(f) ? g.n[axis] : 0;
        for (int k = 0; k <= g.n[2]; ++k)
            for (int j = 0; j <= g.n[1]; ++j)
                for (int i = 0; i <= g.n[0]; ++i) {
                    const int idx[3] = {i, j, k};
                    if (idx[axis] == at) fixed.push_back(g.node_index(i, j, k));
                }
    }
    std::sort(fixed.begin(), fixed.end());
    fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
    out.fixed_nodes = std::move(fixed);
    return out;
}

}  // namespace voxwave
