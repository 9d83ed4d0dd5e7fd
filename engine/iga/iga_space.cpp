#include "iga/iga_space.hpp"

#include <cmath>

#include "iga/gauss_legendre.hpp"

namespace voxwave::iga {

namespace {
std::size_t sz(std::int64_t v) { return static_cast<std::size_t>(v); }
}  // namespace

IgaSpace make_iga_space(int degree, int elements) {
    const BSplineBasis1D basis(degree, elements);
    IgaSpace s;
    s.p = degree;
    s.N = elements;
    s.n = basis.size();
    s.nq = degree + 1;
    const int p1 = degree + 1, nq = s.nq;
    const GaussRule g = gauss_legendre_unit(nq);
    const double h = 1.0 / elements;
    s.xq.resize(sz(std::int64_t(elements) * nq));
    s.wq.resize(s.xq.size());
    s.val.resize(s.xq.size() * sz(p1));
    s.der.resize(s.val.size());
    s.k1.assign(sz(std::int64_t(elements) * p1 * p1), 0.0);
    s.m1.assign(s.k1.size(), 0.0);
    std::vector<double> d(sz(2 * p1));
    for (int e = 0; e < elements; ++e) {
        for (int q = 0; q < nq; ++q) {
            const std::size_t eq = sz(std::int64_t(e) * nq + q);
            const double x = (e + g.points[sz(q)]) * h;
            s.xq[eq] = x;
            s.wq[eq] = g.weights[sz(q)] * h;
            basis.evaluate(e + degree, x, 1, d.data());
            for (int a = 0; a < p1; ++a) {
                s.val[eq * sz(p1) + sz(a)] = d[sz(a)];
                s.der[eq * sz(p1) + sz(a)] = d[sz(p1 + a)];
            }
        }
        for (int a = 0; a < p1; ++a)
            for (int b = 0; b < p1; ++b) {
                double k = 0, m = 0;
                for (int q = 0; q < nq; ++q) {
                    const std::size_t eq = sz(std::int64_t(e) * nq + q);
                    k += s.wq[eq] * s.der[eq * sz(p1) + sz(a)] * s.der[eq * sz(p1) + sz(b)];
                    m += s.wq[eq] * s.val[eq * sz(p1) + sz(a)] * s.val[eq * sz(p1) + sz(b)];
                }
                s.k1[sz((std::int64_t(e) * p1 + a) * p1 + b)] = k;
                s.m1[sz((std::int64_t(e) * p1 + a) * p1 + b)] = m;
            }
    }
    return s;
}

std::vector<double> iga_element_matrix(const IgaSpace& s, int ex, int ey) {
    const int p1 = s.p + 1, ne = p1 * p1;
    const std::size_t bx = sz(std::int64_t(ex) * p1 * p1), by = sz(std::int64_t(ey) * p1 * p1);
    std::vector<double> k(sz(ne * ne));
    for (int a = 0; a < ne; ++a)
        for (int b = 0; b < ne; ++b)
            k[sz(a * ne + b)] = iga_element_stiffness(&s.k1[bx], &s.m1[bx], &s.k1[by], &s.m1[by], p1, a, b);
    return k;
}

IgaLoad iga_load(const IgaSpace& s, IgaProblemKind kind) {
    const int p1 = s.p + 1, nq = s.nq, n = s.n;
    IgaLoad load;
    load.rhs.assign(sz(s.dof_count()), 0.0);
    load.dirichlet.assign(load.rhs.size(), 0.0);
    for (int i = 0; i < n; ++i) {
        load.dirichlet[sz(s.dof(i, 0))] = iga_bottom_value(kind);
        load.dirichlet[sz(s.dof(i, n - 1))] = iga_top_value(kind);
    }
    if (kind != IgaProblemKind::Seed) {  // the seed problem has no source
        // Element rows ey and ey + 1 share dofs (j = ey .. ey + p), rows p + 1 apart do not:
        // p + 1 passes over every (p + 1)-th row keep the threads' writes disjoint.
        for (int first = 0; first < p1; ++first) {
#pragma omp parallel for schedule(static)
            for (int ey = first; ey < s.N; ey += p1)
                for (int ex = 0; ex < s.N; ++ex)
                    for (int qy = 0; qy < nq; ++qy)
                        for (int qx = 0; qx < nq; ++qx) {
                            const std::size_t ix = sz(std::int64_t(ex) * nq + qx), iy = sz(std::int64_t(ey) * nq + qy);
                            const double wf = s.wq[ix] * s.wq[iy] * iga_source(kind, s.xq[ix], s.xq[iy]);
                            for (int ay = 0; ay < p1; ++ay)
                                for (int ax = 0; ax < p1; ++ax)
                                    load.rhs[sz(s.dof(ex + ax, ey + ay))] +=
                                        wf * s.val[ix * sz(p1) + sz(ax)] * s.val[iy * sz(p1) + sz(ay)];
                        }
        }
    }
    // Lift: only the bottom and top element rows touch Dirichlet dofs.
    const int ne = p1 * p1;
    const std::vector<int> lifted_rows = s.N == 1 ? std::vector<int>{0} : std::vector<int>{0, s.N - 1};
    for (int ey : lifted_rows) {
        for (int ex = 0; ex < s.N; ++ex) {
            const std::vector<double> k = iga_element_matrix(s, ex, ey);
            for (int a = 0; a < ne; ++a) {
                const int ga = s.dof(ex + a % p1, ey + a / p1);
                if (s.is_dirichlet(ga)) continue;
                for (int b = 0; b < ne; ++b) {
                    const int gb = s.dof(ex + b % p1, ey + b / p1);
                    if (s.is_dirichlet(gb)) load.rhs[sz(ga)] -= k[sz(a * ne + b)] * load.dirichlet[sz(gb)];
                }
            }
        }
    }
    for (int i = 0; i < n; ++i) load.rhs[sz(s.dof(i, 0))] = load.rhs[sz(s.dof(i, n - 1))] = 0.0;
    return load;
}

double iga_evaluate(const IgaSpace& s, const std::vector<double>& c, double x1, double x2) {
    const BSplineBasis1D basis(s.p, s.N);
    const int p1 = s.p + 1, sx = basis.find_span(x1), sy = basis.find_span(x2);
    std::vector<double> vx(sz(p1)), vy(sz(p1));
    basis.evaluate(sx, x1, 0, vx.data());
    basis.evaluate(sy, x2, 0, vy.data());
    double u = 0;
    for (int b = 0; b < p1; ++b)
        for (int a = 0; a < p1; ++a) u += c[sz(s.dof(sx - s.p + a, sy - s.p + b))] * vx[sz(a)] * vy[sz(b)];
    return u;
}

double iga_l2_error(const IgaSpace& s, const std::vector<double>& c, IgaProblemKind kind) {
    const BSplineBasis1D basis(s.p, s.N);
    const int p1 = s.p + 1, nq = s.p + 3;
    const GaussRule g = gauss_legendre_unit(nq);
    const double h = 1.0 / s.N;
    // 1D tables at the finer rule, shared by all element rows.
    std::vector<double> x(sz(std::int64_t(s.N) * nq)), v(x.size() * sz(p1));
    for (int e = 0; e < s.N; ++e)
        for (int q = 0; q < nq; ++q) {
            const std::size_t eq = sz(std::int64_t(e) * nq + q);
            x[eq] = (e + g.points[sz(q)]) * h;
            basis.evaluate(e + s.p, x[eq], 0, &v[eq * sz(p1)]);
        }
    double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (int ey = 0; ey < s.N; ++ey)
        for (int ex = 0; ex < s.N; ++ex)
            for (int qy = 0; qy < nq; ++qy)
                for (int qx = 0; qx < nq; ++qx) {
                    const std::size_t ix = sz(std::int64_t(ex) * nq + qx), iy = sz(std::int64_t(ey) * nq + qy);
                    double u = 0;
                    for (int b = 0; b < p1; ++b)
                        for (int a = 0; a < p1; ++a)
                            u += c[sz(s.dof(ex + a, ey + b))] * v[ix * sz(p1) + sz(a)] * v[iy * sz(p1) + sz(b)];
                    const double e = u - iga_exact_solution(kind, x[ix], x[iy]);
                    sum += g.weights[sz(qx)] * g.weights[sz(qy)] * h * h * e * e;
                }
    return std::sqrt(sum);
}

}  // namespace voxwave::iga
