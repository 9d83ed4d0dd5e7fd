#include "boundary/sponge_layer.hpp"

#include <algorithm>
#include <cmath>

namespace voxwave {

double sponge_peak_damping(double vp_max, double thickness) { return 3.0 * vp_max * std::log(1e3) / (2.0 * thickness); }

std::vector<double> sponge_node_damping(const BoundaryConditions& bc, const VoxelGrid& g, double vp_max) {
    if (!bc.absorbs(AbsorbingType::Sponge)) return {};
    std::array<double, 6> peak{};
    for (int f = 0; f < 6; ++f) {
        const FaceCondition& fc = bc.faces[std::size_t(f)];
        if (fc.absorbing == AbsorbingType::Sponge) peak[std::size_t(f)] = sponge_peak_damping(vp_max, fc.thickness);
    }
    std::vector<double> s(g.node_count(), 0.0);
    for (int k = 0; k <= g.n[2]; ++k)
        for (int j = 0; j <= g.n[1]; ++j)
            for (int i = 0; i <= g.n[0]; ++i) {
                const int idx[3] = {i, j, k};
                // The largest of the faces' alpha_max (1 - d/L)^2. With one thickness for every
                // face this is alpha_max times the largest (1 - d/L)^2, bit for bit: rounding a
                // product by a positive factor keeps the order of its operands.
                double alpha = 0;
                for (int f = 0; f < 6; ++f) {
                    const FaceCondition& fc = bc.faces[std::size_t(f)];
                    if (fc.absorbing != AbsorbingType::Sponge) continue;
                    const double L = fc.thickness;
                    const int axis = face_axis(f);
                    const double d = face_is_upper(f) ? (g.n[axis] - idx[axis]) * g.spacing : idx[axis] * g.spacing;
                    if (d < L) alpha = std::max(alpha, peak[std::size_t(f)] * ((1.0 - d / L) * (1.0 - d / L)));
                }
                s[g.node_index(i, j, k)] = alpha;
            }
    return s;
}

}  // namespace voxwave
