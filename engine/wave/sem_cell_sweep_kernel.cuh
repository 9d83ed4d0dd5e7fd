// The kernel of the column-sweep CUDA SEM step (sem_stepper_cuda.hpp states the design,
// sem_cell_schedule.hpp the schedule) and its argument structs, in a header of its own so that
// test_sem_cell_sweep_emulated.cpp can run this very kernel body on the CPU (a thread a CUDA
// thread, a barrier for __syncthreads) against the CPU stepper; sem_stepper_cuda.cu launches it.
#pragma once

#include <cstddef>

#include "core/host_device.hpp"
#include "model/voxel_grid.hpp"
#include "scene/run_rules.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_cell_schedule.hpp"
#include "wave/sem_element_kernel.hpp"

namespace voxwave::sem_cuda {

constexpr int kMaxN = kSemMaxOrder + 1;

// The GLL tables of the kernels: D (d[a * (P + 1) + m] = l_m'(xi_a)), the weights, and at order 4
// the even-odd factors of D ([0]) and of its transpose ([1]) that sem_line_product takes.
template <class Real>
struct SemTables {
    Real d[kMaxN * kMaxN];
    Real w[kMaxN];
    Real line_odd[2][4];      // [a * 2 + m] = (D(a, m) - D(a, 4 - m)) / 2, a, m = 0, 1
    Real line_even[2][4];     // [a * 2 + m] = (D(a, m) + D(a, 4 - m)) / 2
    Real line_mid_col[2][2];  // [a] = D(a, 2)
    Real line_mid_row[2][2];  // [m] = D(2, m)
};

// The tables of order gll.order, in Real.
template <class Real>
SemTables<Real> sem_tables(const GllTables& gll) {
    SemTables<Real> t{};
    const int n1 = gll.order + 1;
    for (int i = 0; i < n1 * n1; ++i) t.d[i] = static_cast<Real>(gll.d[i]);
    for (int i = 0; i < n1; ++i) t.w[i] = static_cast<Real>(gll.w[i]);
    if (gll.order == 4)
        for (int tr = 0; tr < 2; ++tr) {
            const auto D = [&](int a, int m) { return tr ? gll.d[m * 5 + a] : gll.d[a * 5 + m]; };
            for (int a = 0; a < 2; ++a) {
                for (int m = 0; m < 2; ++m) {
                    t.line_odd[tr][a * 2 + m] = static_cast<Real>(0.5 * (D(a, m) - D(a, 4 - m)));
                    t.line_even[tr][a * 2 + m] = static_cast<Real>(0.5 * (D(a, m) + D(a, 4 - m)));
                }
                t.line_mid_col[tr][a] = static_cast<Real>(D(a, 2));
                t.line_mid_row[tr][a] = static_cast<Real>(D(2, a));
            }
        }
    return t;
}

// out_a = sum_m D(a, m) in_m along a line of P + 1 GLL points (Transposed: D(m, a)). At order 4 in
// even-odd form: on GLL points D(P - a, P - m) = -D(a, m) (and so for D's transpose), so with
// o_m = in_m - in_{P-m}, e_m = in_m + in_{P-m} and c = in_2, out_a = O_a + E_a and out_{4-a} = O_a
// - E_a (O_a = sum_m odd(a, m) o_m, E_a = sum_m even(a, m) e_m + D(a, 2) c) and out_2 = sum_m D(2, m)
// o_m (D(2, 2) = 0): 20 floating-point operations instead of 25. At orders 2 and 3 the form saves
// one operation or none, so those take the plain sums.
template <int P, bool Transposed, class Real>
VOXWAVE_HD_INLINE void sem_line_product(const SemTables<Real>& tab, const Real (&in)[P + 1], Real (&out)[P + 1]) {
    if constexpr (P == 4) {
        constexpr int tr = Transposed ? 1 : 0;
        const Real e0 = in[0] + in[4], e1 = in[1] + in[3], o0 = in[0] - in[4], o1 = in[1] - in[3], c = in[2];
        VOXWAVE_UNROLL
        for (int a = 0; a < 2; ++a) {
            const Real odd = tab.line_odd[tr][a * 2] * o0 + tab.line_odd[tr][a * 2 + 1] * o1;
            const Real even =
                tab.line_even[tr][a * 2] * e0 + tab.line_even[tr][a * 2 + 1] * e1 + tab.line_mid_col[tr][a] * c;
            out[a] = odd + even;
            out[4 - a] = odd - even;
        }
        out[2] = tab.line_mid_row[tr][0] * o0 + tab.line_mid_row[tr][1] * o1;
    } else {
        constexpr int N = P + 1;
        VOXWAVE_UNROLL
        for (int a = 0; a < N; ++a) {
            Real acc{};
            VOXWAVE_UNROLL
            for (int m = 0; m < N; ++m) acc += (Transposed ? tab.d[m * N + a] : tab.d[a * N + m]) * in[m];
            out[a] = acc;
        }
    }
}

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
//   - u of the element's P + 1 node planes (the top one is the next element's bottom one, so u is
//     read once a node plane; the next element's planes and material are loaded while this one
//     computes), the damped operand w = (1 + b) u - b u_prev (Damped) or u, in registers for the
//     gradient; undamped, the thread's own entries of su (w = u) give u back for the update, so
//     that the column's registers are free from the gradient on;
//   - the gradient along z is a product with the column (registers), those along x and y read the
//     other columns' w from shared memory (su);
//   - of the weighted stresses, t_22 stays in registers, the five distinct values of t_i0 and t_i1
//     go through shared memory (st) for the transposed product along x and y, and t_02, t_12 of
//     the z direction are the thread's own entries of st;
//   - the force of the element's top node plane is carried in registers into the next element's
//     bottom plane, and the force of its a = P face is handed through shared memory (sx) to the
//     a = 0 thread of the next element of the row; the cell's nodes are then complete but for the
//     neighbouring cells' parts, which the colour roles sum through f (write / add / complete and
//     update u+ into u_next).
// D[c][m] and the weights of the z loop are compile-time indices into the kernel's parameter
// (constant) bank; the thread's rows of D for x and y (D[a][m], D[b][m] and the transposed
// D[m][a], D[m][b]) come from shared memory at the start of each half. The global loads an
// element's update needs (partial forces, dt^2/m, u-) are issued together, in one to three groups
// of node planes (kSweepUpdateGroups), the first before the element's last barrier: one memory
// latency a group is exposed, not one a node.
// A void element inside a cell computes nothing and adds zero to its nodes.
// The arithmetic and its order of summation are sem_point_stress's and sem_node_force's.
//
// Blocks an SM each sweep is compiled for (__launch_bounds__'s minimum) and the groups of node
// planes whose update loads are in flight together (see the kernel: all P + 1 at once, or in
// groups, one memory latency each): the most blocks whose register share (65536 / (128 threads x
// blocks)) the kernel fits without spilling, by nvcc -Xptxas -v on sm_90, with at most three
// groups, and those at p >= 3 only, whose elements have work enough to cover the extra latency.
// The kernel is latency-bound, so every resident warp counts. The damped sweep holds the column's
// u in registers (below) and stays at one group. Undamped FP64 fits 168 registers (three blocks
// instead of two) with 2 groups at p = 3 and 3 (of 2, 2, 1 node planes) at p = 4; FP32 at p = 4
// fits 96 (five instead of four) with 2 (the product alone, K u, keeps four).
template <int P, class Real, bool Update, bool Damped>
constexpr int kSweepBlocksPerSm = sizeof(Real) == 8 ? (P == 2 || !Damped ? 3 : 2)
                                                    : (P == 2 ? 5 : (Damped ? 3 : (P == 4 && Update ? 5 : 4)));

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

template <int P, class Real, bool Damped>
constexpr int kSweepUpdateGroups = Damped ? 1
                                          : (sizeof(Real) == 8 ? (P == 4 ? 3 : (P == 3 ? 2 : 1)) : (P == 4 ? 2 : 1));

template <int P, class Real, bool Update, bool Damped>
__global__ void __launch_bounds__(kCellsPerBlock<P>*(P + 1) * (P + 1), sweep_min_blocks<P, Real, Update, Damped>())
    sem_cell_sweep(const unsigned* __restrict cells, const unsigned char* __restrict cell_solid,
                   const unsigned char* __restrict ids, const Real* __restrict lambda, const Real* __restrict mu,
                   SemTables<Real> tab, GridShape g, SemCellGrid cg, Real half_ds, const Real* __restrict u,
                   const Real* __restrict u_prev, Real keep, Real b, Real* __restrict f, Real* __restrict u_next,
                   UpdateFactors<Real> upd) {
    constexpr int N = P + 1, NN = N * N, N3 = NN * N, E = kCellsPerBlock<P>;
    __shared__ Real su[E][3][N3];
    __shared__ Real st[E][5][N3];    // t_00, t_01, t_02, t_11, t_12 (t is symmetric)
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

    auto solid = [&](int i, int j, int k) {
        return cell_solid[std::size_t(i) + std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * k)] != 0;
    };
    SemNodeRole role_low{}, role_mid{}, role_top{};
    if (live) {
        const int x = P * e + a, x_count = P * row;
        role_low = sem_cell_node_role(P, cg, ic, cj, kc, x, x_count, bb, 0, count, solid);
        role_mid = sem_cell_node_role(P, cg, ic, cj, kc, x, x_count, bb, 1, count, solid);
        role_top = sem_cell_node_role(P, cg, ic, cj, kc, x, x_count, bb, count, count, solid);
    }

