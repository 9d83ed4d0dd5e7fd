// Partial Cholesky of one dense front, the CPU kernel of the multi-frontal solver.
#pragma once

namespace voxwave::iga {

// F is column-major m x (m + 1), [A | b] with A symmetric (both triangles stored). Eliminates the
// first k unknowns: afterwards rows 0..k-1 hold [L W y] (A11 = L L^T in the lower triangle,
// W = L^-1 A12, y = L^-1 b1) and the bottom-right block holds [S c] = [A22 b2] - W^T [W y] (both
// triangles of S). Blocked and right-looking; `threaded` runs the blocks of each step on
// OpenMP threads (for the few big fronts near the root: Eigen parallelises neither its
// Cholesky nor its triangular solves). Returns false if A11 is not positive definite.
bool partial_cholesky_front(double* F, int m, int k, bool threaded);

}  // namespace voxwave::iga
