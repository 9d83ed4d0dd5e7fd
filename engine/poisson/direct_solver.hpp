// The three steps of seed 002 eqs. 4-6 on the prehandled system A' x = b:
//   x_E = Pi^-1 (b_E - B^T b_C - D C^-1 b_I),   x_C = b_C - B x_E,   x_I = C^-1 (b_I - D^T x_E)
// as dense products: Pi^-1 times a vector (or a matrix of right-hand sides), and each C_i^-1
// times the matrix whose columns are the right-hand sides of all macro cells of its class.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>

#include "poisson/prehandling.hpp"

namespace voxwave::poisson {

// fp64 | fp32 | tf32 | fp16: the format of the solver's matrices and vectors. tf32: FP32 data,
// products on TF32 Tensor Cores; fp16: FP16 data, products accumulated in FP32.
enum class PoissonPrecision { Fp64, Fp32, Tf32, Fp16 };
PoissonPrecision parse_poisson_precision(const std::string& name, const std::string& field = "--precision");
const char* poisson_precision_name(PoissonPrecision precision);

// Operations of one solve with one right-hand side, as seed 002 Table 3 counts them: the two
// products with C^-1, the product with Pi^-1, and B, B^T, D, D^T (vector additions neglected).
double direct_solve_flops(const PrehandledPoisson& p);

// Steps 4-6 on the CPU (Eigen) for the prehandled right-hand sides b' (N x K, [C | E | I]
// rows). Lower precisions are emulated exactly as the GPU stores them: every matrix and every
// intermediate vector is rounded to the format, products are accumulated in FP32 (tf32: the
// inputs of the dense products are rounded to TF32).
Eigen::MatrixXd solve_prehandled_cpu(const PrehandledPoisson& p, PoissonPrecision precision,
                                     const Eigen::MatrixXd& b_prehandled);

// The same solver with its matrices converted to the format once (for repeated, timed solves).
class CpuPoissonSolver {
public:
    CpuPoissonSolver(const PrehandledPoisson& p, PoissonPrecision precision);
    ~CpuPoissonSolver();
    CpuPoissonSolver(const CpuPoissonSolver&) = delete;
    CpuPoissonSolver& operator=(const CpuPoissonSolver&) = delete;
    Eigen::MatrixXd solve(const Eigen::MatrixXd& b_prehandled) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace voxwave::poisson
