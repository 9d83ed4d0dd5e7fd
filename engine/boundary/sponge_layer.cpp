#include "boundary/sponge_layer.hpp"

#include <algorithm>
#include <cmath>

namespace voxwave {

double sponge_peak_damping(double vp_max, double thickness) { return 3.0 * vp_max * std::log(1e3) / (2.0 * thickness); }

std::vector<double> sponge_node_damping(const BoundaryConditions& bc, const VoxelGrid& g, double vp_max) {
    std::array<std::vector<double>, 3> lower, upper;
    for (int a = 0; a < 3; ++a)
        for (int i = 0; i <= g.n[a]; ++i) {
            lower[a].push_back(i * g.spacing);
            upper[a].push_back((g.n[a] - i) * g.spacing);
        }
    return sponge_node_damping(bc, lower, upper, vp_max);
}

std::vector<double> sponge_node_damping(const BoundaryConditions& bc,
                                        const std::array<std::vector<double>, 3>& from_lower,
                                        const std::array<std::vector<double>, 3>& from_upper, double vp_max) {
    if (!bc.absorbs(AbsorbingType::Sponge)) return {};
    std::array<double, 6> peak{};
    for (int f = 0; f < 6; ++f) {
        const FaceCondition& fc = bc.faces[std::size_t(f)];
        if (fc.absorbing == AbsorbingType::Sponge) peak[std::size_t(f)] = sponge_peak_damping(vp_max, fc.thickness);
    }
    const std::size_t nx = from_lower[0].size(), ny = from_lower[1].size(), nz = from_lower[2].size();
    std::vector<double> s(nx * ny * nz, 0.0);
    for (std::size_t k = 0; k < nz; ++k)
        for (std::size_t j = 0; j < ny; ++j)
            for (std::size_t i = 0; i < nx; ++i) {
                const std::size_t idx[3] = {i, j, k};
                // The largest of the faces' alpha_max (1 - d/L)^2. With one thickness for every
                // face this is alpha_max times the largest (1 - d/L)^2, bit for bit: rounding a
                // product by a positive factor keeps the order of its operands.
                double alpha = 0;
                for (int f = 0; f < 6; ++f) {
                    const FaceCondition& fc = bc.faces[std::size_t(f)];
                    if (fc.absorbing != AbsorbingType::Sponge) continue;
                    const double L = fc.thickness;
                    const int axis = face_axis(f);
                    const double d = face_is_upper(f) ? from_upper[axis][idx[axis]] : from_lower[axis][idx[axis]];
                    if (d < L) alpha = std::max(alpha, peak[std::size_t(f)] * ((1.0 - d / L) * (1.0 - d / L)));
                }
                s[i + nx * (j + ny * k)] = alpha;
            }
    return s;
}

}  // namespace voxwave
