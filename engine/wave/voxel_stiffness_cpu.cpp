// The 64-byte vectors of this file and of the headers it includes never cross a non-inlined call
// boundary of another translation unit; without AVX-512 GCC warns that passing them by value
// changes the ABI, which does not matter here (and would fail -Werror builds that are not
// -march=native). Set before the includes: the warning is raised in them too.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "wave/voxel_stiffness_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/element_rows.hpp"
#include "wave/lame_tables.hpp"

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
    // Lanes (prev[W - 1], cur[0], ..., cur[W - 2]): the far-corner forces of W elements moved
    // onto the nodes they belong to (one valign instruction).
    static V shift_in(const V& prev, const V& cur) {
        if constexpr (W == 8) {
            typedef long long M __attribute__((vector_size(64)));
            return __builtin_shuffle(prev, cur, M{7, 8, 9, 10, 11, 12, 13, 14});
        } else {
            typedef int M __attribute__((vector_size(64)));
            return __builtin_shuffle(prev, cur, M{15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30});
        }
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

// Whether the W material ids at p are all equal (compared 8 bytes at a time).
template <int W>
bool same_material(const MaterialId* p) {
    static_assert(sizeof(MaterialId) == 1 && W % 8 == 0);
    std::uint64_t first;
    std::memcpy(&first, p, 8);
    const std::uint64_t all = (first & 0xff) * 0x0101010101010101ull;
    bool same = first == all;
    for (int q = 8; q < W; q += 8) {
        std::uint64_t next;
        std::memcpy(&next, p + q, 8);
        same &= next == all;
    }
    return same;
}

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
    const LameTables<Real> lame = lame_tables<Real>(materials);
    std::copy(lame.lambda.begin(), lame.lambda.end(), lambda_.begin());
    std::copy(lame.mu.begin(), lame.mu.end(), mu_.begin());
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

namespace {
int fused_chunks(int nz, int planes_per_chunk) { return std::max(1, nz / planes_per_chunk); }
}  // namespace

template <class Real>
double VoxelStiffnessCpu<Real>::fused_step_bytes(bool sponge) const {
    const double s = sizeof(Real);
    const double nn = double(grid_.node_count()), ne = double(grid_.element_count());
    const double np = double(grid_.n[0] + 1) * double(grid_.n[1] + 1);
    const double chunks = fused_chunks(grid_.n[2], kPlanesPerChunk);
    return nn * (3 * s + 3 * s + s + 3 * s + (sponge ? 2 * s : 0)) + ne  // u, u-, dt^2/m, u+ (+ h), ids
           + 2 * chunks * (3 * s * np) * 2                               // boundary partials: write + read
           + (chunks + 1) * np * 6 * s;                                  // boundary planes: u, u- again
}

template <class Real>
void VoxelStiffnessCpu<Real>::step_fused(const std::array<const Real*, 3>& u, const std::array<Real*, 3>& u_prev,
                                         Real b, const CentralDifference<Real>& update) const {
    if (b != Real(0))
        step_fused_impl<true>(u, u_prev, b, update);
    else
        step_fused_impl<false>(u, u_prev, b, update);
}

// Buffers: node planes in a padded layout, row stride rs = (xc + 1) W for xc vector chunks per
// element row, so every row is processed in whole vectors. Padding lanes of the w ring are zero
// and the padded ids are 0 (void: lambda = mu = 0), so the elements past the row end add
// exactly 0 to real nodes.
template <class Real>
template <bool Damped>
void VoxelStiffnessCpu<Real>::step_fused_impl(const std::array<const Real*, 3>& u, const std::array<Real*, 3>& up,
                                              Real b, const CentralDifference<Real>& cd) const {
    using L = RowLanes<Real>;
    using V = typename L::V;
    constexpr int W = L::W;
    const int nx = grid_.n[0], ny = grid_.n[1], nz = grid_.n[2];
    const int xc = (nx + W - 1) / W;
    const std::size_t rs = std::size_t(xc + 1) * W;   // buffer row stride
    const std::size_t cs = std::size_t(ny + 1) * rs;  // buffer component stride
    const std::size_t ps = 3 * cs;                    // buffer plane
    const int chunks = fused_chunks(nz, kPlanesPerChunk);
    auto chunk_begin = [&](int c) { return c * kPlanesPerChunk; };
    auto chunk_end = [&](int c) { return c + 1 == chunks ? nz : (c + 1) * kPlanesPerChunk; };
    const std::size_t per_thread = 4 * ps;  // w ring (2 planes), f ring (2 planes)
    const std::size_t threads = static_cast<std::size_t>(omp_get_max_threads());
    if (scratch_.size() != threads * per_thread) scratch_.assign(threads * per_thread, Real(0));
    // boundary_[(2 bnd) ps]: node plane of boundary bnd from the element plane below it;
    // boundary_[(2 bnd + 1) ps]: from the element plane above it.
    if (boundary_.size() != 2 * std::size_t(chunks + 1) * ps)
        boundary_.assign(2 * std::size_t(chunks + 1) * ps, Real(0));
    const Real s0 = static_cast<Real>(scales_.constant), s1 = static_cast<Real>(scales_.linear),
               s2 = static_cast<Real>(scales_.bilinear);
    const Real keep = Real(1) + b;

    // w = u + b (u - u-) of node plane kk into the padded buffer (lanes past nx untouched: zero).
    auto w_plane = [&](int kk, Real* w) {
        for (int j = 0; j <= ny; ++j) {
            const std::size_t n0 = grid_.node_index(0, j, kk);
            for (int comp = 0; comp < 3; ++comp) {
                const Real* __restrict us = u[comp] + n0;
                const Real* __restrict ps_ = up[comp] + n0;
                Real* __restrict d = w + comp * cs + std::size_t(j) * rs;
                if constexpr (Damped) {
#pragma omp simd
                    for (int i = 0; i <= nx; ++i) d[i] = keep * us[i] - b * ps_[i];
                } else {
                    std::memcpy(d, us, sizeof(Real) * std::size_t(nx + 1));
                }
            }
        }
    };
    // Element plane k: forces of its elements from w planes k (wlo) and k + 1 (whi), added to
    // node planes k (flo) and k + 1 (fhi). A fresh plane's node row is assigned at its first touch
    // (by element row j - 1, or by row 0 for node row 0), then accumulated.
    auto element_plane = [&](int k, const Real* wlo, const Real* whi, Real* flo, bool flo_fresh, Real* fhi,
                             MaterialId* idrow) {
        const V v0 = V{} + s0, v1 = V{} + s1, v2 = V{} + s2;
        for (int j = 0; j < ny; ++j) {
            std::memcpy(idrow, grid_.ids.data() + grid_.element_index(0, j, k), std::size_t(nx));
            const std::size_t r0 = std::size_t(j) * rs, r1 = r0 + rs;
            const Real* const wrow[2][2] = {{wlo + r0, wlo + r1}, {whi + r0, whi + r1}};  // [c][b]
            Real* const frow[2][2] = {{flo + r0, flo + r1}, {fhi + r0, fhi + r1}};
            const bool assign[2][2] = {{flo_fresh && j == 0, flo_fresh}, {j == 0, true}};
            V carry[12];
            for (V& v : carry) v = V{};
            for (int q = 0; q < xc; ++q) {
                const std::size_t i0 = std::size_t(q) * W;
                V ue[24], fe[24];
                for (int c = 0; c < 2; ++c)
                    for (int bb = 0; bb < 2; ++bb)
                        for (int a = 0; a < 2; ++a) {
                            const int l = voxel_local_node(a, bb, c);
                            for (int comp = 0; comp < 3; ++comp)
                                ue[3 * l + comp] = L::load(wrow[c][bb] + comp * cs + i0 + std::size_t(a));
                        }
                // Most chunks lie in one material: then lambda and mu are broadcasts, not gathers.
                V lam, mu;
                if (same_material<W>(idrow + i0)) {
                    lam = V{} + lambda_[idrow[i0]];
                    mu = V{} + mu_[idrow[i0]];
                } else {
                    lam = L::gather(lambda_, idrow + i0);
                    mu = L::gather(mu_, idrow + i0);
                }
                voxel_element_force<V>(ue, lam, mu, v0, v1, v2, fe);
                for (int c = 0; c < 2; ++c)
                    for (int bb = 0; bb < 2; ++bb)
                        for (int comp = 0; comp < 3; ++comp) {
                            const int r = 6 * c + 3 * bb + comp;
                            const V far = fe[3 * voxel_local_node(1, bb, c) + comp];
                            const V node = fe[3 * voxel_local_node(0, bb, c) + comp] + L::shift_in(carry[r], far);
                            carry[r] = far;
                            Real* dst = frow[c][bb] + comp * cs + i0;
                            L::store(dst, assign[c][bb] ? node : L::load(dst) + node);
                        }
            }
            const std::size_t last = std::size_t(xc) * W;  // node past the last chunk: the carry's last lane
            for (int c = 0; c < 2; ++c)
                for (int bb = 0; bb < 2; ++bb)
                    for (int comp = 0; comp < 3; ++comp) {
                        Real& dst = frow[c][bb][comp * cs + last];
                        const Real v = carry[6 * c + 3 * bb + comp][W - 1];
                        dst = assign[c][bb] ? v : dst + v;
                    }
        }
    };
    // u- of node plane kk becomes u+, with f = f0 + f1 (f1 may be null; f0 null: f = f1).
    auto update_plane = [&](int kk, const Real* f0, const Real* f1) {
        for (int j = 0; j <= ny; ++j) {
            const std::size_t n0 = grid_.node_index(0, j, kk);
            const Real* __restrict a = cd.dt2_inv_mass + n0;
            for (int comp = 0; comp < 3; ++comp) {
                const Real* __restrict uu = u[comp] + n0;
                Real* __restrict pp = up[comp] + n0;
                const std::size_t off = comp * cs + std::size_t(j) * rs;
                const Real* __restrict fa = f0 ? f0 + off : f1 + off;
                const Real* __restrict fb = f0 && f1 ? f1 + off : nullptr;
                if (cd.uniform) {
                    const Real mh = cd.one_minus_h[0], ih = cd.inv_one_plus_h[0];
                    if (fb) {
#pragma omp simd
                        for (int i = 0; i <= nx; ++i)
                            pp[i] = central_difference_node(uu[i], pp[i], a[i] * (fa[i] + fb[i]), mh, ih);
                    } else {
#pragma omp simd
                        for (int i = 0; i <= nx; ++i)
                            pp[i] = central_difference_node(uu[i], pp[i], a[i] * fa[i], mh, ih);
                    }
                } else {
                    const Real* __restrict ih = cd.inv_one_plus_h + n0;
                    const Real* __restrict mh = cd.one_minus_h + n0;
#pragma omp simd
                    for (int i = 0; i <= nx; ++i)
                        pp[i] =
                            central_difference_node(uu[i], pp[i], a[i] * (fb ? fa[i] + fb[i] : fa[i]), mh[i], ih[i]);
                }
            }
        }
    };

#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        Real* const mine = scratch_.data() + std::size_t(omp_get_thread_num()) * per_thread;
        Real* const wring[2] = {mine, mine + ps};
        Real* const fring[2] = {mine + 2 * ps, mine + 3 * ps};
        std::vector<MaterialId> idrow(rs, MaterialId(0));
#pragma omp for schedule(static)
        for (int c = 0; c < chunks; ++c) {
            const int k0 = chunk_begin(c), k1 = chunk_end(c);
            Real* const above = boundary_.data() + (2 * std::size_t(c) + 1) * ps;  // node plane k0, from plane k0
            Real* const below = boundary_.data() + 2 * std::size_t(c + 1) * ps;    // node plane k1, from k1 - 1
            w_plane(k0, wring[0]);
            for (int k = k0; k < k1; ++k) {
                const int r = (k - k0) & 1;
                w_plane(k + 1, wring[r ^ 1]);
                Real* const flo = k == k0 ? above : fring[r];
                Real* const fhi = k + 1 == k1 ? below : fring[r ^ 1];
                element_plane(k, wring[r], wring[r ^ 1], flo, k == k0, fhi, idrow.data());
                if (k > k0) update_plane(k, flo, nullptr);  // node plane k is complete
            }
        }
        // The chunks' shared node planes: lower partial first, then the upper one.
#pragma omp for schedule(static)
        for (int bnd = 0; bnd <= chunks; ++bnd) {
            const int kk = bnd == chunks ? nz : chunk_begin(bnd);
            const Real* lower = bnd > 0 ? boundary_.data() + 2 * std::size_t(bnd) * ps : nullptr;
            const Real* upper = bnd < chunks ? boundary_.data() + (2 * std::size_t(bnd) + 1) * ps : nullptr;
            update_plane(kk, lower, upper);
        }
    }
}

template class VoxelStiffnessCpu<double>;
template class VoxelStiffnessCpu<float>;

}  // namespace voxwave
