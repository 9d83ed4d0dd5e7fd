// The kernels of the element-parallel ("scatter") CUDA SEM step (sem_stepper_cuda.hpp states the
// design, sem_step_schedule.hpp when it runs instead of the column sweep), in a header of their
// own so that test_sem_scatter_emulated.cpp can run these very kernel bodies on the CPU (a thread a
// CUDA thread, a barrier for __syncthreads, a lock for atomicAdd) against the CPU stepper.
//
// Two launches a step instead of the sweep's eight colours: one block takes one to four solid
// elements of the whole model at once, one thread a GLL point, and adds the element forces K_e w_e
// into a force buffer f (atomics at the element's face, edge and corner nodes, a plain store at
// its inner nodes, which no other element touches); then one thread a node applies the
// central-difference update from the complete force and clears f for the next step. Why: the
// sweep's colour launches each run a z sweep of cells whose element planes follow one another, so
// its step costs about 8 x (planes + 1/4) element-plane latencies however few cells a colour has;
// a small model cannot fill the device with them, and this step's work is spread over every
// element at once. The element arithmetic is sem_element_kernel.hpp's (sem_point_stress,
// sem_node_force), the update central_difference.hpp's, as the CPU stepper's.
#pragma once

#include <cstddef>

#include "core/host_device.hpp"
#include "model/voxel_grid.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_cell_sweep_kernel.cuh"
#include "wave/sem_element_kernel.hpp"

namespace voxwave::sem_cuda {

// Elements a block of the element kernel, one thread a GLL point: 108, 128 and 125 threads.
template <int P>
constexpr int kScatterElementsPerBlock = P == 2 ? 4 : (P == 3 ? 2 : 1);
template <int P>
constexpr int kScatterElementThreads = kScatterElementsPerBlock<P>*(P + 1) * (P + 1) * (P + 1);
constexpr int kScatterNodeThreads = 256;

// f += K_e w_e over the `count` solid elements of `elements` (x-fastest element indices), w = keep u
// - b u_prev (Damped) or u. Thread (e, l) takes GLL point l of element blockIdx.x E + e: it
// gathers w at its node into shared memory, computes the point's weighted stress into shared
// memory, then the element's force at its node. f must hold zero at every node before the launch
// (the update kernel leaves it so).
template <int P, class Real, bool Damped>
__global__ void __launch_bounds__(kScatterElementThreads<P>)
    sem_element_scatter(const unsigned* __restrict elements, unsigned count, const unsigned char* __restrict ids,
                        const Real* __restrict lambda, const Real* __restrict mu, SemTables<Real> tab, GridShape g,
                        Real half_ds, const Real* __restrict u, const Real* __restrict u_prev, Real keep, Real b,
                        Real* __restrict f) {
    constexpr int N = P + 1, N3 = N * N * N, E = kScatterElementsPerBlock<P>;
    __shared__ Real su[E][3 * N3];
    __shared__ Real st[E][9 * N3];
    // The tables in shared memory: the threads index them by their own point.
    __shared__ Real sd[N * N], sw[N];
    if (threadIdx.x < N * N) sd[threadIdx.x] = tab.d[threadIdx.x];
    if (threadIdx.x < N) sw[threadIdx.x] = tab.w[threadIdx.x];
    const int e = int(threadIdx.x) / N3, l = int(threadIdx.x) - e * N3;
    const int a = l % N, bb = (l / N) % N, c = l / (N * N);
    const std::size_t q = std::size_t(blockIdx.x) * E + std::size_t(e), nn = g.nn;
    const bool live = q < count;
    std::size_t node = 0;
    unsigned char id = kVoidId;
    if (live) {
        const unsigned el = elements[q], exy = unsigned(g.ex) * unsigned(g.ey);
        const unsigned i = el % unsigned(g.ex), j = (el % exy) / unsigned(g.ex), k = el / exy;
        node = std::size_t(P * i + unsigned(a)) +
               std::size_t(g.nx) *
                   (std::size_t(P * j + unsigned(bb)) + std::size_t(g.ny) * std::size_t(P * k + unsigned(c)));
        id = ids[el];
        for (int comp = 0; comp < 3; ++comp) {
            const Real v = __ldg(u + comp * nn + node);
            su[e][comp * N3 + l] = Damped ? damped_operand(v, __ldg(u_prev + comp * nn + node), keep, b) : v;
        }
    }
    __syncthreads();
    if (live) sem_point_stress<P, Real>(sd, sw, __ldg(lambda + id), __ldg(mu + id), half_ds, su[e], a, bb, c, st[e]);
    __syncthreads();
    if (!live) return;
    const bool inner = a > 0 && a < P && bb > 0 && bb < P && c > 0 && c < P;
    for (int comp = 0; comp < 3; ++comp) {
        const Real s = sem_node_force<P, Real>(sd, st[e], comp, a, bb, c);
        if (inner)
            f[comp * nn + node] = s;
        else
            atomicAdd(f + comp * nn + node, s);
    }
}

// u_next = u+ at every node from the complete force f (central_difference_node with the sweep's
// factors: dt^2/m, zero at held and massless nodes, so those keep the scheme's extrapolation of a
// zero state), and f back to zero for the next step's element kernel.
template <class Real>
__global__ void __launch_bounds__(kScatterNodeThreads)
    sem_scatter_update(unsigned long long nn, const Real* __restrict u, const Real* __restrict u_prev,
                       Real* __restrict f, Real* __restrict u_next, UpdateFactors<Real> upd) {
    const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (n >= nn) return;
    const Real am = upd.dt2_inv_mass[n];
    const bool sponge = upd.inv_one_plus_h != nullptr;
    const Real ih = sponge ? upd.inv_one_plus_h[n] : upd.uniform_ih, mh = sponge ? upd.one_minus_h[n] : upd.uniform_mh;
    for (int comp = 0; comp < 3; ++comp) {
        const std::size_t x = std::size_t(comp) * nn + n;
        const Real force = f[x];
        f[x] = Real(0);
        u_next[x] = central_difference_node(u[x], u_prev[x], am * force, mh, ih);
    }
}

}  // namespace voxwave::sem_cuda