    // The material of element plane k of the thread's element (void past the row's end).
    auto element_id = [&](int k) {
        return live ? ids[std::size_t(ci) + std::size_t(g.ex) * (std::size_t(cj) + std::size_t(g.ey) * k)] : kVoidId;
    };
    Real col[3][N], nxt[3][P]{}, carry[3] = {Real(0), Real(0), Real(0)};
#pragma unroll
    for (int i = 0; i < 3; ++i)
#pragma unroll
        for (int c = 0; c < N; ++c) col[i][c] = live ? __ldg(u + i * nn + column + plane * (P * k0 + c)) : Real(0);
    unsigned char id_next = element_id(k0);

    for (int k = k0; k < k1; ++k) {
        const bool more = k + 1 < k1;
        // The element's material was loaded with the previous element's planes: its Lame
        // parameters (a cached 256-entry table) are asked for now and arrive during the stores
        // and the barrier below, not after them.
        const unsigned char id = id_next;
        const bool solid_e = id != kVoidId;
        const Real lam = solid_e ? __ldg(lambda + id) : Real(0), mu_e = solid_e ? __ldg(mu + id) : Real(0);
        if (live && more) id_next = element_id(k + 1);
        // u- of the column: damped, the operand needs it here and the update reuses it.
        Real w[3][N], before[3][N]{};
#pragma unroll
        for (int i = 0; i < 3; ++i)
#pragma unroll
            for (int c = 0; c < N; ++c) {
                if (Damped && live) before[i][c] = __ldg(u_prev + i * nn + column + plane * (P * k + c));
                w[i][c] = Damped && solid_e ? damped_operand(col[i][c], before[i][c], keep, b) : col[i][c];
                su[e][i][a + N * (bb + N * c)] = w[i][c];
            }
        // Undamped, su holds the column's u (w = u) until this thread overwrites it with the next
        // element's: the update below and the carry into the next element read u from there, so
        // that the column's registers are free after the gradient (3 (P + 1) values fewer held
        // through the transposed product and the update's loads). A void element stores its u too.
        auto u_at = [&](int i, int c) {
            if constexpr (Damped)
                return col[i][c];
            else
                return su[e][i][a + N * (bb + N * c)];
        };
        __syncthreads();
        Real szz[N];  // t_22; t_02 and t_12 are the thread's own entries of st[2] and st[4]
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
                        gz += tab.d[c * N + m] * w[i][m];
                    }
                    gr[i][0] = gx;
                    gr[i][1] = gy;
                    gr[i][2] = gz;
                }
                const Real s = hab * tab.w[c];
                const Real tr = lam * (gr[0][0] + gr[1][1] + gr[2][2]);
                const int q = a + N * (bb + N * c);
                st[e][0][q] = s * (tr + two_mu * gr[0][0]);
                st[e][1][q] = s * (mu_e * (gr[0][1] + gr[1][0]));
                st[e][2][q] = s * (mu_e * (gr[0][2] + gr[2][0]));
                st[e][3][q] = s * (tr + two_mu * gr[1][1]);
                st[e][4][q] = s * (mu_e * (gr[1][2] + gr[2][1]));
                szz[c] = s * (tr + two_mu * gr[2][2]);
            }
        }
        __syncthreads();
        // The next element's upper P node planes, asked for now that the gradient (whose
        // registers they would add to) is done; the transposed product and the update hide them.
        if (live && more) {
#pragma unroll
            for (int i = 0; i < 3; ++i)
#pragma unroll
                for (int c = 1; c < N; ++c) nxt[i][c - 1] = __ldg(u + i * nn + column + plane * (P * (k + 1) + c));
        }
        // The element's forces at its column's nodes; the top one is carried into the next element.
        Real own[3][N], dta[N], dtb[N];
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
                        // st[4], szz.
                        s += dta[m] * st[e][i][m + N * (bb + N * c)];
                        s += dtb[m] * st[e][i == 0 ? 1 : i + 2][a + N * (m + N * c)];
                        s += tab.d[m * N + c] * (i == 2 ? szz[m] : st[e][i == 0 ? 2 : 4][a + N * (bb + N * m)]);
                    }
                }
                own[i][c] = c == 0 && k > k0 ? carry[i] + s : s;
            }
