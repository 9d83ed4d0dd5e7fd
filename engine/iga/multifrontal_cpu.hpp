// Numeric phase of the multi-frontal solver on the CPU (the oracle of the CUDA one).
//
// Each front is a dense column-major m x (m + 1) block [A | b] (the right-hand side rides along
// as an extra column, so one triangular solve and one update serve both). With k fully
// assembled unknowns first: A11 = L L^T (Cholesky: the matrix is SPD), [W y] = L^-1 [A12 b1],
// the Schur complement [S c] = [A22 b2] - W^T [W y] goes to the parent. Backward substitution
// from the root: x1 = L^-T (y - W x2).
#pragma once

#include <vector>

#include "core/progress.hpp"
#include "iga/multifrontal_tree.hpp"

namespace voxwave::iga {

struct MultifrontalTimings {
    double factor_seconds = 0;  // leaves + eliminations up the tree (forward)
    double solve_seconds = 0;   // backward substitution
    int threads = 1;
};

// Fills a leaf front (m x (m + 1), column-major, zeroed by the caller) from the 1D tables and
// the owner-assigned right-hand side (IgaLoad::rhs).
void fill_leaf_front(const IgaSpace& s, const FrontLevel& leaves, int leaf, const std::vector<double>& rhs,
                     double* front);

// Solves K x = F. `parallel`: OpenMP over the fronts of each level (and Eigen's threads inside
// the few big fronts near the root); otherwise one thread throughout. Returns all n^2
// coefficients, Dirichlet values included. Throws RuntimeError if a front is not positive
// definite; progress gets (level, levels) and may cancel.
std::vector<double> multifrontal_solve_cpu(const IgaSpace& s, const FrontTree& t, const IgaLoad& load, bool parallel,
                                           MultifrontalTimings* timings = nullptr, const ProgressFn& progress = {});

}  // namespace voxwave::iga
