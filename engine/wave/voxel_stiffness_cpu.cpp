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
    static V gather(const std::array<Real, 256>& table, const MaterialId* ids) {
        V v;
        for (int q = 0; q < W; ++q) v[q] = table[ids[q]];
        return v;
    }
};

// One element at a time: the row's last nx mod W elements.
template <class Real>
struct OneLane {
    static constexpr int W = 1;
    using V = Real;
    static V load(const Real* p) { return *p; }
    static void store(Real* p, const V& v) { *p = v; }
    static V gather(const std::array<Real, 256>& table, const MaterialId* ids) { return table[*ids]; }
};

// Element forces of elements i0, i0 + W, ... of one element row into out[d * nx + i], Lanes::W
// elements per call of the kernel, while a whole group fits; returns the first element left.
template <class Lanes, bool Damped, class Real>
int row_element_forces(int i0, int nx, const std::size_t rows[4], const std::array<const Real*, 3>& u,
                       const std::array<const Real*, 3>& up, Real keep, Real b, const MaterialId* ids,
                       const std::array<Real, 256>& lambda, const std::array<Real, 256>& mu, Real s0, Real s1, Real s2,
                       Real* __restrict out) {
    using V = typename Lanes::V;
    const std::size_t stride = static_cast<std::size_t>(nx);
    const V v0 = V{} + s0, v1 = V{} + s1, v2 = V{} + s2;
    for (; i0 + Lanes::W <= nx; i0 += Lanes::W) {
        V ue[24], fe[24];
        for (int c = 0; c < 2; ++c)
            for (int bb = 0; bb < 2; ++bb)
                for (int a = 0; a < 2; ++a) {
                    const std::size_t node = rows[2 * c + bb] + static_cast<std::size_t>(i0 + a);
                    const int l = voxel_local_node(a, bb, c);
                    for (int comp = 0; comp < 3; ++comp) {
                        if constexpr (Damped)
                            ue[3 * l + comp] = keep * Lanes::load(u[comp] + node) - b * Lanes::load(up[comp] + node);
                        else
                            ue[3 * l + comp] = Lanes::load(u[comp] + node);
                    }
                }
        voxel_element_force<V>(ue, Lanes::gather(lambda, ids + i0), Lanes::gather(mu, ids + i0), v0, v1, v2, fe);
        for (int d = 0; d < 24; ++d) Lanes::store(out + d * stride + static_cast<std::size_t>(i0), fe[d]);
    }
    return i0;
}

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
    for (int j = 0; j < ny; ++j) {
        const MaterialId* ids = grid_.ids.data() + grid_.element_index(0, j, k);
        std::size_t rows[4];
        element_row_nodes(grid_, j, k, rows);
        // W elements per instruction while a group fits, then the rest one by one.
        const int rest = row_element_forces<RowLanes<Real>, Damped>(0, nx, rows, u, up, keep, b, ids, lambda_, mu_, s0,
                                                                    s1, s2, rowbuf);
        row_element_forces<OneLane<Real>, Damped>(rest, nx, rows, u, up, keep, b, ids, lambda_, mu_, s0, s1, s2,
                                                  rowbuf);
        add_element_row<Real>(rowbuf, rows, nx, f);
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
