// TCOVFEM element products on INT8 Tensor Cores (seed 000 §2.2-2.3, Figs. 2-4).
//
// Mapping: a warp takes 32 consecutive elements of one x-row (swept along a chunk of z planes,
// like the FP kernels) and computes, for every digit j of the INT64 expansion, the product
//     R_j (32 elements x 24 dofs) = D_j (32 x 48 digits, INT8) * A^T (48 x 24, INT8)
// with mma.sync.m16n8k32.s8: 2 m-tiles (elements) x 3 n-tiles (output dofs) x 2 k-blocks
// (48 input columns padded to 64). The constant A^T stays in registers (B fragments, loaded
// once per warp). The input columns are permuted so that lane (g, t) builds its own A
// fragments straight from registers: it reads nodes 2t, 2t+1 of elements g and g+8 and forms
// the kappa and G columns of those 6 dofs itself, so no shared memory is touched on the way
// in. The per-element scale exponent is agreed by the 4 lanes of a quad with two shuffles.
// On the way out each lane holds dofs {8 nt + 2t, 8 nt + 2t + 1} of its two elements and adds
// them straight to global memory (no shared-memory round trip, as in the paper).
// Digits are Horner-combined in INT64 (digits 4..M-1 -> hi, 0..3 -> lo) and rounded once:
// bit-identical to the CPU emulation in tcovfem_int8.hpp.
#include "core/cuda_check.cuh"
#include "wave/central_difference.hpp"
#include "wave/element_row_emit.cuh"
#include "wave/tcovfem_int8.hpp"
#include "wave/tcovfem_mma.cuh"
#include "wave/voxel_element_kernel.hpp"
#include "wave/wave_kernel_args.cuh"

