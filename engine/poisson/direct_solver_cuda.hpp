// The three steps of eqs. 4-6 on the GPU: cuBLAS dense products for Pi^-1 and the C_i^-1
// (FP64; FP32; TF32 and FP16 on Tensor Cores, FP16 with FP32 accumulation) and small CSR
// kernels for B, B^T, D, D^T (FP32 accumulation for FP16 data). The matrices are uploaded
// once; right-hand sides are columns of one matrix (one or many). Many right-hand sides are
// stored node-major on the device (a node's K values contiguous): the C_i^-1 products become one
// strided batch over the macro cells and the sparse products read coalesced.
//
// No CUDA types here: CPU-only code includes it. Without CUDA every entry point throws
// InputError("", "backend", ...).
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>

#include "poisson/direct_solver.hpp"

namespace voxwave::poisson {

// Inverse of a dense SPD matrix in FP64 on the GPU (cuSOLVER potrf + potri). Throws
// RuntimeError when the matrix is not positive definite, InputError when it does not fit.
Eigen::MatrixXd cuda_spd_inverse(const Eigen::MatrixXd& spd);

class CudaPoissonSolver {
public:
    // Uploads the prehandled blocks in `precision` (converted from FP64 on the host).
    // Throws InputError("", "--level", ...) when they do not fit in the device's free memory.
    CudaPoissonSolver(const PrehandledPoisson& p, PoissonPrecision precision);
    ~CudaPoissonSolver();
    CudaPoissonSolver(const CudaPoissonSolver&) = delete;
    CudaPoissonSolver& operator=(const CudaPoissonSolver&) = delete;

    // x' for the prehandled right-hand sides (N x K, [C | E | I] rows), returned in FP64.
    Eigen::MatrixXd solve(const Eigen::MatrixXd& b_prehandled);
    // Median device time (CUDA events) of the three steps for the last solve()'s right-hand
    // sides, which stay on the device; after one warm-up.
    double median_solve_seconds(int repetitions);
    std::string device_name() const;
    std::size_t device_bytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace voxwave::poisson