#pragma unroll
        for (int i = 0; i < 3; ++i) carry[i] = own[i][P];
        if (hands_on) {
#pragma unroll
            for (int i = 0; i < 3; ++i)
#pragma unroll
                for (int c = 0; c < N; ++c) sx[e][i][c][bb] = own[i][c];
        }
        // The nodes the element completes (its top plane only on the cell's last element), but
        // those it handed on. The loads their update needs (the partial forces, dt^2/m, u-) are
        // issued together before any store, a group of node planes at a time (kSweepUpdateGroups:
        // one group, or as few as the registers allow): the first group's before the barrier, so
        // that its wait overlaps them.
        constexpr int kNone = -1, kGroups = kSweepUpdateGroups<P, Real, Damped>,
                      kPerGroup = (N + kGroups - 1) / kGroups;
        const bool completes = live && !hands_on;
        int zc[N];
        SemNodeRole role[N];
        Real prior[3][N]{}, am[N]{};
#pragma unroll
        for (int grp = 0; grp < kGroups; ++grp) {
            const int c_begin = grp * kPerGroup, c_end = c_begin + kPerGroup < N ? c_begin + kPerGroup : N;
#pragma unroll
            for (int c = c_begin; c < c_end; ++c) {
                zc[c] = !completes || (c == P && more) ? kNone : P * (k - k0) + c;
                role[c] = zc[c] == 0 ? role_low : (zc[c] == count ? role_top : role_mid);
                if (zc[c] == kNone) continue;
                const std::size_t node = column + plane * std::size_t(P * k + c);
#pragma unroll
                for (int i = 0; i < 3; ++i)
                    if (!role[c].first) prior[i][c] = f[i * nn + node];
                if (Update && role[c].last) {
                    am[c] = upd.dt2_inv_mass[node];
#pragma unroll
                    for (int i = 0; i < 3; ++i)
                        if (!Damped) before[i][c] = u_prev[i * nn + node];
                }
            }
            if (grp == 0) {
                __syncthreads();
                if (takes) {
#pragma unroll
                    for (int i = 0; i < 3; ++i)
#pragma unroll
                        for (int c = 0; c < N; ++c) own[i][c] += sx[e - 1][i][c][bb];
                }
            }
            // own becomes the complete force (prior's registers are free then); the sponge's
            // factors are asked for only now, the group's together: held with the loads above
            // they would cost registers at the kernel's peak, and runs without a sponge read none.
            Real ih[N], mh[N];
#pragma unroll
            for (int c = c_begin; c < c_end; ++c) {
#pragma unroll
                for (int i = 0; i < 3; ++i)
                    if (!role[c].first) own[i][c] = prior[i][c] + own[i][c];
                const std::size_t node = column + plane * std::size_t(P * k + c);
                const bool sponge = Update && zc[c] != kNone && role[c].last && upd.inv_one_plus_h;
                ih[c] = sponge ? upd.inv_one_plus_h[node] : upd.uniform_ih;
                mh[c] = sponge ? upd.one_minus_h[node] : upd.uniform_mh;
            }
#pragma unroll
            for (int c = c_begin; c < c_end; ++c) {
                if (zc[c] == kNone) continue;
                const std::size_t node = column + plane * std::size_t(P * k + c);
                if (!Update || !role[c].last) {
#pragma unroll
                    for (int i = 0; i < 3; ++i) f[i * nn + node] = own[i][c];
                    continue;
                }
                const Real am_c = am[c], mh_c = mh[c], ih_c = ih[c];
#pragma unroll
                for (int i = 0; i < 3; ++i)
                    u_next[i * nn + node] =
                        central_difference_node(u_at(i, c), before[i][c], am_c * own[i][c], mh_c, ih_c);
            }
        }
#pragma unroll
        for (int i = 0; i < 3; ++i) {
            col[i][0] = u_at(i, P);
#pragma unroll
            for (int c = 1; c < N; ++c) col[i][c] = nxt[i][c - 1];
        }
    }
}

}  // namespace voxwave::sem_cuda
