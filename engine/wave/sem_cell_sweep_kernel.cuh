// The kernel of the column-sweep CUDA SEM step (sem_stepper_cuda.hpp states the design,
// sem_cell_schedule.hpp the schedule) and its argument structs, in a header of its own so that
// test_sem_cell_schedule.cpp can run this very kernel body on the CPU (a thread a CUDA
// thread, a barrier for __syncthreads) against the CPU stepper; sem_stepper_cuda.cu launches it.
#pragma once

#include <cstddef>

#if defined(__CUDACC__)
#include <cuda_pipeline_primitives.h>
#endif

#include "core/host_device.hpp"
#include "model/voxel_grid.hpp"
#include "scene/run_rules.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_cell_schedule.hpp"

namespace voxwave::sem_cuda {

constexpr int kMaxN = kSemMaxOrder + 1;

template <class Real>
struct SemTables {
    Real d[kMaxN * kMaxN];
    Real w[kMaxN];
};

struct GridShape {
    int ex, ey, ez;         // elements along x, y, z
    long long nx, ny;       // GLL nodes along x, y
    unsigned long long nn;  // nodes
};

// The central-difference factors of sem_update's nodes (update_coefficients). Without a sponge
// h is one number, so the per-node factors stay unread (16 of the step's bytes a node in FP64).
template <class Real>
struct UpdateFactors {
    const Real* dt2_inv_mass;
    const Real* inv_one_plus_h;  // null: uniform_ih and uniform_mh at every node
    const Real* one_minus_h;
    Real uniform_ih, uniform_mh;
};

// Elements a cell along x (sem_cell_schedule.hpp's width), one block a cell: about 128 threads,
// (P + 1)^2 an element.
template <int P>
constexpr int kCellsPerBlock = P == 2 ? 14 : (P == 3 ? 8 : 5);

// One block sweeps one cell (a row of kCellsPerBlock elements along x, `planes` element planes
// along z) of one colour along z, element plane by element plane; thread (a, b) of element e of
// the row owns the GLL column (a, b) of the element:
//   - u of the element's P + 1 node planes lives in shared memory (su), not in registers: the
//     next element's planes are copied in asynchronously (cp.async) once this element's gradient
//     is done, so they are in flight through the transposed product and the update without
//     holding a register (the top plane is the next element's bottom one: undamped it is copied
//     within su, so u is read once a node plane); damped, each thread turns its own entries into
//     the operand w = (1 + b) u - b u_prev before the gradient;
//   - the gradients along x and y read the other columns' w from su, the one along z the thread's
//     own column, back from su at the gradient;
//   - the six distinct weighted stresses go through shared memory (st): t_i0 and t_i1 for the
//     transposed product along x and y, t_i2 as the thread's own entries (registers held from the
//     gradient to the transposed product would count at the kernel's peak);
//   - the force of the element's top node plane is carried in registers into the next element's
//     bottom plane, and the force of its a = P face is handed through shared memory (sx) to the
//     a = 0 thread of the next element of the row; the cell's nodes are then complete but for the
//     neighbouring cells' parts, which the colour roles sum through f (write / add / complete and
//     update u+ into u_next).
// D[c][m] and the weights of the z loop are compile-time indices into the kernel's parameter
// (constant) bank; the thread's rows of D for x and y (D[a][m], D[b][m] and the transposed
// D[m][a], D[m][b]) come from shared memory at the start of each half. The global loads an
// element's update needs (partial forces, dt^2/m, u, u-) are issued together, in groups of node
// planes (kSweepUpdateGroups), the first before the element's last barrier: one memory latency a
// group is exposed, not one a node.
// A void element inside a cell computes nothing and adds zero to its nodes.
// The arithmetic and its order of summation are sem_point_stress's and sem_node_force's.
//
// Blocks an SM each sweep is compiled for (__launch_bounds__'s minimum) and the groups of node
// planes whose update loads are in flight together (see the kernel: one memory latency a group):
// the most blocks whose register share (65536 / (128 threads x blocks)) the kernel fits without
// spilling, by nvcc -Xptxas -v on sm_90, and at that budget the fewest groups that fit too. The
// kernel is latency-bound, so every resident warp counts; a register is worth more than a
// group's latency. Shared memory allows them all (p = 4 FP64: 48,200 B a block, four blocks in
// the 228 KB of an SM). FP64 at p = 4 fits 128 registers (four blocks) only with one node plane a
// group, damped it takes 3 blocks at 2 groups; FP32 fits 64-80 (six to eight blocks).
struct SweepBudget {
    int blocks_per_sm, update_groups;
};
template <int P, class Real, bool Update, bool Damped>
constexpr SweepBudget sweep_budget() {
    if constexpr (sizeof(Real) == 8) {
        if constexpr (P == 2) return {5, 3};
        if constexpr (P == 3) return !Update ? SweepBudget{4, 1} : (Damped ? SweepBudget{4, 4} : SweepBudget{4, 2});
        return !Update ? SweepBudget{4, 3} : (Damped ? SweepBudget{3, 2} : SweepBudget{4, 5});
    } else {
        if constexpr (P == 2) return !Update ? SweepBudget{8, 3} : (Damped ? SweepBudget{6, 1} : SweepBudget{8, 3});
        if constexpr (P == 3) return !Update ? SweepBudget{7, 1} : (Damped ? SweepBudget{5, 4} : SweepBudget{7, 4});
        return !Update ? SweepBudget{7, 3} : (Damped ? SweepBudget{5, 5} : SweepBudget{6, 2});
    }
}
template <int P, class Real, bool Update, bool Damped>
constexpr int kSweepBlocksPerSm = sweep_budget<P, Real, Update, Damped>().blocks_per_sm;
template <int P, class Real, bool Update, bool Damped>
constexpr int kSweepUpdateGroups = sweep_budget<P, Real, Update, Damped>().update_groups;

// __launch_bounds__'s minimum for the target being compiled: the budgets above are sm_90's (the
// H100 and H200); another target (sm_80 in the default build) asks for none, so that its own
// register allocation does not spill.
template <int P, class Real, bool Update, bool Damped>
constexpr int sweep_min_blocks() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 900
    return 1;
#else
    return kSweepBlocksPerSm<P, Real, Update, Damped>;
#endif
}

