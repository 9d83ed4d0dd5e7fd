#include "wave/stiffness_quad_reference.hpp"

#include <omp.h>

#include <array>

#include "core/errors.hpp"

namespace voxwave {

void quad_mode_scales(ElementMethod method, double ds, Quad out[3]) {
    const Quad h = Quad(ds) / 2;
    const Quad w1 = method == ElementMethod::Ovfem ? Quad(1) / 2 : Quad(1) / 3;  // linear quadrant weight
    out[0] = h / 8;
    out[1] = h * w1 * w1 * 3 / 8;
    out[2] = h * w1 * w1 * w1 * w1 * 9 / 8;
}

std::vector<Quad> stiffness_times_quad(const VoxelGrid& grid, const std::vector<Material>& materials,
                                       ElementMethod method, const std::vector<double>& u) {
    const std::size_t nn = grid.node_count();
    if (u.size() != 3 * nn) throw RuntimeError("stiffness_times_quad: wrong vector size");
    if (materials.size() > 255) throw RuntimeError("more than 255 materials in one model");
    std::array<Quad, 256> lambda{}, mu{};
    for (std::size_t m = 0; m < materials.size(); ++m) {
        const Quad rho = materials[m].density, vp = materials[m].vp, vs = materials[m].vs;
        lambda[m + 1] = rho * (vp * vp - 2 * vs * vs);
        mu[m + 1] = rho * vs * vs;
    }
    Quad sc[3];
    quad_mode_scales(method, grid.spacing, sc);
    std::vector<Quad> y(3 * nn, Quad(0));
    const int nz = grid.n[2];
    for (int parity = 0; parity < 2; ++parity) {
#pragma omp parallel for schedule(dynamic, 1)
        for (int k = parity; k < nz; k += 2)
            for (int j = 0; j < grid.n[1]; ++j)
                for (int i = 0; i < grid.n[0]; ++i) {
                    const MaterialId id = grid.at(i, j, k);
                    if (id == kVoidId) continue;
                    Quad ue[24], fe[24];
                    std::size_t nodes[8];
                    for (int c = 0; c < 2; ++c)
                        for (int b = 0; b < 2; ++b)
                            for (int a = 0; a < 2; ++a) {
                                const int l = voxel_local_node(a, b, c);
                                nodes[l] = grid.node_index(i + a, j + b, k + c);
                                for (int comp = 0; comp < 3; ++comp) ue[3 * l + comp] = u[comp * nn + nodes[l]];
                            }
                    voxel_element_force<Quad>(ue, lambda[id], mu[id], sc[0], sc[1], sc[2], fe);
                    for (int l = 0; l < 8; ++l)
                        for (int comp = 0; comp < 3; ++comp) y[comp * nn + nodes[l]] += fe[3 * l + comp];
                }
    }
    return y;
}

}  // namespace voxwave
