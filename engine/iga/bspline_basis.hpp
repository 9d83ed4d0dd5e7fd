// B-spline basis of degree p with maximal continuity C^(p-1) on an open uniform knot vector of
// [0,1] with E equal spans (seed 004): E + p functions; element e is the span [e/E, (e+1)/E] and
// carries the p + 1 functions e .. e + p.
#pragma once

#include <vector>

namespace voxwave::iga {

class BSplineBasis1D {
public:
    // Throws InputError("", "--degree" / "--elements", ...) for p < 1 or E < 1.
    BSplineBasis1D(int degree, int elements);

    int degree() const noexcept { return p_; }
    int elements() const noexcept { return elements_; }
    int size() const noexcept { return elements_ + p_; }
    const std::vector<double>& knots() const noexcept { return knots_; }

    // Knot span s (p <= s <= size()-1) with knots[s] <= x < knots[s+1]; x = 1 belongs to the last
    // non-empty span, x outside [0,1] throws InputError. Element index = span - p.
    int find_span(double x) const;

    // Values (row 0) and derivatives up to order `order` (rows 1..) of the p + 1 functions that
    // are non-zero in span `span` at x (Cox-de Boor, Piegl & Tiller A2.3):
    // out[k * (p + 1) + a] = d^k N_{span - p + a} / dx^k (x). out has (order + 1)(p + 1) entries.
    void evaluate(int span, double x, int order, double* out) const;

    // Value of the single function i at x (0 outside its support); for tests and plots.
    double value(int i, double x) const;

    // Greville abscissa of function i: the average of its p interior knots. A linear function
    // f is reproduced exactly by the coefficients f(greville(i)).
    double greville(int i) const;

private:
    int p_, elements_;
    std::vector<double> knots_;
};

}  // namespace voxwave::iga