template <int P, class Real, bool Update, bool Damped>
__global__ void __launch_bounds__(kCellsPerBlock<P>*(P + 1) * (P + 1), sweep_min_blocks<P, Real, Update, Damped>())
    sem_cell_sweep(const unsigned* __restrict cells, const unsigned char* __restrict cell_solid,
                   const unsigned char* __restrict ids, const Real* __restrict lambda, const Real* __restrict mu,
                   SemTables<Real> tab, GridShape g, SemCellGrid cg, Real half_ds, const Real* __restrict u,
                   const Real* __restrict u_prev, Real keep, Real b, Real* __restrict f, Real* __restrict u_next,
                   UpdateFactors<Real> upd) {
    constexpr int N = P + 1, NN = N * N, N3 = NN * N, E = kCellsPerBlock<P>;
    __shared__ Real su[E][3][N3];    // u of the element (w when damped), then the next element's u
    __shared__ Real st[E][6][N3];    // t_00, t_01, t_02, t_11, t_12, t_22 (t is symmetric)
    __shared__ Real sx[E][3][N][N];  // forces of the x faces handed to the next element of the row
    // Thread (a, b) of element e of the block's cell (cg.width == E elements along x).
    const int e = int(threadIdx.x) / NN, r = int(threadIdx.x) - e * NN, a = r % N, bb = r / N;
    const unsigned ncxy = unsigned(cg.n[0]) * unsigned(cg.n[1]), cell = cells[blockIdx.x];
    const int ic = int(cell % unsigned(cg.n[0])), cj = int((cell % ncxy) / unsigned(cg.n[0])), kc = int(cell / ncxy);
    const int ci = ic * E + e, row = g.ex - ic * E < E ? g.ex - ic * E : E;  // elements of the cell along x
    const bool live = e < row;
    // The node at a = P of all but the row's last element is the next element's a = 0: its force
    // goes to that thread through sx, which handles the node.
    const bool hands_on = a == P && e + 1 < row, takes = a == 0 && e > 0 && live;
    const int k0 = kc * cg.planes, k1 = k0 + cg.planes < g.ez ? k0 + cg.planes : g.ez, count = P * (k1 - k0);

    // D in shared memory, read into registers at the start of each half of the element's work:
    // held across the sweep, the four rows would take 4 (P + 1) registers more for the whole loop.
    __shared__ Real sd[NN];
    if (threadIdx.x < NN) sd[threadIdx.x] = tab.d[threadIdx.x];
    const std::size_t plane = std::size_t(g.nx) * std::size_t(g.ny);
    const std::size_t column =
        live ? std::size_t(P * ci + a) + std::size_t(g.nx) * std::size_t(P * cj + bb) : std::size_t(0);
    const std::size_t nn = g.nn;
    // The thread's own entry of node plane c of its column in su (and st).
    auto own = [&](int c) { return a + N * (bb + N * c); };

    // One value from global to shared memory without a register in flight (cp.async on sm_80 and
    // later; the copies are complete and visible to the thread at copies_wait, to the block after
    // the barrier that follows it).
    auto copy_async = [](Real* to_shared, const Real* from_global) {
        __pipeline_memcpy_async(to_shared, from_global, sizeof(Real));
    };
    auto copies_wait = [] {
        __pipeline_commit();
        __pipeline_wait_prior(0);
    };
    // The first element's node planes, in flight while the roles are worked out.
    if (live) {
#pragma unroll
        for (int i = 0; i < 3; ++i)
#pragma unroll
            for (int c = 0; c < N; ++c) copy_async(&su[e][i][own(c)], u + i * nn + column + plane * (P * k0 + c));
    }

    auto solid = [&](int i, int j, int k) {
        return cell_solid[std::size_t(i) + std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * k)] != 0;
    };
    // The roles of the column's lowest node, of its inner nodes and of its top node (z = 0, 0 <
    // z < count, z = count), as bits: `first` at 1 << 2 r, `last` at 2 << 2 r of role r.
    unsigned roles = 0;
    if (live) {
        const int x = P * e + a, x_count = P * row;
        const int z_of[3] = {0, 1, count};
#pragma unroll
        for (int rz = 0; rz < 3; ++rz) {
            const SemNodeRole rl = sem_cell_node_role(P, cg, ic, cj, kc, x, x_count, bb, z_of[rz], count, solid);
            roles |= (rl.first ? 1u : 0u) << (2 * rz) | (rl.last ? 2u : 0u) << (2 * rz);
        }
    }

    // The material of element plane k of the thread's element (void past the row's end).
    auto element_id = [&](int k) {
        return live ? ids[std::size_t(ci) + std::size_t(g.ex) * (std::size_t(cj) + std::size_t(g.ey) * k)] : kVoidId;
    };
    Real carry[3] = {Real(0), Real(0), Real(0)};
    unsigned char id_next = element_id(k0);

    for (int k = k0; k < k1; ++k) {
        const bool more = k + 1 < k1;
        // The element's material was loaded with the previous element's planes: its Lame
        // parameters (a cached 256-entry table) are asked for now and arrive during the wait and
        // the barrier below, not after them.
        const unsigned char id = id_next;
        const bool solid_e = id != kVoidId;
        const Real lam = solid_e ? __ldg(lambda + id) : Real(0), mu_e = solid_e ? __ldg(mu + id) : Real(0);
        if (live && more) id_next = element_id(k + 1);
        // su holds the element's u (copied in while the previous element computed); damped, the
        // thread turns its own entries into the operand w = (1 + b) u - b u_prev. No register holds
        // the column across the element: the z gradient reads it back from su, the update reads
        // u (and u-) of its nodes with its other loads.
        if constexpr (Damped) {
            Real before[3][N]{};
            if (live && solid_e) {
#pragma unroll
                for (int i = 0; i < 3; ++i)
#pragma unroll
                    for (int c = 0; c < N; ++c) before[i][c] = __ldg(u_prev + i * nn + column + plane * (P * k + c));
            }
            copies_wait();
            if (live && solid_e) {
#pragma unroll
                for (int i = 0; i < 3; ++i)
#pragma unroll
                    for (int c = 0; c < N; ++c)
                        su[e][i][own(c)] = damped_operand(su[e][i][own(c)], before[i][c], keep, b);
            }
        } else {
            copies_wait();
        }
        __syncthreads();
        if (solid_e) {
            Real da[N], db[N];
#pragma unroll
            for (int m = 0; m < N; ++m) {
                da[m] = sd[a * N + m];
                db[m] = sd[bb * N + m];
            }
            // Formed per element, not held through the sweep: two registers fewer at the peak.
            const Real two_mu = mu_e + mu_e, hab = half_ds * tab.w[a] * tab.w[bb];
#pragma unroll
            for (int c = 0; c < N; ++c) {
                Real gr[3][3];
#pragma unroll
                for (int i = 0; i < 3; ++i) {
                    Real gx{}, gy{}, gz{};
#pragma unroll
                    for (int m = 0; m < N; ++m) {
                        gx += da[m] * su[e][i][m + N * (bb + N * c)];
                        gy += db[m] * su[e][i][a + N * (m + N * c)];
                        gz += tab.d[c * N + m] * su[e][i][own(m)];
                    }
                    gr[i][0] = gx;
                    gr[i][1] = gy;
                    gr[i][2] = gz;
                }
                const Real s = hab * tab.w[c];
                const Real tr = lam * (gr[0][0] + gr[1][1] + gr[2][2]);
                const int q = own(c);
                st[e][0][q] = s * (tr + two_mu * gr[0][0]);
                st[e][1][q] = s * (mu_e * (gr[0][1] + gr[1][0]));
                st[e][2][q] = s * (mu_e * (gr[0][2] + gr[2][0]));
                st[e][3][q] = s * (tr + two_mu * gr[1][1]);
                st[e][4][q] = s * (mu_e * (gr[1][2] + gr[2][1]));
                st[e][5][q] = s * (tr + two_mu * gr[2][2]);
            }
        }
        __syncthreads();
        // su is free now that the gradient is done: the next element's node planes are copied in
        // while the transposed product and the update run, without registers in flight. Its bottom
        // plane is this element's top one: undamped, su's own entry still holds it (the thread's
        // read completes before the copies are issued); damped, su holds w there, so it is copied
        // in from memory too.
        if (live && more) {
            constexpr int c_copied = Damped ? 0 : 1;
            if constexpr (!Damped) {
#pragma unroll
                for (int i = 0; i < 3; ++i) su[e][i][own(0)] = su[e][i][own(P)];
            }
#pragma unroll
            for (int i = 0; i < 3; ++i)
#pragma unroll
                for (int c = c_copied; c < N; ++c)
                    copy_async(&su[e][i][own(c)], u + i * nn + column + plane * (P * (k + 1) + c));
        }
        // The element's forces at its column's nodes; the top one is carried into the next element.
        Real own_f[3][N], dta[N], dtb[N];
#pragma unroll
        for (int m = 0; m < N; ++m) {
            dta[m] = sd[m * N + a];
            dtb[m] = sd[m * N + bb];
        }
#pragma unroll
        for (int c = 0; c < N; ++c)
#pragma unroll
            for (int i = 0; i < 3; ++i) {
                Real s{};
                if (solid_e) {
#pragma unroll
                    for (int m = 0; m < N; ++m) {
                        // t_i0 of component i is st[i]; t_i1 is st[1], st[3], st[4]; t_i2 is st[2],
                        // st[4], st[5].
                        s += dta[m] * st[e][i][m + N * (bb + N * c)];
                        s += dtb[m] * st[e][i == 0 ? 1 : i + 2][a + N * (m + N * c)];
                        s += tab.d[m * N + c] * st[e][i == 0 ? 2 : (i == 1 ? 4 : 5)][own(m)];
                    }
                }
                own_f[i][c] = c == 0 && k > k0 ? carry[i] + s : s;
            }
#pragma unroll
        for (int i = 0; i < 3; ++i) carry[i] = own_f[i][P];
        if (hands_on) {
#pragma unroll
            for (int i = 0; i < 3; ++i)
#pragma unroll
                for (int c = 0; c < N; ++c) sx[e][i][c][bb] = own_f[i][c];
        }
        // The nodes the element completes (its top plane only on the cell's last element), but
        // those it handed on. The loads their update needs (the partial forces, dt^2/m, u, u-) are
        // issued together before any store, a group of node planes at a time (kSweepUpdateGroups:
        // one group, or as few as the registers allow): the first group's before the barrier, so
        // that its wait overlaps them. u was read into su one element earlier, so its second read
        // here is mostly a cache hit.
        constexpr int kNone = -1, kGroups = kSweepUpdateGroups<P, Real, Update, Damped>,
                      kPerGroup = (N + kGroups - 1) / kGroups;
        const bool completes = live && !hands_on;
        int zc[N];
        unsigned role[N];  // the node's two role bits: 1 first, 2 last
        Real prior[3][N]{}, now[3][N]{}, before[3][N]{}, am[N]{};
#pragma unroll
        for (int grp = 0; grp < kGroups; ++grp) {
            const int c_begin = grp * kPerGroup, c_end = c_begin + kPerGroup < N ? c_begin + kPerGroup : N;
#pragma unroll
            for (int c = c_begin; c < c_end; ++c) {
                zc[c] = !completes || (c == P && more) ? kNone : P * (k - k0) + c;
                role[c] = roles >> (zc[c] == 0 ? 0 : (zc[c] == count ? 4 : 2)) & 3u;
                if (zc[c] == kNone) continue;
                const std::size_t node = column + plane * std::size_t(P * k + c);
#pragma unroll
                for (int i = 0; i < 3; ++i)
                    if (!(role[c] & 1u)) prior[i][c] = f[i * nn + node];
                if (Update && (role[c] & 2u)) {
                    am[c] = upd.dt2_inv_mass[node];
#pragma unroll
                    for (int i = 0; i < 3; ++i) {
                        now[i][c] = __ldg(u + i * nn + node);
                        before[i][c] = u_prev[i * nn + node];
                    }
                }
            }
            if (grp == 0) {
                __syncthreads();
                if (takes) {
#pragma unroll
                    for (int i = 0; i < 3; ++i)
#pragma unroll
                        for (int c = 0; c < N; ++c) own_f[i][c] += sx[e - 1][i][c][bb];
                }
            }
            // own_f becomes the complete force (prior's registers are free then); the sponge's
            // factors are asked for only now, the group's together: held with the loads above
            // they would cost registers at the kernel's peak, and runs without a sponge read none.
            Real ih[N], mh[N];
#pragma unroll
            for (int c = c_begin; c < c_end; ++c) {
#pragma unroll
                for (int i = 0; i < 3; ++i)
                    if (!(role[c] & 1u)) own_f[i][c] = prior[i][c] + own_f[i][c];
                const std::size_t node = column + plane * std::size_t(P * k + c);
                const bool sponge = Update && zc[c] != kNone && (role[c] & 2u) && upd.inv_one_plus_h;
                ih[c] = sponge ? upd.inv_one_plus_h[node] : upd.uniform_ih;
                mh[c] = sponge ? upd.one_minus_h[node] : upd.uniform_mh;
            }
#pragma unroll
            for (int c = c_begin; c < c_end; ++c) {
                if (zc[c] == kNone) continue;
                const std::size_t node = column + plane * std::size_t(P * k + c);
                if (!Update || !(role[c] & 2u)) {
#pragma unroll
                    for (int i = 0; i < 3; ++i) f[i * nn + node] = own_f[i][c];
                    continue;
                }
                const Real am_c = am[c], mh_c = mh[c], ih_c = ih[c];
#pragma unroll
                for (int i = 0; i < 3; ++i)
                    u_next[i * nn + node] =
                        central_difference_node(now[i][c], before[i][c], am_c * own_f[i][c], mh_c, ih_c);
            }
        }
    }
}

}  // namespace voxwave::sem_cuda
