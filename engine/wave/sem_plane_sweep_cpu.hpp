// The CPU sweep of the spectral voxel elements (sem_stepper_cpu.hpp states the scheme): element
// planes along z in order, each plane's element forces summed into a buffer of its p + 1 node
// planes, and every node plane handed to a sink as soon as its force is complete, while it is
// still in cache. Why: the forces then never go to memory (no force vector to clear, add into
// and read back in a second pass), which took about a quarter of the CPU step.
//
// Threads take contiguous chunks of element planes. A node plane between two element planes
// gets the lower plane's partial force plus the upper plane's, added in that order whatever the
// chunking, so the result does not depend on the thread count; the node plane at the bottom of
// a chunk waits until the chunk below has finished (one barrier a sweep).
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/float_env.hpp"
#include "model/voxel_grid.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_element_kernel.hpp"

namespace voxwave {

// kLanes elements of an x row at once, one a lane: the element kernel is one pass of vector
// arithmetic (64-byte vectors: AVX-512, or two AVX2 halves), while the gathers and scatters of
// the shared nodes stay in element order, so the sums equal the one-element loop's.
template <class Real>
struct SemLanes {
    static constexpr int kLanes = 64 / int(sizeof(Real));
    typedef Real Vec __attribute__((vector_size(64)));
};

// The element-independent inputs of a sweep.
template <class Real>
struct SemSweepInput {
    const VoxelGrid* grid = nullptr;
    std::array<int, 3> nodes{0, 0, 0};  // GLL nodes per axis (sem_mesh)
    const Real* lambda = nullptr;       // per material id (entry 0: void)
    const Real* mu = nullptr;
    const Real* d = nullptr;  // (p + 1)^2 derivative matrix
    const Real* w = nullptr;  // p + 1 weights
};

// f = K w for every node, w = (1 + b) u - b u_prev (u_prev null: w = u), handed out one node plane
// at a time: sink(z, f) with f the plane's 3 components, component-major ([c * plane + node in
// plane], plane = nodes[0] * nodes[1]). Every node plane z is handed out exactly once, after
// the last read of u and u_prev in it (so the sink may overwrite u_prev there), from whichever
// thread completes it; the sink must be safe to call from several threads for different planes.
template <int P, class Real, class Sink>
void sem_plane_sweep(const SemSweepInput<Real>& in, const Real* u, const Real* u_prev, Real b, const Sink& sink) {
    constexpr int N = P + 1, N3 = N * N * N, L = SemLanes<Real>::kLanes;
    using Vec = typename SemLanes<Real>::Vec;
    const VoxelGrid& g = *in.grid;
    const std::size_t nx = std::size_t(in.nodes[0]), plane = nx * std::size_t(in.nodes[1]);
    const std::size_t nn = plane * std::size_t(in.nodes[2]), plane3 = 3 * plane;
    const Real half_ds = static_cast<Real>(0.5 * g.spacing), keep = Real(1) + b;
    const int ez = g.n[2];
    const int threads = std::max(1, std::min(omp_get_max_threads(), ez));
    // Each chunk's bottom node plane from its first element plane, and its top node plane from
    // its last: the chunk boundaries are summed after the barrier.
    std::vector<Real> bottom(std::size_t(threads) * plane3), top(std::size_t(threads) * plane3);
#pragma omp parallel num_threads(threads)
    {
        const FlushDenormalsScope no_subnormals;
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int k0 = int(std::int64_t(ez) * t / nt), k1 = int(std::int64_t(ez) * (t + 1) / nt);
        // Heap, not stack: 15 N3 vectors of 64 B are 120 KB at p = 4.
        std::vector<Vec> buf(std::size_t(15 * N3));
        Vec* ue = buf.data();
        Vec* te = ue + 3 * N3;
        Vec* fe = te + 9 * N3;
        std::vector<Real> fp(std::size_t(N) * plane3);  // the element plane's N node planes
        std::vector<Real> carry(plane3);                // the previous element plane's top
        std::size_t idx[N3], in_plane[N3];
        for (int k = k0; k < k1; ++k) {
            std::fill(fp.begin(), fp.end(), Real(0));
            const std::size_t z0 = std::size_t(P) * std::size_t(k);
            for (int j = 0; j < g.n[1]; ++j)
                for (int i0 = 0; i0 < g.n[0]; i0 += L) {
                    const int lanes = std::min(L, g.n[0] - i0);
                    Vec lam{}, mu{};
                    bool any = false;
                    for (int l = 0; l < lanes; ++l) {
                        const MaterialId id = g.at(i0 + l, j, k);
                        lam[l] = in.lambda[id];
                        mu[l] = in.mu[id];
                        any = any || id != kVoidId;
                    }
                    if (!any) continue;
                    // Node (a, b, c) of lane l is idx[q] + P l in u, in_plane[q] + P l in node
                    // plane c of the buffer.
                    for (int c = 0; c < N; ++c)
                        for (int bb = 0; bb < N; ++bb)
                            for (int a = 0; a < N; ++a) {
                                const int q = a + N * (bb + N * c);
                                in_plane[q] = std::size_t(P * i0 + a) + nx * std::size_t(P * j + bb);
                                idx[q] = in_plane[q] + (z0 + std::size_t(c)) * plane;
                            }
                    for (int comp = 0; comp < 3; ++comp) {
                        const Real* uc = u + comp * nn;
                        const Real* pc = u_prev ? u_prev + comp * nn : nullptr;
                        if (lanes == L && !pc) {
                            // A full row, undamped: a fixed lane count lets the compiler emit
                            // strided vector loads instead of one insert a lane.
                            for (int q = 0; q < N3; ++q) {
                                const Real* ub = uc + idx[q];
                                Vec v;
                                for (int l = 0; l < L; ++l) v[l] = ub[P * l];
                                ue[comp * N3 + q] = v;
                            }
                            continue;
                        }
                        for (int q = 0; q < N3; ++q) {
                            Vec v{};
                            for (int l = 0; l < lanes; ++l) {
                                const std::size_t n = idx[q] + std::size_t(P * l);
                                v[l] = pc ? damped_operand(uc[n], pc[n], keep, b) : uc[n];
                            }
                            ue[comp * N3 + q] = v;
                        }
                    }
                    sem_element_force<P, Vec, Real>(in.d, in.w, lam, mu, half_ds, ue, te, fe);
                    for (int l = 0; l < lanes; ++l) {
                        if (g.at(i0 + l, j, k) == kVoidId) continue;
                        for (int c = 0; c < N; ++c) {
                            Real* fz = fp.data() + std::size_t(c) * plane3 + std::size_t(P * l);
                            for (int comp = 0; comp < 3; ++comp)
                                for (int q = c * N * N; q < (c + 1) * N * N; ++q)
                                    fz[comp * plane + in_plane[q]] += fe[comp * N3 + q][l];
                        }
                    }
                }
            // Node planes z0 + 1 .. z0 + P - 1 are complete; z0 adds the plane below's top.
            if (k == k0) {
                std::copy(fp.begin(), fp.begin() + std::ptrdiff_t(plane3), bottom.begin() + std::ptrdiff_t(t * plane3));
                if (k0 == 0) sink(std::size_t(0), fp.data());
            } else {
                for (std::size_t i = 0; i < plane3; ++i) carry[i] += fp[i];
                sink(z0, carry.data());
            }
            for (int c = 1; c < P; ++c) sink(z0 + std::size_t(c), fp.data() + std::size_t(c) * plane3);
            std::copy(fp.begin() + std::ptrdiff_t(P * plane3), fp.end(), carry.begin());
        }
        if (k1 > k0) std::copy(carry.begin(), carry.end(), top.begin() + std::ptrdiff_t(t * plane3));
#pragma omp barrier
        // Each chunk's bottom node plane above the first: the chunk below's top plus this chunk's
        // bottom (the one-thread sweep's order).
        if (k0 > 0 && k1 > k0) {
            Real* tb = top.data() + std::size_t(t - 1) * plane3;
            const Real* bt = bottom.data() + std::size_t(t) * plane3;
            for (std::size_t i = 0; i < plane3; ++i) tb[i] += bt[i];
            sink(std::size_t(P) * std::size_t(k0), tb);
        }
        if (t == nt - 1 && k1 > k0) sink(std::size_t(P) * std::size_t(ez), top.data() + std::size_t(t) * plane3);
    }
}

}  // namespace voxwave
