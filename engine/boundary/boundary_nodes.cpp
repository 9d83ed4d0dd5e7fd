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

BoundaryNodes BoundaryNodes::node_box(const std::array<int, 3>& n, const std::array<int, 3>& e0,
                                      const std::array<int, 3>& e1) const {
    BoundaryNodes out;
    out.pml = pml.element_box(e0, {e1[0] - e0[0], e1[1] - e0[1], e1[2] - e0[2]});
    const std::size_t nx = std::size_t(n[0] + 1), ny = std::size_t(n[1] + 1);
    const std::size_t bx = std::size_t(e1[0] - e0[0] + 1), by = std::size_t(e1[1] - e0[1] + 1);
    auto local = [&](std::size_t g, std::size_t& l) {
        const int c[3] = {int(g % nx), int((g / nx) % ny), int(g / (nx * ny))};
        for (int a = 0; a < 3; ++a)
            if (c[a] < e0[std::size_t(a)] || c[a] > e1[std::size_t(a)]) return false;
        l = std::size_t(c[0] - e0[0]) + bx * (std::size_t(c[1] - e0[1]) + by * std::size_t(c[2] - e0[2]));
        return true;
    };
    if (!node_damping.empty()) {
        out.node_damping.assign(bx * by * std::size_t(e1[2] - e0[2] + 1), 0.0);
        std::size_t l = 0;
        for (std::size_t g = 0; g < node_damping.size(); ++g)
            if (local(g, l)) out.node_damping[l] = node_damping[g];
    }
    std::size_t l = 0;
    for (std::size_t g : fixed_nodes)
        if (local(g, l)) out.fixed_nodes.push_back(l);
    std::sort(out.fixed_nodes.begin(), out.fixed_nodes.end());
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
