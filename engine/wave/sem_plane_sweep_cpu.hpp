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
#include <cstring>
#include <vector>

#include "core/float_env.hpp"
#include "model/voxel_grid.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_element_kernel_cpu.hpp"

namespace voxwave {

// kLanes consecutive elements of an x row at once, one a lane: the element kernel is one pass of
// vector arithmetic (64-byte vectors: AVX-512, or two AVX2 halves).
template <class Real>
struct SemLanes {
    static constexpr int kLanes = 64 / int(sizeof(Real));
    typedef Real Vec __attribute__((vector_size(64)));
};

// The order in which the CPU stepper stores the GLL nodes (one array a component): node planes
// along z, node rows along y, and in each node row the nodes split by their GLL index within the
// element, a = i mod p: the p runs of `stride` entries hold the nodes i = p e + a (e = 0..n_x - 1;
// run a = 0 also the row's last node, i = p n_x, at e = n_x). Node a of elements e0 .. e0 + L - 1
// is then L consecutive entries (run a, from e0; node p is run 0 from e0 + 1), so the sweep
// gathers and scatters the elements of an x row with plain vector loads and stores instead of
// one scalar access a lane, and the central-difference update, node by node, does not care about
// the order. The p - 1 unused entries a row (runs 1..p-1 at e = n_x) and the tail `pad` hold no
// node: zero mass, held at zero.
struct SemNodeOrderCpu {
    int order = 0;
    std::array<int, 3> nodes{0, 0, 0};  // GLL nodes per axis (sem_mesh)
    std::size_t stride = 0;             // entries of one GLL index class in a row: n_x + 1
    std::size_t row = 0;                // p stride
    std::size_t plane = 0;              // row nodes[1]
    std::size_t size = 0;               // entries a component: plane nodes[2] + pad

    // The lanes of the last vector of a row read up to 64 bytes past the row's end (void lanes:
    // their elements have no material, so what they read adds nothing).
    static constexpr std::size_t kPad = 64;

    SemNodeOrderCpu() = default;
    SemNodeOrderCpu(int p, const std::array<int, 3>& n)
        : order(p),
          nodes(n),
          stride(std::size_t((n[0] - 1) / p) + 1),
          row(std::size_t(p) * stride),
          plane(row * std::size_t(n[1])),
          size(plane * std::size_t(n[2]) + kPad) {}

