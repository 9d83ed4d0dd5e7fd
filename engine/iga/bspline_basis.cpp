#include "iga/bspline_basis.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"

namespace voxwave::iga {

BSplineBasis1D::BSplineBasis1D(int degree, int elements) : p_(degree), elements_(elements) {
    if (degree < 1) throw InputError("", "--degree", "must be at least 1, got " + std::to_string(degree));
    if (elements < 1) throw InputError("", "--elements", "must be at least 1, got " + std::to_string(elements));
    knots_.assign(static_cast<std::size_t>(elements + 2 * p_ + 1), 0.0);
    for (int i = 0; i <= elements; ++i) knots_[static_cast<std::size_t>(p_ + i)] = double(i) / elements;
    for (int i = 0; i < p_; ++i) knots_[static_cast<std::size_t>(elements + p_ + 1 + i)] = 1.0;
}

int BSplineBasis1D::find_span(double x) const {
    if (!(x >= 0.0 && x <= 1.0)) throw InputError("", "x", "outside the parameter domain [0,1]");
    const int n = size();
    if (x >= knots_[static_cast<std::size_t>(n)]) return n - 1;
    // Uniform spans: the guess is exact up to rounding; the loops fix a knot hit from either side.
    int s = p_ + std::min(elements_ - 1, static_cast<int>(x * elements_));
    while (s > p_ && x < knots_[static_cast<std::size_t>(s)]) --s;
    while (s < n - 1 && x >= knots_[static_cast<std::size_t>(s + 1)]) ++s;
    return s;
}

void BSplineBasis1D::evaluate(int span, double x, int order, double* out) const {
    const int p = p_;
    const auto& U = knots_;
    // ndu: lower triangle holds knot differences, upper the basis of increasing degree.
    std::vector<double> ndu(static_cast<std::size_t>((p + 1) * (p + 1))), left(p + 1), right(p + 1);
    auto at = [&](int r, int c) -> double& { return ndu[static_cast<std::size_t>(r * (p + 1) + c)]; };
    at(0, 0) = 1.0;
    for (int j = 1; j <= p; ++j) {
        left[j] = x - U[static_cast<std::size_t>(span + 1 - j)];
        right[j] = U[static_cast<std::size_t>(span + j)] - x;
        double saved = 0.0;
        for (int r = 0; r < j; ++r) {
            at(j, r) = right[r + 1] + left[j - r];
            const double temp = at(r, j - 1) / at(j, r);
            at(r, j) = saved + right[r + 1] * temp;
            saved = left[j - r] * temp;
        }
        at(j, j) = saved;
    }
    for (int j = 0; j <= p; ++j) out[j] = at(j, p);
    const int nd = std::min(order, p);
    std::vector<double> a(static_cast<std::size_t>(2 * (p + 1)));
    auto A = [&](int s, int j) -> double& { return a[static_cast<std::size_t>(s * (p + 1) + j)]; };
    for (int r = 0; r <= p; ++r) {
        int s1 = 0, s2 = 1;
        A(0, 0) = 1.0;
        for (int k = 1; k <= nd; ++k) {
            double d = 0.0;
            const int rk = r - k, pk = p - k;
            if (r >= k) {
                A(s2, 0) = A(s1, 0) / at(pk + 1, rk);
                d = A(s2, 0) * at(rk, pk);
            }
            const int j1 = rk >= -1 ? 1 : -rk;
            const int j2 = (r - 1 <= pk) ? k - 1 : p - r;
            for (int j = j1; j <= j2; ++j) {
                A(s2, j) = (A(s1, j) - A(s1, j - 1)) / at(pk + 1, rk + j);
                d += A(s2, j) * at(rk + j, pk);
            }
            if (r <= pk) {
                A(s2, k) = -A(s1, k - 1) / at(pk + 1, r);
                d += A(s2, k) * at(r, pk);
            }
            out[k * (p + 1) + r] = d;
            std::swap(s1, s2);
        }
    }
    int factor = p;
    for (int k = 1; k <= nd; ++k) {
        for (int j = 0; j <= p; ++j) out[k * (p + 1) + j] *= factor;
        factor *= (p - k);
    }
    for (int k = nd + 1; k <= order; ++k)
        for (int j = 0; j <= p; ++j) out[k * (p + 1) + j] = 0.0;
}

double BSplineBasis1D::value(int i, double x) const {
    const int s = find_span(x);
    if (i < s - p_ || i > s) return 0.0;
    std::vector<double> v(static_cast<std::size_t>(p_ + 1));
    evaluate(s, x, 0, v.data());
    return v[static_cast<std::size_t>(i - (s - p_))];
}

double BSplineBasis1D::greville(int i) const {
    double sum = 0.0;
    for (int k = 1; k <= p_; ++k) sum += knots_[static_cast<std::size_t>(i + k)];
    return sum / p_;
}

}  // namespace voxwave::iga
