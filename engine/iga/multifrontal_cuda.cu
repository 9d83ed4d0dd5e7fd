// CUDA numeric phase of the multi-frontal solver (see multifrontal_cuda.hpp). Fronts are the
// same column-major m x (m + 1) blocks [A | b] as on the CPU (multifrontal_cpu.hpp), so the
// batched library calls work on them in place: A11 at the front, [A12 b1] at column k, [A22 b2]
// at column k, row k.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "core/cuda_library_check.cuh"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "iga/multifrontal_cuda.hpp"

namespace voxwave::iga {

namespace {
std::size_t sz(std::int64_t v) { return static_cast<std::size_t>(v); }

using cuda::DeviceBuffer;
using cuda::elapsed_seconds;
using cuda::Event;

// Library handles bound to one stream.
struct Handles {
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
    cusolverDnHandle_t solver = nullptr;
    Handles() {
        VOXWAVE_CUDA_CHECK(cudaStreamCreate(&stream));
        VOXWAVE_CUDA_CHECK(cublasCreate(&blas));
        VOXWAVE_CUDA_CHECK(cublasSetStream(blas, stream));
        VOXWAVE_CUDA_CHECK(cusolverDnCreate(&solver));
        VOXWAVE_CUDA_CHECK(cusolverDnSetStream(solver, stream));
    }
    ~Handles() {
        if (solver) cusolverDnDestroy(solver);
        if (blas) cublasDestroy(blas);
        if (stream) cudaStreamDestroy(stream);
    }
};

// ---- kernels ---------------------------------------------------------------------------------

struct LeafArgs {
    int p1, N, n;
    const double *k1, *m1, *rhs;
    const int *size, *dofs, *local;
    const std::int64_t *dof_begin, *front_begin;
    double* fronts;
};

// One block per element: the element matrix restricted to the leaf's unknowns, and the
// right-hand side of the unknowns this element owns.
__global__ void iga_leaf_fronts_kernel(LeafArgs a) {
    const int leaf = blockIdx.x, ex = leaf % a.N, ey = leaf / a.N, m = a.size[leaf];
    const double* k1x = a.k1 + std::int64_t(ex) * a.p1 * a.p1;
    const double* m1x = a.m1 + std::int64_t(ex) * a.p1 * a.p1;
    const double* k1y = a.k1 + std::int64_t(ey) * a.p1 * a.p1;
    const double* m1y = a.m1 + std::int64_t(ey) * a.p1 * a.p1;
    const int* local = a.local + a.dof_begin[leaf];
    const int* dofs = a.dofs + a.dof_begin[leaf];
    double* F = a.fronts + a.front_begin[leaf];
    for (int e = threadIdx.x; e < m * (m + 1); e += blockDim.x) {
        const int c = e / m, r = e % m;
        if (c < m) {
            F[e] = iga_element_stiffness(k1x, m1x, k1y, m1y, a.p1, local[r], local[c]);
        } else {
            const int g = dofs[r], i = g % a.n, j = g / a.n;
            const bool owner = min(i, a.N - 1) == ex && min(j, a.N - 1) == ey;
            F[e] = owner ? a.rhs[g] : 0.0;
        }
    }
}

struct MergeArgs {
    const int *size, *elim, *children;            // this level
    const std::int64_t *front_begin, *map_begin;  // this level
    const int* map;
    const int *child_size, *child_elim;  // level below
    const std::int64_t* child_front_begin;
    const double* child_fronts;
    double* fronts;  // zeroed before the launch
};

// grid.x = 4 x parents (one child each), grid.y splits big children: the children's Schur
// blocks [S c] are added into their parents; two children of one parent share interface
// entries, hence the atomics.
__global__ void iga_merge_children_kernel(MergeArgs a) {
    const int slot = blockIdx.x, parent = slot / 4, kid = a.children[slot];
    const int mc = a.child_size[kid], kc = a.child_elim[kid], r = mc - kc, m = a.size[parent];
    const double* S = a.child_fronts + a.child_front_begin[kid] + std::int64_t(kc) * mc + kc;
    const int* map = a.map + a.map_begin[slot];
    double* F = a.fronts + a.front_begin[parent];
    const std::int64_t work = std::int64_t(r) * (r + 1);
    for (std::int64_t e = std::int64_t(blockIdx.y) * blockDim.x + threadIdx.x; e < work;
         e += std::int64_t(gridDim.y) * blockDim.x) {
        const int j = int(e / r), i = int(e % r);
        const std::int64_t col = j < r ? map[j] : m;
        atomicAdd(&F[col * m + map[i]], S[std::int64_t(j) * mc + i]);
    }
}

struct BackArgs {
    const int *nodes, *size, *elim, *dofs;
    const std::int64_t *dof_begin, *front_begin;
    double* fronts;
    double* x;
};

// y <- y - W x2 for the listed nodes (grid.x = node, grid.y = row chunks); x2 is read straight
// from the global solution (interface unknowns were solved higher up the tree).
__global__ void iga_backward_update_kernel(BackArgs a) {
    const int node = a.nodes[blockIdx.x], m = a.size[node], k = a.elim[node];
    const int i = blockIdx.y * blockDim.x + threadIdx.x;
    if (i >= k) return;
    const double* F = a.fronts + a.front_begin[node];
    const int* dofs = a.dofs + a.dof_begin[node];
    double t = F[std::int64_t(m) * m + i];
    for (int q = k; q < m; ++q) t -= F[std::int64_t(q) * m + i] * a.x[dofs[q]];
    a.fronts[a.front_begin[node] + std::int64_t(m) * m + i] = t;
}

__global__ void iga_scatter_solution_kernel(BackArgs a) {
    const int node = a.nodes[blockIdx.x], m = a.size[node], k = a.elim[node];
    const int i = blockIdx.y * blockDim.x + threadIdx.x;
    if (i >= k) return;
    a.x[a.dofs[a.dof_begin[node] + i]] = a.fronts[a.front_begin[node] + std::int64_t(m) * m + i];
}

// ---- host side -------------------------------------------------------------------------------

// Fronts of one shape (m, k) on one level: one batched call each.
struct Batch {
    int m = 0, k = 0, count = 0;
    std::int64_t ptr_begin = 0;   // into the pointer table: count A, then count B, C, Y pointers
    std::int64_t node_begin = 0;  // into the batch node list
    int info_begin = 0;
    bool single = false;  // big fronts: one full-device call per front
};

struct LevelOnDevice {
    DeviceBuffer<int> size, elim, dofs, local, children, map;
    DeviceBuffer<std::int64_t> dof_begin, front_begin, map_begin;
    DeviceBuffer<double> fronts;
    std::vector<std::int64_t> front_begin_host;
    std::vector<Batch> batches;
    int merge_chunks = 1;
};

// Above this many eliminated unknowns a front is factorised alone with the blocked full-device
// routines, which beat the batched ones there (and the batch is then one or a few fronts).
constexpr int kSingleFrontElim = 384;
constexpr int kThreads = 256;

}  // namespace

std::vector<double> multifrontal_solve_cuda(const IgaSpace& s, const FrontTree& t, const IgaLoad& load,
                                            CudaMultifrontalTimings* timings) {
    const auto host_t0 = std::chrono::steady_clock::now();
    int dev = 0;
    VOXWAVE_CUDA_CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    VOXWAVE_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));

    // Memory: all fronts stay for the backward pass (their top rows hold L, W, y).
    std::size_t front_bytes = 0;
    for (const FrontLevel& l : t.levels)
        for (int m : l.size) front_bytes += sz(std::int64_t(m) * (m + 1)) * sizeof(double);
    std::size_t free_b = 0, total_b = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (front_bytes > free_b / 10 * 9)
        throw InputError("", "--elements",
                         "the fronts of N = " + std::to_string(t.N) + ", p = " + std::to_string(t.p) + " need " +
                             std::to_string(double(front_bytes) / (1 << 30)) + " GiB of GPU memory, the device has " +
                             std::to_string(double(free_b) / (1 << 30)) + " GiB free");

    Handles h;
    const DeviceBuffer<double> k1(s.k1), m1(s.m1), rhs(load.rhs);
    DeviceBuffer<double> x(load.dirichlet);
    const int levels = static_cast<int>(t.levels.size());
    std::vector<LevelOnDevice> dl(sz(levels));
    std::vector<double*> ptrs;
    std::vector<int> batch_nodes;
    int infos = 0;
    for (int L = 0; L < levels; ++L) {
        const FrontLevel& l = t.levels[sz(L)];
        LevelOnDevice& d = dl[sz(L)];
        d.front_begin_host.resize(sz(l.count() + 1));
        d.front_begin_host[0] = 0;
        for (int i = 0; i < l.count(); ++i)
            d.front_begin_host[sz(i + 1)] =
                d.front_begin_host[sz(i)] + std::int64_t(l.size[sz(i)]) * (l.size[sz(i)] + 1);
        d.size = DeviceBuffer<int>(l.size);
        d.elim = DeviceBuffer<int>(l.elim);
        d.dofs = DeviceBuffer<int>(l.dofs);
        d.dof_begin = DeviceBuffer<std::int64_t>(l.dof_begin);
        d.front_begin = DeviceBuffer<std::int64_t>(d.front_begin_host);
        d.fronts = DeviceBuffer<double>(sz(d.front_begin_host.back()));
        if (L == 0) {
            d.local = DeviceBuffer<int>(l.local);
        } else {
            d.children = DeviceBuffer<int>(l.children);
            d.map = DeviceBuffer<int>(l.map);
            d.map_begin = DeviceBuffer<std::int64_t>(l.map_begin);
            const FrontLevel& below = t.levels[sz(L - 1)];
            std::int64_t most = 0;
            for (int c = 0; c < below.count(); ++c) {
                const std::int64_t r = below.size[sz(c)] - below.elim[sz(c)];
                most = std::max(most, r * (r + 1));
            }
            d.merge_chunks = static_cast<int>(std::clamp<std::int64_t>(most / (kThreads * 16), 1, 65535));
        }
        std::map<std::pair<int, int>, std::vector<int>> shapes;
        for (int i = 0; i < l.count(); ++i) shapes[{l.size[sz(i)], l.elim[sz(i)]}].push_back(i);
        for (const auto& [shape, nodes] : shapes) {
            Batch b;
            b.m = shape.first;
            b.k = shape.second;
            b.count = static_cast<int>(nodes.size());
            b.single = b.k >= kSingleFrontElim;
            b.ptr_begin = static_cast<std::int64_t>(ptrs.size());
            b.node_begin = static_cast<std::int64_t>(batch_nodes.size());
            b.info_begin = infos;
            infos += b.count;
            double* base = d.fronts.get();
            const std::int64_t m = b.m, k = b.k;
            for (int i : nodes) ptrs.push_back(base + d.front_begin_host[sz(i)]);              // A11
            for (int i : nodes) ptrs.push_back(base + d.front_begin_host[sz(i)] + k * m);      // [A12 b1]
            for (int i : nodes) ptrs.push_back(base + d.front_begin_host[sz(i)] + k * m + k);  // [A22 b2]
            for (int i : nodes) ptrs.push_back(base + d.front_begin_host[sz(i)] + m * m);      // y column
            batch_nodes.insert(batch_nodes.end(), nodes.begin(), nodes.end());
            d.batches.push_back(b);
        }
    }
    const DeviceBuffer<double*> dptrs(ptrs);
    const DeviceBuffer<int> dnodes(batch_nodes);
    DeviceBuffer<int> info(sz(std::max(infos, 1)));
    VOXWAVE_CUDA_CHECK(cudaMemset(info.get(), 0, info.size() * sizeof(int)));
    int lwork = 0;  // workspace of the largest single-front Cholesky
    for (const LevelOnDevice& d : dl)
        for (const Batch& b : d.batches)
            if (b.single) {
                int w = 0;
                VOXWAVE_CUDA_CHECK(
                    cusolverDnDpotrf_bufferSize(h.solver, CUBLAS_FILL_MODE_LOWER, b.k, ptrs[sz(b.ptr_begin)], b.m, &w));
                lwork = std::max(lwork, w);
            }
    DeviceBuffer<double> work(sz(std::max(lwork, 1)));
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    const double setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_t0).count();

    const double one = 1.0, minus_one = -1.0;
    Event e0, e1, e2;
    e0.record(h.stream);
    for (int L = 0; L < levels; ++L) {
        const FrontLevel& l = t.levels[sz(L)];
        LevelOnDevice& d = dl[sz(L)];
        if (L == 0) {
            LeafArgs a{s.p + 1,
                       s.N,
                       s.n,
                       k1.get(),
                       m1.get(),
                       rhs.get(),
                       d.size.get(),
                       d.dofs.get(),
                       d.local.get(),
                       d.dof_begin.get(),
                       d.front_begin.get(),
                       d.fronts.get()};
            iga_leaf_fronts_kernel<<<l.count(), 64, 0, h.stream>>>(a);
            VOXWAVE_CUDA_CHECK_LAUNCH("iga_leaf_fronts_kernel");
        } else {
            const LevelOnDevice& b = dl[sz(L - 1)];
            VOXWAVE_CUDA_CHECK(cudaMemsetAsync(d.fronts.get(), 0, d.fronts.size() * sizeof(double), h.stream));
            MergeArgs a{d.size.get(),        d.elim.get(),   d.children.get(), d.front_begin.get(),
                        d.map_begin.get(),   d.map.get(),    b.size.get(),     b.elim.get(),
                        b.front_begin.get(), b.fronts.get(), d.fronts.get()};
            iga_merge_children_kernel<<<dim3(unsigned(4 * l.count()), unsigned(d.merge_chunks)), kThreads, 0,
                                        h.stream>>>(a);
            VOXWAVE_CUDA_CHECK_LAUNCH("iga_merge_children_kernel");
        }
        for (const Batch& b : d.batches) {
            if (b.k == 0) continue;  // nothing fully assembled yet: the front goes up whole
            const int r = b.m - b.k;
            double** A = dptrs.get() + b.ptr_begin;
            double** B = A + b.count;
            double** C = B + b.count;
            if (b.single) {
                for (int i = 0; i < b.count; ++i) {
                    double* F = ptrs[sz(b.ptr_begin + i)];
                    VOXWAVE_CUDA_CHECK(cusolverDnDpotrf(h.solver, CUBLAS_FILL_MODE_LOWER, b.k, F, b.m, work.get(),
                                                        lwork, info.get() + b.info_begin + i));
                    double* F12 = ptrs[sz(b.ptr_begin + b.count + i)];
                    VOXWAVE_CUDA_CHECK(cublasDtrsm(h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                                   CUBLAS_DIAG_NON_UNIT, b.k, r + 1, &one, F, b.m, F12, b.m));
                    if (r > 0)
                        VOXWAVE_CUDA_CHECK(cublasDgemm(h.blas, CUBLAS_OP_T, CUBLAS_OP_N, r, r + 1, b.k, &minus_one, F12,
                                                       b.m, F12, b.m, &one, ptrs[sz(b.ptr_begin + 2 * b.count + i)],
                                                       b.m));
                }
            } else {
                VOXWAVE_CUDA_CHECK(cusolverDnDpotrfBatched(h.solver, CUBLAS_FILL_MODE_LOWER, b.k, A, b.m,
                                                           info.get() + b.info_begin, b.count));
                VOXWAVE_CUDA_CHECK(cublasDtrsmBatched(h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                                      CUBLAS_DIAG_NON_UNIT, b.k, r + 1, &one, A, b.m, B, b.m, b.count));
                if (r > 0)
                    VOXWAVE_CUDA_CHECK(cublasDgemmBatched(h.blas, CUBLAS_OP_T, CUBLAS_OP_N, r, r + 1, b.k, &minus_one,
                                                          B, b.m, B, b.m, &one, C, b.m, b.count));
            }
        }
    }
    e1.record(h.stream);
    for (int L = levels - 1; L >= 0; --L) {
        LevelOnDevice& d = dl[sz(L)];
        for (const Batch& b : d.batches) {
            if (b.k == 0) continue;
            BackArgs a{dnodes.get() + b.node_begin, d.size.get(),        d.elim.get(),   d.dofs.get(),
                       d.dof_begin.get(),           d.front_begin.get(), d.fronts.get(), x.get()};
            const dim3 grid(unsigned(b.count), unsigned((b.k + kThreads - 1) / kThreads));
            if (b.m > b.k) {
                iga_backward_update_kernel<<<grid, kThreads, 0, h.stream>>>(a);
                VOXWAVE_CUDA_CHECK_LAUNCH("iga_backward_update_kernel");
            }
            double** A = dptrs.get() + b.ptr_begin;
            double** Y = A + 3 * b.count;
            if (b.single) {
                for (int i = 0; i < b.count; ++i)
                    VOXWAVE_CUDA_CHECK(cublasDtrsv(h.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT,
                                                   b.k, ptrs[sz(b.ptr_begin + i)], b.m,
                                                   ptrs[sz(b.ptr_begin + 3 * b.count + i)], 1));
            } else {
                VOXWAVE_CUDA_CHECK(cublasDtrsmBatched(h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                                      CUBLAS_DIAG_NON_UNIT, b.k, 1, &one, A, b.m, Y, b.m, b.count));
            }
            iga_scatter_solution_kernel<<<grid, kThreads, 0, h.stream>>>(a);
            VOXWAVE_CUDA_CHECK_LAUNCH("iga_scatter_solution_kernel");
        }
    }
    e2.record(h.stream);
    e2.synchronize();

    std::vector<int> info_host(info.size());
    VOXWAVE_CUDA_CHECK(cudaMemcpy(info_host.data(), info.get(), info.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v : info_host)
        if (v != 0)
            throw RuntimeError("multi-frontal (CUDA): a front is not positive definite (info " + std::to_string(v) +
                               ")");
    std::vector<double> out(x.size());
    VOXWAVE_CUDA_CHECK(cudaMemcpy(out.data(), x.get(), x.size() * sizeof(double), cudaMemcpyDeviceToHost));
    if (timings) {
        timings->setup_seconds = setup_s;
        timings->factor_seconds = elapsed_seconds(e0, e1);
        timings->solve_seconds = elapsed_seconds(e1, e2);
        timings->device_bytes = front_bytes;
        timings->device = prop.name;
    }
    return out;
}

}  // namespace voxwave::iga
