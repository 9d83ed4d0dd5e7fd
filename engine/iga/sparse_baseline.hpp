// The baseline the multi-frontal solver is measured against (issue 6): the same assembled
// matrix of the free unknowns, solved by a well-kept sparse direct solver. CHOLMOD (SuiteSparse,
// supernodal Cholesky with its own fill-reducing ordering) when the build found it, Eigen's
// SimplicialLLT (AMD ordering) otherwise (the GPU machine builds without SuiteSparse).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iga/iga_space.hpp"

namespace voxwave::iga {

// The lower triangle of the assembled free-unknown matrix in compressed columns (rows sorted),
// free index i + n (j - 1), and the right-hand side.
struct SparseSystem {
    std::int64_t size = 0;
    std::vector<std::int32_t> col_begin, row;
    std::vector<double> value, rhs;
    std::int64_t nonzeros() const noexcept { return static_cast<std::int64_t>(value.size()); }
};
SparseSystem assemble_sparse_system(const IgaSpace& s, const IgaLoad& load);

struct SparseTimings {
    double analyse_seconds = 0;  // ordering + symbolic factorisation
    double factor_seconds = 0;   // numeric factorisation
    double solve_seconds = 0;    // forward + backward substitution
};

// Name of the solver this build uses ("CHOLMOD 3.0.14 supernodal" or "Eigen SimplicialLLT").
std::string sparse_direct_solver_name();
// Returns all n^2 coefficients (Dirichlet values from load.dirichlet). Throws RuntimeError if
// the factorisation fails.
std::vector<double> sparse_direct_solve(const IgaSpace& s, const SparseSystem& sys, const IgaLoad& load,
                                        SparseTimings* timings = nullptr);

// The GPU baseline: cuSOLVER's sparse Cholesky (cusolverSpDcsrlsvchol, symrcm reordering) on the
// same matrix, uploaded once. `seconds` gets the device time of the call (analysis, factorisation
// and solve; device events), `device` the GPU's name. Throws InputError("", "backend", ...)
// without CUDA or a device, RuntimeError if cuSOLVER finds the matrix not positive definite.
std::vector<double> sparse_direct_solve_cusolver(const IgaSpace& s, const SparseSystem& sys, const IgaLoad& load,
                                                 double* seconds = nullptr, std::string* device = nullptr);

// Scatters a solution of the free unknowns into all n^2 coefficients.
std::vector<double> expand_free_solution(const IgaSpace& s, const double* free_x, const IgaLoad& load);

}  // namespace voxwave::iga
