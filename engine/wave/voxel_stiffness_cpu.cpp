#include "wave/voxel_stiffness_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "core/errors.hpp"
#include "core/float_env.hpp"

namespace voxwave {

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
        // Node-row starts of the element row's 4 edges along x: (b, c) = (0,0), (1,0), (0,1), (1,1).
        const std::size_t rows[4] = {grid_.node_index(0, j, k), grid_.node_index(0, j + 1, k),
                                     grid_.node_index(0, j, k + 1), grid_.node_index(0, j + 1, k + 1)};
        const Real* __restrict ux = u[0];
        const Real* __restrict uy = u[1];
        const Real* __restrict uz = u[2];
        const Real* __restrict px = up[0];
        const Real* __restrict py = up[1];
        const Real* __restrict pz = up[2];
        Real* __restrict out = rowbuf;
#pragma omp simd
        for (int i = 0; i < nx; ++i) {
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
        // Add the row's element forces to its 4 node rows; near (a = 0) and far (a = 1) corners
        // in separate unit-stride loops so no vector lane writes the same node twice.
        for (int c = 0; c < 2; ++c)
            for (int bb = 0; bb < 2; ++bb)
                for (int comp = 0; comp < 3; ++comp) {
                    Real* __restrict dst = f[comp] + rows[2 * c + bb];
                    const Real* __restrict near = out + (3 * voxel_local_node(0, bb, c) + comp) * stride;
                    const Real* __restrict far = out + (3 * voxel_local_node(1, bb, c) + comp) * stride;
#pragma omp simd
                    for (int i = 0; i < nx; ++i) dst[i] += near[i];
#pragma omp simd
                    for (int i = 0; i < nx; ++i) dst[i + 1] += far[i];
                }
    }
}

template <class Real>
void VoxelStiffnessCpu<Real>::apply(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& u_prev,
                                    Real b, const std::array<Real*, 3>& f) const {
    const std::size_t nn = grid_.node_count();
    const int nz = grid_.n[2];
    const bool damped = u_prev[0] != nullptr && b != Real(0);
    const std::size_t rowbuf_size = 24 * static_cast<std::size_t>(grid_.n[0]);
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        std::vector<Real> rowbuf(rowbuf_size);
        for (int comp = 0; comp < 3; ++comp) {
#pragma omp for schedule(static) nowait
            for (std::ptrdiff_t n = 0; n < static_cast<std::ptrdiff_t>(nn); ++n) f[comp][n] = Real(0);
        }
#pragma omp barrier
        // Element plane k adds to node planes k and k+1: planes of one parity never collide.
        for (int parity = 0; parity < 2; ++parity) {
#pragma omp for schedule(static)
            for (int k = parity; k < nz; k += 2) {
                if (damped)
                    apply_plane<true>(k, u, u_prev, b, f, rowbuf.data());
                else
                    apply_plane<false>(k, u, u_prev, b, f, rowbuf.data());
            }
        }
    }
}

template class VoxelStiffnessCpu<double>;
template class VoxelStiffnessCpu<float>;

}  // namespace voxwave