    std::size_t index(int i, int j, int k) const {
        return (std::size_t(j) + std::size_t(nodes[1]) * std::size_t(k)) * row + std::size_t(i % order) * stride +
               std::size_t(i / order);
    }
    // The entry of node n of the x-fastest numbering (sem_mesh's node_index).
    std::size_t index(std::size_t n) const {
        const std::size_t nx = std::size_t(nodes[0]), ny = std::size_t(nodes[1]);
        return index(int(n % nx), int(n / nx % ny), int(n / (nx * ny)));
    }
    std::size_t node_count() const { return std::size_t(nodes[0]) * nodes[1] * nodes[2]; }
    // Per-node values (components x node_count(), x-fastest) into this order (components x
    // size, `fill` where no node is) and back.
    template <class To, class From>
    std::vector<To> from_natural(const From* v, int components, To fill) const {
        std::vector<To> out(std::size_t(components) * size, fill);
        const std::size_t nn = node_count();
        for (int c = 0; c < components; ++c)
            for (int k = 0; k < nodes[2]; ++k)
                for (int j = 0; j < nodes[1]; ++j)
                    for (int i = 0; i < nodes[0]; ++i)
                        out[std::size_t(c) * size + index(i, j, k)] =
                            static_cast<To>(v[std::size_t(c) * nn + std::size_t(i) +
                                              std::size_t(nodes[0]) * (j + std::size_t(nodes[1]) * k)]);
        return out;
    }
    template <class To, class From>
    std::vector<To> to_natural(const From* v, int components) const {
        const std::size_t nn = node_count();
        std::vector<To> out(std::size_t(components) * nn);
        for (int c = 0; c < components; ++c)
            for (int k = 0; k < nodes[2]; ++k)
                for (int j = 0; j < nodes[1]; ++j)
                    for (int i = 0; i < nodes[0]; ++i)
                        out[std::size_t(c) * nn + std::size_t(i) +
                            std::size_t(nodes[0]) * (j + std::size_t(nodes[1]) * k)] =
                            static_cast<To>(v[std::size_t(c) * size + index(i, j, k)]);
        return out;
    }
};

// The element-independent inputs of a sweep.
template <class Real>
struct SemSweepInput {
    const VoxelGrid* grid = nullptr;
    SemNodeOrderCpu order;
    const Real* lambda = nullptr;  // per material id (entry 0: void)
    const Real* mu = nullptr;
    const GllTables* gll = nullptr;
};

namespace sem_detail {
template <class Vec, class Real>
inline Vec load_lanes(const Real* p) {
    Vec v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class Vec, class Real>
inline void add_lanes(Real* p, const Vec& f) {
    Vec v;
    std::memcpy(&v, p, sizeof v);
    v += f;
    std::memcpy(p, &v, sizeof v);
}
// Into the caches, ahead of use: the n entries from p.
template <class Real>
inline void prefetch_row(const Real* p, std::size_t n) {
    const char* b = reinterpret_cast<const char*>(p);
    for (std::size_t i = 0; i < n * sizeof(Real); i += 64) __builtin_prefetch(b + i, 0, 3);
}
}  // namespace sem_detail

// f = K w for every node, w = (1 + b) u - b u_prev (u_prev null: w = u), u and u_prev in the
// order of in.order (component c from c in.order.size), handed out one node plane at a time:
// sink(z, f) with f the plane's 3 components in that order ([c * plane + entry in plane]). Every
// node plane z is handed out exactly once, after the last read of u and u_prev in it (so the
// sink may overwrite u_prev there), from whichever thread completes it; the sink must be safe to
// call from several threads for different planes. The forces at the entries that hold no node
// are zero or garbage: the sink must ignore them (the update multiplies them by a zero mass).
template <int P, class Real, class Sink>
void sem_plane_sweep(const SemSweepInput<Real>& in, const Real* u, const Real* u_prev, Real b, const Sink& sink) {
    constexpr int N = P + 1, N3 = N * N * N, L = SemLanes<Real>::kLanes;
    using Vec = typename SemLanes<Real>::Vec;
    using sem_detail::add_lanes;
    using sem_detail::load_lanes;
    const VoxelGrid& g = *in.grid;
    const SemNodeOrderCpu& o = in.order;
    const std::size_t es = o.stride, row = o.row, plane = o.plane, size = o.size, plane3 = 3 * plane;
    const SemKernelTablesCpu<P, Real> tables(*in.gll, 0.5 * g.spacing);
    const Real keep = Real(1) + b;
    const int ex = g.n[0], ez = g.n[2];
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
        // The element plane's N node planes, and the last row's void lanes' spill past them.
        std::vector<Real> fp(std::size_t(N) * plane3 + SemNodeOrderCpu::kPad);
        std::vector<Real> carry(plane3);  // the previous element plane's top
        // Node (a, b, c) of the row's first lane is entry off[q] of node plane c (+ c plane in u).
        std::size_t off[N3];
        for (int k = k0; k < k1; ++k) {
            std::fill(fp.begin(), fp.end(), Real(0));
            const std::size_t z0 = std::size_t(P) * std::size_t(k);
            for (int j = 0; j < g.n[1]; ++j) {
                // The next element row's new node rows (75 of them at p = 4, more streams than
                // the hardware prefetcher follows), while this row computes.
                if (j + 1 < g.n[1])
                    for (int c = 0; c < N; ++c)
                        for (int bb = 1; bb < N; ++bb) {
                            const std::size_t r = std::size_t(P * (j + 1) + bb) * row;
                            for (int comp = 0; comp < 3; ++comp) {
                                sem_detail::prefetch_row(u + comp * size + (z0 + std::size_t(c)) * plane + r, row);
                                if (u_prev)
                                    sem_detail::prefetch_row(u_prev + comp * size + (z0 + std::size_t(c)) * plane + r,
                                                             row);
                                sem_detail::prefetch_row(fp.data() + std::size_t(c) * plane3 + comp * plane + r, row);
                            }
                        }
                for (int e0 = 0; e0 < ex; e0 += L) {
                    const int lanes = std::min(L, ex - e0);
                    Vec lam{}, mu{};
                    bool any = false;
                    for (int l = 0; l < lanes; ++l) {
                        const MaterialId id = g.at(e0 + l, j, k);
                        lam[l] = in.lambda[id];
                        mu[l] = in.mu[id];
                        any = any || id != kVoidId;
                    }
                    if (!any) continue;
                    for (int c = 0; c < N; ++c)
                        for (int bb = 0; bb < N; ++bb)
                            for (int a = 0; a < N; ++a)
                                off[a + N * (bb + N * c)] =
                                    std::size_t(P * j + bb) * row + std::size_t(a % P) * es + std::size_t(e0 + a / P);
                    for (int comp = 0; comp < 3; ++comp) {
                        const Real* uc = u + comp * size;
                        if (!u_prev) {
                            for (int q = 0; q < N3; ++q)
                                ue[comp * N3 + q] =
                                    load_lanes<Vec>(uc + off[q] + (z0 + std::size_t(q / (N * N))) * plane);
                            continue;
                        }
                        const Real* pc = u_prev + comp * size;
                        for (int q = 0; q < N3; ++q) {
                            const std::size_t n = off[q] + (z0 + std::size_t(q / (N * N))) * plane;
                            Vec v;
                            for (int l = 0; l < L; ++l) v[l] = damped_operand(uc[n + l], pc[n + l], keep, b);
                            ue[comp * N3 + q] = v;
                        }
                    }
                    sem_element_force_cpu<P, Vec, Real>(tables, lam, mu, ue, te, fe);
                    // Void lanes add zeros. Node p of each lane is node 0 of the next lane's
                    // element: those go last, after the other nodes' stores have left.
                    for (int c = 0; c < N; ++c)
                        for (int comp = 0; comp < 3; ++comp) {
                            Real* fz = fp.data() + std::size_t(c) * plane3 + std::size_t(comp) * plane;
                            for (int q = c * N * N; q < (c + 1) * N * N; ++q)
                                if (q % N != P) add_lanes(fz + off[q], fe[comp * N3 + q]);
                        }
                    for (int c = 0; c < N; ++c)
                        for (int comp = 0; comp < 3; ++comp) {
                            Real* fz = fp.data() + std::size_t(c) * plane3 + std::size_t(comp) * plane;
                            for (int q = c * N * N + P; q < (c + 1) * N * N; q += N)
                                add_lanes(fz + off[q], fe[comp * N3 + q]);
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
            std::copy(fp.begin() + std::ptrdiff_t(P * plane3), fp.begin() + std::ptrdiff_t(N * plane3), carry.begin());
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
