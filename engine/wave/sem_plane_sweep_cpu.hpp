// The CPU sweep of the spectral voxel elements (sem_stepper_cpu.hpp states the scheme): element
// planes along z in order, each plane's element forces summed into a buffer of its p + 1 node
// planes, and the node rows that an element row completes handed to a sink right after it, while
// they and the u just read are still in cache. Why: the forces then never go to memory (no force
// vector to clear, add into and read back in a second pass), which took about a quarter of the
// CPU step.
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
// element, a = i mod p: p runs of `stride` entries, run a holding the nodes i = p e + a (e = 0..n_x
// - 1; run 0 also the row's last node, i = p n_x, at e = n_x). Node a of elements e0 .. e0 + L - 1
// is then L consecutive entries (run a from e0; node p is run 0 from e0 + 1), so the sweep gathers
// and scatters the elements of an x row with plain vector loads and stores instead of one scalar
// access a lane, and the central-difference update, node by node, does not care about the order.
// The entries that hold no node (runs 1..p-1 at e >= n_x) have zero mass and stay at zero.
struct SemNodeOrderCpu {
    int order = 0;
    std::array<int, 3> nodes{0, 0, 0};  // GLL nodes per axis (sem_mesh)
    std::size_t stride = 0;             // entries of one run: n_x + 1, at least `lanes`
    std::size_t row = 0;                // p stride
    std::size_t plane = 0;              // row nodes[1]
    std::size_t size = 0;               // entries a component: plane nodes[2]

    SemNodeOrderCpu() = default;
    // lanes: the sweep's vector width; a row shorter than it is padded so that one vector of
    // elements stays inside its row.
    SemNodeOrderCpu(int p, const std::array<int, 3>& n, int lanes)
        : order(p),
          nodes(n),
          stride(std::max(std::size_t((n[0] - 1) / p) + 1, std::size_t(lanes))),
          row(std::size_t(p) * stride),
          plane(row * std::size_t(n[1])),
          size(plane * std::size_t(n[2])) {}

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
        for (int c = 0; c < components; ++c)
            for_each_node([&](std::size_t n, std::size_t e) {
                out[std::size_t(c) * size + e] = static_cast<To>(v[std::size_t(c) * node_count() + n]);
            });
        return out;
    }
    template <class To, class From>
    std::vector<To> to_natural(const From* v, int components) const {
        std::vector<To> out(std::size_t(components) * node_count());
        for (int c = 0; c < components; ++c)
            for_each_node([&](std::size_t n, std::size_t e) {
                out[std::size_t(c) * node_count() + n] = static_cast<To>(v[std::size_t(c) * size + e]);
            });
        return out;
    }

