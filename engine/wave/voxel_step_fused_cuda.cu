// The fused node-centred step of VFEM / OVFEM (fused_step.cuh says how the step is organised):
// each thread makes its own element's forces with the moment kernel, sums them along x with
// one shuffle (x_node_sums) and hands the row-(j + 1) partials to the next tile row.
//
// Measured on the H100 (2 mm paper model; cuda-bench.md, "the fused node-centred step"), step in us,
// FP64 / FP32:
//   all 8 corners loaded per thread through L1                                   155 / 112
//   own-node loads, node state in registers (FP64 spills: L2 87 % busy)           142 / 101
//   node state in shared memory, two barriers per plane                           141 /  86
//   butterfly back transform, one barrier per plane                                131 /  82
//   mode scales folded into lambda, mu                                            130 /  82
//   material ids one plane ahead, Lame constants in shared memory (this kernel)   114 /  77
// (the last one removed the long-scoreboard stalls on the dependent loads id -> lambda[id]).
// Launch shapes: 2 blocks per SM (FP64: 122 registers; 3 or 4 blocks spill and take
// 263-612 us; FP32 at 4 blocks per SM was no faster), 32 x 8 threads (32 x 16 was slower:
// 148 / 84), planes per block chosen to fill whole waves (wave_filling_planes).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/errors.hpp"
#include "wave/fused_step.cuh"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave::cuda {
namespace {

// The moment kernel's element plane: one element per thread, its forces in registers.
template <class Real, int TileY>
class MomentPlane {
public:
    struct Shared {
        Real lambda[256], mu[256];  // Lame constants by material id
    };
    static constexpr bool kDiagonal = false;
    static constexpr bool kLoadAfterForces = false;
    static constexpr bool kSwizzleW = false;
    // Memory-bound: merged columns would need balanced blocks, whose neighbours sweep different
    // planes (their halo loads then miss L2).
    static constexpr bool kMergeLastXTile = false;
    // The tile's last row only loads: at 2 mm (65 node rows) every warp computing took 95.6 us
    // a step in FP64 against 92.0 (fewer, fuller tiles do not pay where memory bounds the step);
    // at 1.2 mm it gained 5 % (bench/results/cuda-bench.md).
    static constexpr bool kEveryWarpComputes = false;
    // Each warp waits at the end of a plane for its two neighbours only (fused_plane_barrier):
    // FP64 -1.6 % at 2 mm, -1 % at 1.2 mm; FP32 +3.6 % at 2 mm, so FP32 keeps the block barrier
    // (A/B, bench/results/cuda-bench.md).
    static constexpr bool kNeighbourBarriers = sizeof(Real) == 8;
    static constexpr bool kHandoffRows = false;  // TCOVFEM only so far (it needs kEveryWarpComputes)

    __device__ MomentPlane(const FusedStepArgs<Real>& a, Shared& s, int tid, int threads) {
        for (int m = tid; m < 256; m += threads) {
            s.lambda[m] = __ldg(a.lambda + m);
            s.mu[m] = __ldg(a.mu + m);
        }
    }

    template <class Sh>
    __device__ __forceinline__ void forces(Sh& sh, const FusedStepArgs<Real>& a, int k, unsigned id, int tx, int ty) {
        Real fe[24];
        moment_element_forces(
            id, sh.plane.lambda[id], sh.plane.mu[id], a.s0, a.s1, a.s2,
            [&](Real(&ue)[24]) {
#pragma unroll
                for (int cc = 0; cc < 2; ++cc)
#pragma unroll
                    for (int q = 0; q < 4; ++q)
#pragma unroll
                        for (int c = 0; c < 3; ++c)
                            ue[3 * voxel_local_node(q & 1, q >> 1, cc) + c] =
                                sh.w[(k + cc) % 3][c][ty + (q >> 1)][tx + (q & 1)];
            },
            fe);
        Real row[2][2][3];  // [face][bb][component]: x sums done
        x_node_sums(fe, tx, row);
        // y: row j + 1 of this element is row j of the next tile row's element.
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                sh.pass[k & 1][cc][c][ty][tx] = row[cc][1][c];
                row0_[cc][c] = row[cc][0][c];
            }
    }