namespace voxwave::cuda {
namespace {

// The 4 base-128 digits of a part (x < 2^28 in magnitude) one per byte: bits 0-6, 7-13, 14-20,
// 21-27 move to bytes 0-3. Digit `top` (0..3, or out of range) is the signed top digit of q_M:
// its byte takes bits 21-28 (x << 3), which is the digit in two's complement.
__device__ __forceinline__ std::uint32_t digits_as_bytes_with_top(int x, int top) {
    const std::uint32_t u = std::uint32_t(x);
    std::uint32_t y = (u & 0x7fu) | ((u << 1) & 0x7f00u) | ((u << 2) & 0x7f0000u);
    y |= top == 3 ? ((u << 3) & 0xff000000u) : ((u << 3) & 0x7f000000u);
    if (top >= 0 && top < 3) {  // M <= 3: the top digit is below byte 3
        const std::uint32_t shift = 8u * std::uint32_t(top);
        const std::uint32_t mask = 0xffu << shift;
        y = (y & ~mask) | ((std::uint32_t(x >> (7 * top)) & 0xffu) << shift);
    }
    return y;
}

// Lane slot s (0..11) of lane t -> logical column of ubar (0..47): slots 0..5 are the kappa
// part of dofs 6t..6t+5, slots 6..11 the G part of the same dofs.
__host__ __device__ __forceinline__ int slot_column(int t, int s) { return s < 6 ? 6 * t + s : 24 + 6 * t + (s - 6); }

// Products of one part (digits 4..7 or 0..3, `count` of them, most significant first) of the
// 2 elements x 12 slots held in y (one digit per byte): acc[6 r + o] = sum_j 128^j (A d_j) for
// element r and output o of this lane. Two digits are chained inside the INT32 accumulator of
// mma (c = 128 c + A d, < 2^26), then folded into the FP64 accumulator, which stays an exact
// integer (< 2^42 < 2^53).
__device__ __forceinline__ void digit_part_products(const std::uint32_t (&y)[2][12], int count,
                                                    const std::uint32_t (&bf)[3][2][2], double (&acc)[12]) {
#pragma unroll 1
    for (int idx = 0; idx < count; idx += 2) {
        int c[3][4] = {};
        const int pair = idx + 1 < count ? 2 : 1;
#pragma unroll 1
        for (int h = 0; h < pair; ++h) {
            const int k = count - 1 - (idx + h);  // byte of this digit within the part
            const std::uint32_t sel = std::uint32_t(k) | (std::uint32_t(4 + k) << 4);
            std::uint32_t a[2][3];
#pragma unroll
            for (int r = 0; r < 2; ++r)
#pragma unroll
                for (int w = 0; w < 3; ++w) {
                    const std::uint32_t lo2 = __byte_perm(y[r][4 * w], y[r][4 * w + 1], sel);
                    const std::uint32_t hi2 = __byte_perm(y[r][4 * w + 2], y[r][4 * w + 3], sel);
                    a[r][w] = __byte_perm(lo2, hi2, 0x5410);
                }
#pragma unroll
            for (int nt = 0; nt < 3; ++nt) {
                if (h == 1)
#pragma unroll
                    for (int i = 0; i < 4; ++i) c[nt][i] *= 128;
                // k-block 0: a0 = element row g slots 0..3, a1 = row g+8 slots 0..3, a2/a3 = slots 4..7;
                // k-block 1: slots 8..11 as one k = 16 product (its upper half would be padding).
                mma_s8(c[nt], a[0][0], a[1][0], a[0][1], a[1][1], bf[nt][0][0], bf[nt][0][1]);
                mma_s8_k16(c[nt], a[0][2], a[1][2], bf[nt][1][0]);
            }
        }
        const double scale = pair == 2 ? 16384.0 : 128.0;
#pragma unroll
        for (int nt = 0; nt < 3; ++nt) {
            // c0, c1: element row g, dofs 8nt+2t, +1; c2, c3: element row g+8.
            acc[2 * nt] = fma(acc[2 * nt], scale, double(c[nt][0]));
            acc[2 * nt + 1] = fma(acc[2 * nt + 1], scale, double(c[nt][1]));
            acc[6 + 2 * nt] = fma(acc[6 + 2 * nt], scale, double(c[nt][2]));
            acc[6 + 2 * nt + 1] = fma(acc[6 + 2 * nt + 1], scale, double(c[nt][3]));
        }
    }
}

template <bool Damped, bool Staged>
__global__ void __launch_bounds__(kStiffnessBlockThreads, 3) tcovfem_stiffness_kernel(TcovfemStiffnessArgs a) {
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2, t = lane & 3;
    const WarpRow w = warp_row(a.nx, a.ny, a.nz);
    if (!w.valid) return;
    const int seg = w.seg, j = w.j, k0 = w.k0, k1 = w.k1;
    const int M = a.stages;
    // Staged: the warp's 32 x 24 element forces pass through shared memory once so that each
    // lane holds its own element and the row emitter (shuffles, z carry, plain adds) applies.
    __shared__ double stage[Staged ? kStiffnessBlockThreads / 32 : 1][32][25];
    const int wib = Staged ? int(threadIdx.x >> 5) : 0;
    RowEmitter<double> emit;

    std::uint32_t bf[3][2][2];
    load_b_fragments(a.b_fragments, lane, bf);

    for (int k = k0; k < k1; ++k) {
#pragma unroll 1
        for (int mt = 0; mt < 2; ++mt) {
            // This lane's two elements (rows g and g + 8 of the m-tile).
            int elem_i[2];
            unsigned id[2];
            std::uint32_t y_lo[2][12], y_hi[2][12];
            int e[2];
#pragma unroll
            for (int r = 0; r < 2; ++r) {
                elem_i[r] = seg * kWarpElements + 16 * mt + g + 8 * r;
                id[r] = elem_i[r] < a.nx ? unsigned(__ldg(a.ids + std::size_t(elem_i[r]) +
                                                          std::size_t(a.nx) * (std::size_t(j) + std::size_t(a.ny) * k)))
                                         : 0u;
                double w[6] = {};
                if (id[r] != 0) {
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        int ca, cb, cc;
                        corner_of(2 * t + h, ca, cb, cc);
                        const std::size_t n = grid_node(a.nx, a.ny, elem_i[r] + ca, j + cb, k + cc);
#pragma unroll
                        for (int comp = 0; comp < 3; ++comp) {
                            const double v = __ldg(a.u[comp] + n);
                            w[3 * h + comp] = Damped ? damped_operand(v, __ldg(a.u_prev[comp] + n), a.keep, a.b) : v;
                        }
                    }
                }
                const double kf = id[r] ? __ldg(a.kappa_factor + id[r]) : 0.0;
                const double gf = id[r] ? __ldg(a.shear_factor + id[r]) : 0.0;
                std::uint32_t m = 0;
#pragma unroll
                for (int s = 0; s < 6; ++s) m = max(m, tcovfem_abs_high_word(w[s]));
                m = max(m, __shfl_xor_sync(0xffffffffu, m, 1));
                m = max(m, __shfl_xor_sync(0xffffffffu, m, 2));
                e[r] = tcovfem_element_exponent(m, fmax(kf, gf), M);
                const double sk = tcovfem_column_scale(kf, e[r], kTcovfemDigitBits * M);
                const double sg = tcovfem_column_scale(gf, e[r], kTcovfemDigitBits * M);
                // Base-128 digits laid out one per byte (base 256): y_lo holds digits 0..3, y_hi
                // digits 4..7, so the A fragment of digit j is three byte permutes per register.
#pragma unroll
                for (int s = 0; s < 12; ++s) {
                    const std::int64_t q = tcovfem_quantize(w[s % 6], s < 6 ? sk : sg, M);
                    const int lo = int(tcovfem_low_part(q, M)), hi = int(tcovfem_high_part(q, M));
                    const std::uint32_t wl = digits_as_bytes_with_top(lo, M - 1),
                                        wh = digits_as_bytes_with_top(hi, M - 5);
                    y_lo[r][s] = wl;
                    y_hi[r][s] = wh;
                }
            }

            double acc_hi[12] = {}, acc_lo[12] = {};
            digit_part_products(y_hi, M > 4 ? M - 4 : 0, bf, acc_hi);
            digit_part_products(y_lo, M > 4 ? 4 : M, bf, acc_lo);
#pragma unroll
            for (int r = 0; r < 2; ++r) {
#pragma unroll
                for (int o = 0; o < 6; ++o) {
                    const int dof = 8 * (o >> 1) + 2 * t + (o & 1);
                    // acc_* are exact integers (< 2^42): the same numbers as the CPU's INT64 sums.
                    const double y =
                        tcovfem_combine(std::int64_t(acc_hi[6 * r + o]), std::int64_t(acc_lo[6 * r + o]), e[r], M);
                    if (Staged) {
                        stage[wib][16 * mt + g + 8 * r][dof] = y;  // 0 for void and outside the row
                    } else if (id[r] != 0 && y != 0.0) {
                        // The paper's mapping: straight to global memory, one atomic per dof.
                        int ca, cb, cc;
                        corner_of(dof / 3, ca, cb, cc);
                        atomicAdd(a.f[dof % 3] + grid_node(a.nx, a.ny, elem_i[r] + ca, j + cb, k + cc), y);
                    }
                }
            }
        }
        if (Staged) {
            __syncwarp();
            double fe[24];
#pragma unroll
            for (int d = 0; d < 24; ++d) fe[d] = stage[wib][lane][d];
            __syncwarp();
            emit.plane(fe, lane, w, k, a.nx, a.ny, a.f);
        }
    }
    if (Staged) emit.finish(lane, w, a.nx, a.ny, a.f);
}

}  // namespace

