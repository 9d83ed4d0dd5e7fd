// Pieces shared by the CPU stiffness products (VoxelStiffnessCpu, TcovfemStiffnessCpu): the
// node rows of an element row, the conflict-free scatter of the row's forces, and the
// even/odd z-plane driver.
//
// Layout (why): displacements are structure-of-arrays over the x-fastest node numbering, so the
// 8 corners of the elements of one x-row are 4 contiguous node rows. A row's element forces go
// to a per-thread buffer out[d * nx + i] (d = local dof of element i), then are added to the 4
// node rows in unit-stride loops. Threads take whole z-planes of elements; element plane k adds
// to node planes k and k+1, so planes of one parity never collide: even planes run, then odd.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "core/float_env.hpp"
#include "model/voxel_grid.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

// Node-row starts of element row (j, k)'s 4 edges along x: (b, c) = (0,0), (1,0), (0,1), (1,1).
inline void element_row_nodes(const VoxelGrid& g, int j, int k, std::size_t rows[4]) {
    rows[0] = g.node_index(0, j, k);
    rows[1] = g.node_index(0, j + 1, k);
    rows[2] = g.node_index(0, j, k + 1);
    rows[3] = g.node_index(0, j + 1, k + 1);
}

// f += the row's element forces; near (a = 0) and far (a = 1) corners in separate unit-stride
// loops so no vector lane writes the same node twice.
template <class Real>
inline void add_element_row(const Real* out, const std::size_t rows[4], int nx, const std::array<Real*, 3>& f) {
    const std::size_t stride = static_cast<std::size_t>(nx);
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

// f = 0, then plane(k, rowbuf) for every element plane k, in one OpenMP parallel region with
// subnormals flushed; rowbuf is the calling thread's 24 nx buffer. Element plane k adds to node
// planes k and k+1. Planes go in chunks of kPlanesPerChunk swept in order by one thread, so a
// node plane is still in cache when the next element plane adds to it (an even/odd order read
// every node plane from memory twice: 12 % slower at 2 mm). Only the last plane of a chunk shares
// a node plane with the next chunk, so last planes run after a barrier. The chunks do not depend
// on the thread count, so neither does the order of the additions: results are bit-identical for
// any number of threads.
template <class Real, class Plane>
void for_each_element_plane(const VoxelGrid& g, const std::array<Real*, 3>& f, const Plane& plane) {
    constexpr int kPlanesPerChunk = 8;
    const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(g.node_count());
    const int nz = g.n[2];
    // The last chunk takes the remainder (kPlanesPerChunk .. 2 kPlanesPerChunk - 1 planes): a
    // chunk of one plane would run its only plane beside its neighbour's last one.
    const int chunks = std::max(1, nz / kPlanesPerChunk);
    auto chunk_end = [&](int c) { return c + 1 == chunks ? nz : (c + 1) * kPlanesPerChunk; };
    const std::size_t rowbuf_size = 24 * static_cast<std::size_t>(g.n[0]);
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        std::vector<Real> rowbuf(rowbuf_size);
        for (int comp = 0; comp < 3; ++comp) {
#pragma omp for schedule(static) nowait
            for (std::ptrdiff_t n = 0; n < nn; ++n) f[comp][n] = Real(0);
        }
#pragma omp barrier
#pragma omp for schedule(static)
        for (int c = 0; c < chunks; ++c) {
            const int k1 = chunk_end(c);
            for (int k = c * kPlanesPerChunk; k + 1 < k1; ++k) plane(k, rowbuf.data());
        }
#pragma omp for schedule(static)
        for (int c = 0; c < chunks; ++c) plane(chunk_end(c) - 1, rowbuf.data());
    }
}

}  // namespace voxwave
