// The plain-data argument blocks and launch entry points of the wave engine's kernels (no Qt,
// no VTK, no STL in device code), shared by its CUDA translation units.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace voxwave::cuda {

// Element rows of 32 elements along x go to one warp, which sweeps a chunk of z planes.
inline constexpr int kWarpElements = 32;
inline constexpr int kPlanesPerChunk = 16;
inline constexpr int kStiffnessBlockThreads = 128;

template <class Real>
struct MomentStiffnessArgs {
    int nx, ny, nz;
    const std::uint8_t* ids;  // element material ids, x fastest
    const Real* lambda;       // [256] by material id (0 for void)
    const Real* mu;           // [256]
    Real s0, s1, s2;          // mode scales (VFEM or OVFEM)
    const Real* u[3];         // SoA displacement
    const Real* u_prev[3];    // for stiffness-proportional damping (used when damped)
    Real keep, b;             // w = keep u - b u_prev, keep = 1 + b
    Real* f[3];               // accumulated with atomics; must be zero on entry
};

// One whole time step of VFEM / OVFEM in one kernel (voxel_step_fused_cuda.cu): the element
// forces, their sum at each node, and the central-difference update of that node.
template <class Real>
struct FusedStepArgs {
    int nx, ny, nz;
    const std::uint8_t* ids;
    const Real* lambda;  // [256]
    const Real* mu;      // [256]
    Real s0, s1, s2;     // mode scales
    const Real* u[3];    // u^n
    const Real* um[3];   // u^{n-1}
    Real* up[3];         // u^{n+1} out (a third buffer: neighbours still read u^{n-1})
    const Real* a;       // dt^2 / m
    const Real* ih;      // 1 / (1 + h) per node, or null (uniform ih0)
    const Real* mh;      // 1 - h per node, or null (uniform mh0)
    Real ih0, mh0;
    Real keep, b;  // K is applied to w = keep u - b u^{n-1} (stiffness-proportional damping)
    int planes;    // element planes a chunk sweeps: 0 fill whole waves, -1 balanced blocks (launch_fused_shape)
    // Point sources and receivers of this step, when few (fused_points.hpp; the engine's point
    // kernel otherwise): after its sweep, each block adds src_scale force to u^{n+1} at the
    // sources among the nodes it updated and copies u^n at such receivers (fused_points in
    // fused_step.cuh). 0: none.
    int nsrc, nrec;
    const long long* src_node;
    const Real* src_scale;  // dt^2/m / (1 + h) at the source node
    const Real* src_force;  // [nsrc * 3] force * wavelet(t_n)
    const long long* rec_node;
    double* rec_out;  // [nrec * 3]
    // TCOVFEM only (Real = double):
    int stages;                        // M
    const double* kappa_factor;        // [256] kappa ds / 256
    const double* shear_factor;        // [256] G ds / 384
    const std::uint32_t* b_fragments;  // tcovfem_pack_b_fragments(.., TcovfemOutputOrder::FaceRows)
    const Real* diag;                  // the FP64 diagonal per node
    // The fused step's row handoff between y tiles (fused_step.cuh, Plane::kHandoffRows: TCOVFEM):
    // fused_handoff_words(nx, ny, nz) words, a ticket counter at 0 before the first step, and a
    // step tag that differs from every earlier step's (never 0).
    unsigned long long* handoff;
    std::size_t handoff_words;
    unsigned* tickets;
    unsigned tag;
    // A window of an overlapped step (time_stepper_cuda.cu): the arrays above are a view of a run
    // of element planes of the model (nz of them), of whose node planes this launch does not write
    // the first skip_lo and the last skip_hi (their elements are not all in the view); node_offset
    // is the view's first node in the numbering of src_node and rec_node. All 0: the whole model.
    int skip_lo, skip_hi;
    long long node_offset;
};

struct TcovfemStiffnessArgs {
    int nx, ny, nz, stages;
    const std::uint8_t* ids;
    const double* kappa_factor;        // [256] kappa ds / 256
    const double* shear_factor;        // [256] G ds / 384
    const std::uint32_t* b_fragments;  // [32 lanes][3 n-tiles][2 k-blocks][2 registers]
    const double* u[3];
    const double* u_prev[3];
    double keep, b;
    double* f[3];
};

template <class Real>
void launch_moment_stiffness(const MomentStiffnessArgs<Real>& a, bool damped, cudaStream_t stream);
// The fused step's launch shape: 32 x 8 threads, 2 blocks per SM, planes per block chosen to
// fill whole waves. Benchmark knobs (read once): VOXWAVE_FUSED_TILE = 8x1 | 8x2 | 8x3 | 8x4 |
// 16x1 | 16x2 (tile rows x blocks per SM the registers are sized for), VOXWAVE_FUSED_PLANES =
// element planes per block, or "balanced" (one wave of persistent blocks, equal column-planes);
// VOXWAVE_FUSED_PDL and VOXWAVE_FUSED_MERGE (FusedShape in fused_step.cuh).
template <class Real>
void launch_fused_step(const FusedStepArgs<Real>& a, bool damped, cudaStream_t stream);
// TCOVFEM's fused step (tcovfem_step_fused_cuda.cu): the same node-centred sweep with the element
// plane's forces from INT8 Tensor Cores. Launch shape: 32 x 8 threads, VOXWAVE_FUSED_TILE = 8x1 |
// 8x2 (blocks per SM), VOXWAVE_FUSED_PLANES as above.
void launch_tcovfem_fused_step(const FusedStepArgs<double>& a, bool damped, cudaStream_t stream);
// The words of TCOVFEM's fused-step row handoff (FusedStepArgs::handoff) for an nx x ny x nz model.
std::size_t fused_handoff_words(int nx, int ny, int nz);
// staged = true: element forces pass through shared memory to the row emitter (plain adds);
// false: the paper's mapping, each lane adds its Tensor Core outputs to global memory with atomics.
void launch_tcovfem_stiffness(const TcovfemStiffnessArgs& a, bool damped, bool staged, cudaStream_t stream);
// Which output (row of A) each column n = 8 nt + g' of the Tensor Core product is.
enum class TcovfemOutputOrder {
    Dofs,      // n = dof (the split kernels: lane t gets dofs 8 nt + 2t, + 1)
    FaceRows,  // the fused step: lane t gets component nt of nodes (a = 0, 1; b = t & 1; c = t >> 1),
               // and its input slots are the same nodes (the split kernels: dofs 6t..6t+5)
};
// Packs A = [256 K_kappa/ds | 384 K_G/ds - 245 I] into the per-lane B fragments of
// mma.m16n8k32 (s8), with the column permutation the kernels' lanes use.
void tcovfem_pack_b_fragments(std::uint32_t out[32 * 3 * 2 * 2], TcovfemOutputOrder order = TcovfemOutputOrder::Dofs);

}  // namespace voxwave::cuda
