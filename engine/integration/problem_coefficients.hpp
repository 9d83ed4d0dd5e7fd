// The problem-dependent part of seed 003's generic integration: the coefficient array
// C[i_e][j_e][i_d][j_d] (i_e, j_e: equations; i_d, j_d = 0 for the function, 1..3 for its
// x, y, z derivative; i_* for the test, j_* for the trial function), constant per element.
//
// Which (i_d, j_d) pairs can be non-zero is fixed per problem (seed 003's Algorithm 2: exploit
// the sparsity of C); kernels are instantiated per problem so those loops unroll.
#pragma once

#include <string>
#include <vector>

#include "core/host_device.hpp"

namespace voxwave::integration {

enum class Problem { Laplace, Elasticity, ConvectionDiffusion };

// Derivative pairs (i_d, j_d) a problem uses, usable in host and device code.
template <Problem P>
struct ProblemPairs;
template <>
struct ProblemPairs<Problem::Laplace> {
    static constexpr int equations = 1, pairs = 3;
    static constexpr VOXWAVE_HD int test_d(int p) { return p + 1; }
    static constexpr VOXWAVE_HD int trial_d(int p) { return p + 1; }
};
template <>
struct ProblemPairs<Problem::Elasticity> {
    static constexpr int equations = 3, pairs = 9;
    static constexpr VOXWAVE_HD int test_d(int p) { return p / 3 + 1; }
    static constexpr VOXWAVE_HD int trial_d(int p) { return p % 3 + 1; }
};
template <>
struct ProblemPairs<Problem::ConvectionDiffusion> {
    // (1,1), (2,2), (3,3) diffusion; (0,1), (0,2), (0,3) convection; (0,0) reaction.
    static constexpr int equations = 1, pairs = 7;
    static constexpr VOXWAVE_HD int test_d(int p) { return p < 3 ? p + 1 : 0; }
    static constexpr VOXWAVE_HD int trial_d(int p) { return p < 3 ? p + 1 : (p < 6 ? p - 2 : 0); }
};

// Calls f(ProblemPairs<P>{}) for the run-time problem p: the one place a problem becomes a type.
template <class F>
decltype(auto) with_problem_pairs(Problem p, F&& f) {
    switch (p) {
        case Problem::Laplace:
            return f(ProblemPairs<Problem::Laplace>{});
        case Problem::ConvectionDiffusion:
            return f(ProblemPairs<Problem::ConvectionDiffusion>{});
        case Problem::Elasticity:
            break;
    }
    return f(ProblemPairs<Problem::Elasticity>{});
}

struct ProblemCoefficients {
    Problem problem = Problem::Elasticity;
    int equations = 3;
    // Full array C[(((ie * 3 + je) * 4 + id) * 4 + jd], unused entries zero.
    std::vector<double> c = std::vector<double>(144, 0.0);
    double at(int ie, int je, int id, int jd) const { return c[((ie * 3 + je) * 4 + id) * 4 + jd]; }
    // Per problem pair: packed[(ie * equations + je) * pairs + p], what the kernels read.
    std::vector<double> packed() const;
    int pairs() const;
    bool symmetric() const { return problem != Problem::ConvectionDiffusion; }
};

// Isotropic linear elasticity: C_ikjl = lambda d_ik d_jl + mu (d_ij d_kl + d_il d_jk).
ProblemCoefficients elasticity_coefficients(double lambda, double mu);
// -div(kappa grad u): C[0][0][k][k] = kappa.
ProblemCoefficients laplace_coefficients(double kappa);
// -eps lap u + b . grad u + c u (weak form: eps grad u . grad v + (b . grad u) v + c u v).
ProblemCoefficients convection_diffusion_coefficients(double eps, const double b[3], double c);

Problem parse_problem(const std::string& s, const std::string& field);
const char* to_string(Problem p);

}  // namespace voxwave::integration
