// CPU element integration: the oracle every CUDA variant is tested against (docs/architecture.md#layers).
//
// Element matrices are row-major n x n with n = equations * nsh, dof = equations * shape + eq.
#pragma once

#include <vector>

#include "integration/element_batch.hpp"
#include "integration/problem_coefficients.hpp"
#include "integration/reference_tables.hpp"

namespace voxwave::integration {

// Seed 003's generic algorithm (loop over integration points outermost, per-pair integrals in
// registers / cache, contraction with C at the end), one element, in precision Real.
template <class Real>
void integrate_element_plain(const ReferenceTables& t, const ProblemCoefficients& c, const double* xv, Real* k);

// Sum factorisation for hexahedra (Melenk, Gerdes, Schwab; seed 001 Table 2): the map's
// coefficients are gathered at the tensor Gauss points and contracted one direction at a time,
// O(p^7) instead of O(p^9). Needs a hexahedral table.
template <class Real>
void integrate_element_sumfact(const ReferenceTables& t, const ProblemCoefficients& c, const double* xv, Real* k);

enum class CpuAlgorithm { Plain, SumFactorisation };

// All elements of the batch into k (count * n * n), on `threads` OpenMP threads (1 = one core).
template <class Real>
void integrate_batch_cpu(const ReferenceTables& t, const ProblemCoefficients& c, const ElementBatch& b,
                         CpuAlgorithm algorithm, int threads, std::vector<Real>& k);

// Jacobian terms of every element at every point: [(e * nq + q) * 10 + i] (element_kernels.hpp),
// what the "precomputed Jacobian" (seed 003's nojac) variants receive. Throws InputError for an
// inverted element.
template <class Real>
std::vector<Real> precompute_jacobian_terms(const ReferenceTables& t, const ElementBatch& b);

// The sum-factorised Q coefficients at each point: Q^{ie je}_{rs}(q), [((ie*ne+je)*16 + r*4+s) * nq + q].
void sumfact_coefficients(const ReferenceTables& t, const ProblemCoefficients& c, const double* xv, double* q);

}  // namespace voxwave::integration
