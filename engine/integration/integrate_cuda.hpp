// CUDA element integration (issue 7): the variants of seeds 001 and 003 behind one call.
//
//   ai      one thread per element (seed 001 AI): shape pairs outer, integration points inner.
//   aii     one thread per integration point (seed 001 AII): a warp per element, its lanes take
//           the points, per-pair sums are reduced across the warp with shuffles.
//   reg     seed 003 "reg": one thread per (element, shape pair), the per-pair integrals in
//           registers, shape data from the read-only cache; no shared memory.
//   shm     seed 003 "shm": a block per (element, 32 x 32 tile of shape pairs); each batch of
//           integration points' physical derivatives is built once in shared memory and every
//           thread accumulates a 2 x 2 tile of pairs in registers.
//   sumfact sum factorisation for hexahedra, a block per element, stages in shared memory.
// Jacobian terms either arrive from the host (precomputed, seed 003 "nojac") or are computed on
// the device from the element's vertices (computed, "jac"); that work counts as kernel time.
//
// No CUDA types here, so CPU-only code can include it; without CUDA every call throws
// InputError("", "backend", ...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "integration/element_batch.hpp"
#include "integration/problem_coefficients.hpp"
#include "integration/reference_tables.hpp"

namespace voxwave::integration {

enum class Variant { Ai, Aii, Reg, Shm, SumFact };
enum class JacobianMode { Precomputed, Computed };

struct CudaIntegrationRequest {
    const ReferenceTables* tables = nullptr;
    const ProblemCoefficients* coefficients = nullptr;
    const ElementBatch* batch = nullptr;
    Variant variant = Variant::Shm;
    JacobianMode jacobian = JacobianMode::Precomputed;
    bool fp64 = false;
    int repetitions = 3;             // kernel launches per chunk; the median is kept
    std::int64_t keep_matrices = 1;  // element matrices returned (the first ones), as double
};

struct CudaIntegrationTiming {
    double init_s = 0;          // device allocations, reference tables and coefficients to the device
    double transfer_in_s = 0;   // element data (vertices or Jacobian terms, incl. host precomputation)
    double kernel_s = 0;        // sum over chunks of the median kernel time (CUDA events)
    double transfer_out_s = 0;  // element matrices back to the host
    int chunks = 0;
    std::string device;
    std::string sumfact_design;  // which sum-factorisation kernel ran and its layout (empty otherwise)
    double fp32_peak_gflops = 0, fp64_peak_gflops = 0;
};

// Integrates every element of the batch (in chunks that fit the device); returns the first
// keep_matrices element matrices (row-major n x n each) in `k`.
CudaIntegrationTiming integrate_batch_cuda(const CudaIntegrationRequest& r, std::vector<double>& k);

// Shared memory the sumfact kernel needs per block: the coefficient slice Q (nq), the stage
// arrays T1 ((p + 1)^2 n^2) and T2 (prefixes^2 n), the 1D tables (2 n (p + 1)) and the index
// tables (2 prefixes + 2 nsh ints).
inline std::size_t sumfact_shared_bytes(const ReferenceTables& t, bool fp64) {
    const std::size_t n = std::size_t(t.points_1d), pp = std::size_t(t.order + 1), npre = t.prefixes.size();
    return (std::size_t(t.nq) + pp * pp * n * n + npre * npre * n + 2 * n * pp) * (fp64 ? 8 : 4) +
           (2 * npre + 2 * std::size_t(t.nsh)) * sizeof(int);
}

}  // namespace voxwave::integration
