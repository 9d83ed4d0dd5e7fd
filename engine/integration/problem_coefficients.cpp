#include "integration/problem_coefficients.hpp"

#include "core/errors.hpp"

namespace voxwave::integration {
namespace {
template <class T>
std::vector<double> pack(const ProblemCoefficients& k) {
    std::vector<double> out(std::size_t(T::equations * T::equations * T::pairs));
    for (int ie = 0; ie < T::equations; ++ie)
        for (int je = 0; je < T::equations; ++je)
            for (int p = 0; p < T::pairs; ++p)
                out[(ie * T::equations + je) * T::pairs + p] = k.at(ie, je, T::test_d(p), T::trial_d(p));
    return out;
}
double& entry(ProblemCoefficients& k, int ie, int je, int id, int jd) { return k.c[((ie * 3 + je) * 4 + id) * 4 + jd]; }
}  // namespace

std::vector<double> ProblemCoefficients::packed() const {
    return with_problem_pairs(problem, [&](auto pairs) { return pack<decltype(pairs)>(*this); });
}

int ProblemCoefficients::pairs() const {
    return with_problem_pairs(problem, [](auto pairs) { return decltype(pairs)::pairs; });
}

ProblemCoefficients elasticity_coefficients(double lambda, double mu) {
    ProblemCoefficients k;
    k.problem = Problem::Elasticity;
    k.equations = 3;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                    entry(k, i, j, a + 1, b + 1) =
                        lambda * (i == a) * (j == b) + mu * ((i == j) * (a == b) + (i == b) * (a == j));
    return k;
}

ProblemCoefficients laplace_coefficients(double kappa) {
    ProblemCoefficients k;
    k.problem = Problem::Laplace;
    k.equations = 1;
    for (int d = 1; d <= 3; ++d) entry(k, 0, 0, d, d) = kappa;
    return k;
}

ProblemCoefficients convection_diffusion_coefficients(double eps, const double b[3], double c) {
    ProblemCoefficients k;
    k.problem = Problem::ConvectionDiffusion;
    k.equations = 1;
    for (int d = 1; d <= 3; ++d) {
        entry(k, 0, 0, d, d) = eps;
        entry(k, 0, 0, 0, d) = b[d - 1];
    }
    entry(k, 0, 0, 0, 0) = c;
    return k;
}

Problem parse_problem(const std::string& s, const std::string& field) {
    if (s == "laplace") return Problem::Laplace;
    if (s == "elasticity") return Problem::Elasticity;
    if (s == "convdiff" || s == "convection-diffusion") return Problem::ConvectionDiffusion;
    throw InputError("", field, "unknown problem '" + s + "' (laplace, elasticity, convdiff)");
}

const char* to_string(Problem p) {
    switch (p) {
        case Problem::Laplace:
            return "laplace";
        case Problem::Elasticity:
            return "elasticity";
        case Problem::ConvectionDiffusion:
            return "convdiff";
    }
    return "?";
}

}  // namespace voxwave::integration