private:
    // f(node in the x-fastest numbering, its entry here) for every node.
    template <class F>
    void for_each_node(const F& f) const {
        std::size_t n = 0;
        for (int k = 0; k < nodes[2]; ++k)
            for (int j = 0; j < nodes[1]; ++j)
                for (int i = 0; i < nodes[0]; ++i) f(n++, index(i, j, k));
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

// The buffers of a sweep, kept between sweeps (allocating them each step cost page faults): per
// thread, the element kernel's scratch and N + 1 force planes (3 components each), all zero
// between sweeps; the chunks' boundary planes.
template <class Real>
struct SemSweepWorkspace {
    using Vec = typename SemLanes<Real>::Vec;
    std::vector<std::vector<Vec>> scratch;
    std::vector<std::vector<Real>> planes;
    std::vector<Real> bottom, top;
};

// f = K w for every node, w = (1 + b) u - b u_prev (u_prev null: w = u), u and u_prev in the
// order of in.order (component c from c in.order.size), handed out a few node rows at a time:
// sink(z, r0, r1, f) says rows r0 .. r1 - 1 of node plane z are complete, f the plane's forces in
// that order ([c * plane + entry in plane]; entries that hold no node carry zero). Every row is
// handed out exactly once, after the last read of u and u_prev in it (so the sink may overwrite
// u_prev there), from whichever thread completes it; the sink must be safe to call from several
// threads for different rows. ahead(z, r0, r1) names rows the sweep hands out soon (the sink's
// own data can be prefetched). Rows of one element row go out together, right after its
// elements, while its u and forces are still in cache.
template <int P, class Real, class Sink, class Ahead>
void sem_plane_sweep(const SemSweepInput<Real>& in, const Real* u, const Real* u_prev, Real b,
                     SemSweepWorkspace<Real>& ws, const Sink& sink, const Ahead& ahead) {
    constexpr int N = P + 1, N3 = N * N * N, L = SemLanes<Real>::kLanes;
    using Vec = typename SemLanes<Real>::Vec;
    using sem_detail::add_lanes;
    using sem_detail::load_lanes;
    using sem_detail::prefetch_row;
    const VoxelGrid& g = *in.grid;
    const SemNodeOrderCpu& o = in.order;
    const std::size_t es = o.stride, row = o.row, plane = o.plane, size = o.size, plane3 = 3 * plane;
    const SemKernelTablesCpu<P, Real> tables(*in.gll, 0.5 * g.spacing);
    const Real keep = Real(1) + b;
    const int ex = g.n[0], ey = g.n[1], ez = g.n[2];
    const int threads = std::max(1, std::min(omp_get_max_threads(), ez));
    if (ws.planes.size() != std::size_t(threads) || ws.planes[0].size() != std::size_t(N + 1) * plane3) {
        ws.scratch.assign(std::size_t(threads), std::vector<Vec>(std::size_t(15 * N3)));
        ws.planes.assign(std::size_t(threads), std::vector<Real>(std::size_t(N + 1) * plane3, Real(0)));
        // Each chunk's bottom node plane from its first element plane, and its top node plane
        // from its last: the chunk boundaries are summed after the barrier.
        ws.bottom.assign(std::size_t(threads) * plane3, Real(0));
        ws.top.assign(std::size_t(threads) * plane3, Real(0));
    }
#pragma omp parallel num_threads(threads)
    {
        const FlushDenormalsScope no_subnormals;
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int k0 = int(std::int64_t(ez) * t / nt), k1 = int(std::int64_t(ez) * (t + 1) / nt);
        Vec* ue = ws.scratch[std::size_t(t)].data();
        Vec* te = ue + 3 * N3;
        Vec* fe = te + 9 * N3;
        // fp[c]: this element plane's forces on its node plane c; carry: the plane below's on
        // node plane 0 (its top). Rows go back to zero once handed out.
        Real* fp[N];
        for (int c = 0; c < N; ++c) fp[c] = ws.planes[std::size_t(t)].data() + std::size_t(c) * plane3;
        Real* carry = ws.planes[std::size_t(t)].data() + std::size_t(N) * plane3;
        const auto zero_rows = [&](Real* f, std::size_t r0, std::size_t r1) {
            for (int comp = 0; comp < 3; ++comp)
                std::fill(f + comp * plane + r0 * row, f + comp * plane + r1 * row, Real(0));
        };
        // Node (a, b, c) of the vector's first lane is entry off[q] of node plane c.
        std::size_t off[N3];
        for (int k = k0; k < k1; ++k) {
            const std::size_t z0 = std::size_t(P) * std::size_t(k);
            // Node plane z0 is complete here unless the plane below belongs to another chunk.
            const bool own_bottom = k > k0 || k == 0;
            for (int j = 0; j < ey; ++j) {
                const std::size_t r0 = std::size_t(P) * std::size_t(j);
                const std::size_t r1 = j + 1 < ey ? r0 + P : r0 + N;  // rows complete after this row
                // The next element row's new node rows (75 streams at p = 4, more than the
                // hardware prefetcher follows), while this row computes.
                if (j + 1 < ey) {
                    for (int c = 0; c < N; ++c)
                        for (int bb = 1; bb < N; ++bb) {
                            const std::size_t r = (z0 + std::size_t(c)) * plane + (r0 + P + std::size_t(bb)) * row;
                            for (int comp = 0; comp < 3; ++comp) {
                                prefetch_row(u + comp * size + r, row);
                                if (u_prev) prefetch_row(u_prev + comp * size + r, row);
                            }
                        }
                    for (int c = own_bottom ? 0 : 1; c < P; ++c) ahead(z0 + std::size_t(c), r0 + P, r0 + 2 * P);
                }
                // Vectors of L elements; the last one ends at the row's end, its lanes that the
                // one before already did have no material (they add zeros).
                for (int v0 = 0; v0 < ex; v0 += L) {
                    const int e0 = std::max(0, std::min(v0, ex - L));
                    Vec lam{}, mu{};
                    bool any = false;
                    for (int l = std::max(0, v0 - e0); l < L && e0 + l < ex; ++l) {
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
                                    (r0 + std::size_t(bb)) * row + std::size_t(a % P) * es + std::size_t(e0 + a / P);
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
                            Vec w;
                            for (int l = 0; l < L; ++l) w[l] = damped_operand(uc[n + l], pc[n + l], keep, b);
                            ue[comp * N3 + q] = w;
                        }
                    }
                    sem_element_force_cpu<P, Vec, Real>(tables, lam, mu, ue, te, fe);
                    // Node p of each lane is node 0 of the next lane's element: those go last,
                    // after the other nodes' stores have left.
                    for (int c = 0; c < N; ++c)
                        for (int comp = 0; comp < 3; ++comp) {
                            Real* fz = fp[c] + std::size_t(comp) * plane;
                            for (int q = c * N * N; q < (c + 1) * N * N; ++q)
                                if (q % N != P) add_lanes(fz + off[q], fe[comp * N3 + q]);
                        }
                    for (int c = 0; c < N; ++c)
                        for (int comp = 0; comp < 3; ++comp) {
                            Real* fz = fp[c] + std::size_t(comp) * plane;
                            for (int q = c * N * N + P; q < (c + 1) * N * N; q += N)
                                add_lanes(fz + off[q], fe[comp * N3 + q]);
                        }
                }
                // Rows r0 .. r1 - 1 of node planes z0 .. z0 + P - 1 are complete (node plane z0:
                // the plane below's part plus this plane's, in that order whatever the chunking).
                if (own_bottom) {
                    Real* f0 = fp[0];
                    if (k > k0) {
                        for (int comp = 0; comp < 3; ++comp) {
                            Real* __restrict cz = carry + comp * plane;
                            const Real* __restrict fz = fp[0] + comp * plane;
                            for (std::size_t i = r0 * row; i < r1 * row; ++i) cz[i] += fz[i];
                        }
                        zero_rows(fp[0], r0, r1);
                        f0 = carry;
                    }
                    sink(z0, r0, r1, f0);
                    zero_rows(f0, r0, r1);
                }
                for (int c = 1; c < P; ++c) {
                    sink(z0 + std::size_t(c), r0, r1, fp[c]);
                    zero_rows(fp[c], r0, r1);
                }
            }
            if (!own_bottom) {
                std::copy(fp[0], fp[0] + plane3, ws.bottom.begin() + std::ptrdiff_t(t * plane3));
                std::fill(fp[0], fp[0] + plane3, Real(0));
            }
            // This plane's top is the next one's carry; the old carry is all zero now.
            std::swap(carry, fp[P]);
        }
        if (k1 > k0) {
            std::copy(carry, carry + plane3, ws.top.begin() + std::ptrdiff_t(t * plane3));
            std::fill(carry, carry + plane3, Real(0));
        }
#pragma omp barrier
        // Each chunk's bottom node plane above the first: the chunk below's top plus this chunk's
        // bottom (the one-thread sweep's order).
        const std::size_t rows = std::size_t(o.nodes[1]);
        if (k0 > 0 && k1 > k0) {
            Real* tb = ws.top.data() + std::size_t(t - 1) * plane3;
            const Real* bt = ws.bottom.data() + std::size_t(t) * plane3;
            for (std::size_t i = 0; i < plane3; ++i) tb[i] += bt[i];
            sink(std::size_t(P) * std::size_t(k0), 0, rows, tb);
        }
        if (t == nt - 1 && k1 > k0)
            sink(std::size_t(P) * std::size_t(ez), 0, rows, ws.top.data() + std::size_t(t) * plane3);
    }
}

}  // namespace voxwave