void tcovfem_pack_b_fragments(std::uint32_t out[32 * 3 * 2 * 2], TcovfemOutputOrder order) {
    const TcovfemInt8Matrix A = build_tcovfem_int8_matrix();
    // Column n (0..23) of the product -> row of A.
    auto output_row = [&](int n) {
        if (order == TcovfemOutputOrder::Dofs) return n;
        const int nt = n / 8, tq = (n % 8) / 2, a = n % 2;
        return 3 * voxel_local_node(a, tq & 1, tq >> 1) + nt;
    };
    // B[p][n] (64 x 24) = A[n][column(p)]: physical k-column p -> (lane quad index t, slot s).
    auto b_entry = [&](int p, int n) -> int {
        const int kb = p / 32, within = p % 32, half = within / 16, t = (within % 16) / 4, i = within % 4;
        int s;
        if (kb == 0)
            s = half == 0 ? i : 4 + i;
        else if (half == 0)
            s = 8 + i;
        else
            return 0;  // padding columns 48..63
        // Input columns: the split kernels' dofs 6t..6t+5; the fused step's nodes (a, b, c) =
        // (0 or 1, t & 1, t >> 1), the order its conflict-free reads of w need.
        if (order == TcovfemOutputOrder::Dofs) return A.a[n][slot_column(t, s)];
        const int part = s / 6, slot = s % 6;
        return A.a[n][24 * part + 3 * voxel_local_node(slot / 3, t & 1, t >> 1) + slot % 3];
    };
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane >> 2, t = lane & 3;
        for (int nt = 0; nt < 3; ++nt)
            for (int kb = 0; kb < 2; ++kb)
                for (int r = 0; r < 2; ++r) {
                    std::uint32_t word = 0;
                    for (int i = 0; i < 4; ++i) {
                        const int p = kb * 32 + 16 * r + 4 * t + i;
                        word |= (std::uint32_t(b_entry(p, output_row(8 * nt + g))) & 0xffu) << (8 * i);
                    }
                    out[((lane * 3 + nt) * 2 + kb) * 2 + r] = word;
                }
    }
}

void launch_tcovfem_stiffness(const TcovfemStiffnessArgs& a, bool damped, bool staged, cudaStream_t stream) {
    {
        const std::size_t threads = row_grid_warps(a.nx, a.ny, a.nz) * 32;
        if (threads == 0) return;
        const unsigned blocks = unsigned((threads + kStiffnessBlockThreads - 1) / kStiffnessBlockThreads);
        auto* kernel = damped
                           ? (staged ? tcovfem_stiffness_kernel<true, true> : tcovfem_stiffness_kernel<true, false>)
                           : (staged ? tcovfem_stiffness_kernel<false, true> : tcovfem_stiffness_kernel<false, false>);
        kernel<<<blocks, kStiffnessBlockThreads, 0, stream>>>(a);
        VOXWAVE_CUDA_CHECK_LAUNCH("tcovfem_stiffness_kernel");
    }
}

}  // namespace voxwave::cuda
