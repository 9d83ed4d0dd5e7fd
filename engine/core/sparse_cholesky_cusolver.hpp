// cuSOLVER's sparse Cholesky on the GPU (cusolverSpDcsrlsvchol, symrcm ordering): the GPU
// baseline of our direct solvers (IGA multi-frontal, prehandled Poisson).
#pragma once

#include <string>
#include <vector>

namespace voxwave {

// Solves A x = rhs for a symmetric positive definite A given in full CSR (both triangles,
// zero-based, columns sorted in each row). `seconds` gets the device time of the call
// (analysis, factorisation, solve; CUDA events), `device` the GPU's name. Throws
// InputError("", "backend", ...) without CUDA or a device, RuntimeError when cuSOLVER fails or
// finds A not positive definite.
std::vector<double> cusolver_sparse_cholesky_solve(int n, const std::vector<int>& row_ptr, const std::vector<int>& col,
                                                   const std::vector<double>& val, const std::vector<double>& rhs,
                                                   double* seconds = nullptr, std::string* device = nullptr);

}  // namespace voxwave