    template <class Sh>
    __device__ __forceinline__ void node_sums(Sh& sh, int k, int tx, int ty, Real (&node)[2][3]) const {
#pragma unroll
        for (int cc = 0; cc < 2; ++cc)
#pragma unroll
            for (int c = 0; c < 3; ++c)
                node[cc][c] = row0_[cc][c] + (ty > 0 ? sh.pass[k & 1][cc][c][ty - 1][tx] : Real(0));
    }

private:
    Real row0_[2][3];  // this row's x sums of both faces
};

}  // namespace

// The chunk count c that minimises
//     ceil(tiles c / resident blocks) x (ceil(nz / c) + 2),
// the number of waves of blocks times a block's planes (+ the plane below the chunk and the
// prologue's loads). Why: a partly filled last wave costs a whole one. On the H100 (2 mm
// model) FP32 took 99 us with 24 planes (1.5 waves) and 77 with 48 (1 full wave).
int wave_filling_planes(std::size_t tiles, int resident_blocks, int nz) {
    const std::size_t slots = std::size_t(std::max(1, resident_blocks));
    std::size_t best_cost = ~std::size_t(0);
    int best = nz;
    for (int planes = nz; planes >= 1; --planes) {  // ties go to longer chunks (less halo)
        const std::size_t chunks = std::size_t((nz + planes - 1) / planes);
        const std::size_t cost = (tiles * chunks + slots - 1) / slots * std::size_t(planes + 2);
        if (cost < best_cost) best_cost = cost, best = planes;
    }
    return best;
}

// The default shape (H100 sweeps, see the header comment), or the benchmark knobs; a bad knob
// is an error, not a silent default.
const FusedShape& fused_shape() {
    static const FusedShape shape = [] {
        FusedShape s;
        if (const char* t = std::getenv("VOXWAVE_FUSED_TILE"); t && *t) {
            if (std::strcmp(t, "8x1") == 0)
                s.min_blocks = 1;
            else if (std::strcmp(t, "8x2") == 0)
                s.min_blocks = 2;
            else if (std::strcmp(t, "8x3") == 0)
                s.min_blocks = 3;
            else if (std::strcmp(t, "8x4") == 0)
                s.min_blocks = 4;
            else if (std::strcmp(t, "16x1") == 0)
                s.tile_y = 16, s.min_blocks = 1;
            else if (std::strcmp(t, "16x2") == 0)
                s.tile_y = 16, s.min_blocks = 2;
            else
                throw InputError("", "VOXWAVE_FUSED_TILE",
                                 std::string("unknown tile '") + t + "' (8x1 | 8x2 | 8x3 | 8x4 | 16x1 | 16x2)");
        }
        // An on/off knob: unset leaves `out` at its default (-1), "0" or "1" sets it.
        auto flag = [](const char* name, int& out) {
            const char* v = std::getenv(name);
            if (!v || !*v) return;
            if (std::strcmp(v, "0") != 0 && std::strcmp(v, "1") != 0)
                throw InputError("", name, std::string("must be 0 or 1, not '") + v + "'");
            out = v[0] - '0';
        };
        flag("VOXWAVE_FUSED_PDL", s.pdl);
        flag("VOXWAVE_FUSED_MERGE", s.merge);
        if (const char* p = std::getenv("VOXWAVE_FUSED_PLANES"); p && *p) {
            if (std::strcmp(p, "balanced") == 0) {
                s.planes = -1;
            } else {
                const int v = std::atoi(p);
                if (v < 1 || v > 4096)
                    throw InputError("", "VOXWAVE_FUSED_PLANES",
                                     "must be 1..4096 or 'balanced' (unset: chunks that fill whole waves)");
                s.planes = v;
            }
        }
        return s;
    }();
    return shape;
}

template <class Real>
void launch_fused_step(const FusedStepArgs<Real>& a, bool damped, cudaStream_t stream) {
    launch_fused_plane<Real, true, MomentPlane>(a, damped, 2, stream);
}

template void launch_fused_step<double>(const FusedStepArgs<double>&, bool, cudaStream_t);
template void launch_fused_step<float>(const FusedStepArgs<float>&, bool, cudaStream_t);

}  // namespace voxwave::cuda
