#include "wave/voxel_stiffness_cpu.hpp"

#include <cstring>

#include "core/errors.hpp"
#include "wave/element_rows.hpp"

namespace voxwave {

namespace {

// W elements of a row at once: the element kernel instantiated on a GCC vector of W lanes, so
// every operation of voxel_element_force is one SIMD instruction over W elements (the compiler
// would not vectorise the per-element loop itself: the kernel is too large to if-convert). Same
// operations per lane as the scalar kernel, so the same bits.
template <class Real>
struct RowLanes {
    static constexpr int W = 64 / int(sizeof(Real));  // one 64-byte vector (AVX-512; narrower ISAs split it)
    typedef Real V __attribute__((vector_size(64)));
    static V load(const Real* p) {
        V v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static void store(Real* p, const V& v) { std::memcpy(p, &v, sizeof v); }
};

}  // namespace

template <class Real>
VoxelStiffnessCpu<Real>::VoxelStiffnessCpu(const VoxelGrid& grid, const std::vector<Material>& materials,
                                           ElementMethod method)
    : grid_(grid), method_(method), scales_(mode_scales(method, grid.spacing)) {
    if (materials.size() > 255) throw RuntimeError("more than 255 materials in one model");
    for (std::size_t m = 0; m < materials.size(); ++m) {
        lambda_[m + 1] = static_cast<Real>(materials[m].lame_lambda());
        mu_[m + 1] = static_cast<Real>(materials[m].shear_modulus());
    }
}

template <class Real>
template <bool Damped>
void VoxelStiffnessCpu<Real>::apply_plane(int k, const std::array<const Real*, 3>& u,
                                          const std::array<const Real*, 3>& up, Real b, const std::array<Real*, 3>& f,
                                          Real* rowbuf) const {
    const int nx = grid_.n[0], ny = grid_.n[1];
    const Real s0 = static_cast<Real>(scales_.constant), s1 = static_cast<Real>(scales_.linear),
               s2 = static_cast<Real>(scales_.bilinear);
    const Real keep = Real(1) + b;
    const std::size_t stride = static_cast<std::size_t>(nx);
    for (int j = 0; j < ny; ++j) {
        const MaterialId* ids = grid_.ids.data() + grid_.element_index(0, j, k);
        std::size_t rows[4];
        element_row_nodes(grid_, j, k, rows);
        const Real* __restrict ux = u[0];
        const Real* __restrict uy = u[1];
        const Real* __restrict uz = u[2];
        const Real* __restrict px = up[0];
        const Real* __restrict py = up[1];
        const Real* __restrict pz = up[2];
        Real* __restrict out = rowbuf;
        using L = RowLanes<Real>;
        using V = typename L::V;
        constexpr int W = L::W;
        int i0 = 0;
        for (; i0 + W <= nx; i0 += W) {
            V ue[24], fe[24];
            for (int c = 0; c < 2; ++c)
                for (int bb = 0; bb < 2; ++bb)
                    for (int a = 0; a < 2; ++a) {
                        const std::size_t node = rows[2 * c + bb] + static_cast<std::size_t>(i0 + a);
                        const int l = voxel_local_node(a, bb, c);
                        if constexpr (Damped) {
                            ue[3 * l + 0] = keep * L::load(ux + node) - b * L::load(px + node);
                            ue[3 * l + 1] = keep * L::load(uy + node) - b * L::load(py + node);
                            ue[3 * l + 2] = keep * L::load(uz + node) - b * L::load(pz + node);
                        } else {
                            ue[3 * l + 0] = L::load(ux + node);
                            ue[3 * l + 1] = L::load(uy + node);
                            ue[3 * l + 2] = L::load(uz + node);
                        }
                    }
            V lam, mu;
            for (int q = 0; q < W; ++q) {
                lam[q] = lambda_[ids[i0 + q]];
                mu[q] = mu_[ids[i0 + q]];
            }
            const V v0 = V{} + s0, v1 = V{} + s1, v2 = V{} + s2;
            voxel_element_force<V>(ue, lam, mu, v0, v1, v2, fe);
            for (int d = 0; d < 24; ++d) L::store(out + d * stride + static_cast<std::size_t>(i0), fe[d]);
        }
        // The row's last nx mod W elements, one at a time.
        for (int i = i0; i < nx; ++i) {
            Real ue[24], fe[24];
            for (int c = 0; c < 2; ++c)
                for (int bb = 0; bb < 2; ++bb)
                    for (int a = 0; a < 2; ++a) {
                        const std::size_t node = rows[2 * c + bb] + static_cast<std::size_t>(i + a);
                        const int l = voxel_local_node(a, bb, c);
                        if constexpr (Damped) {
                            ue[3 * l + 0] = keep * ux[node] - b * px[node];
                            ue[3 * l + 1] = keep * uy[node] - b * py[node];
                            ue[3 * l + 2] = keep * uz[node] - b * pz[node];
                        } else {
                            ue[3 * l + 0] = ux[node];
                            ue[3 * l + 1] = uy[node];
                            ue[3 * l + 2] = uz[node];
                        }
                    }
            const MaterialId id = ids[i];
            voxel_element_force(ue, lambda_[id], mu_[id], s0, s1, s2, fe);
            for (int d = 0; d < 24; ++d) out[d * stride + static_cast<std::size_t>(i)] = fe[d];
        }
        add_element_row<Real>(out, rows, nx, f);
    }
}

template <class Real>
void VoxelStiffnessCpu<Real>::apply(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev,
                                    Real b, const std::array<Real*, 3>& f) const {
    const bool damped = u_prev[0] != nullptr && b != Real(0);
    for_each_element_plane<Real>(grid_, f, [&](int k, Real* rowbuf) {
        if (damped)
            apply_plane<true>(k, u, u_prev, b, f, rowbuf);
        else
            apply_plane<false>(k, u, u_prev, b, f, rowbuf);
    });
}

template class VoxelStiffnessCpu<double>;
template class VoxelStiffnessCpu<float>;

}  // namespace voxwave
