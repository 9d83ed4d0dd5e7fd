#include "integration/integrate_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <string>

#include "core/errors.hpp"
#include "integration/element_kernels.hpp"

namespace voxwave::integration {
namespace {

template <class Real>
struct RealTables {
    std::vector<Real> phi, geo, w;
    explicit RealTables(const ReferenceTables& t)
        : phi(t.phi.begin(), t.phi.end()), geo(t.geo.begin(), t.geo.end()), w(t.weights.begin(), t.weights.end()) {}
};

template <class Pairs, class Real>
void plain_element(const ReferenceTables& t, const RealTables<Real>& rt, const std::vector<Real>& cp, const double* xv,
                   std::vector<Real>& d, std::vector<Real>& m, Real* k) {
    constexpr int np = Pairs::pairs;
    const int nsh = t.nsh, nv = t.nv;
    Real x[8 * 3];
    for (int i = 0; i < nv * 3; ++i) x[i] = Real(xv[i]);
    d.assign(std::size_t(4) * nsh, Real(0));
    m.assign(std::size_t(np) * nsh * nsh, Real(0));
    for (int q = 0; q < t.nq; ++q) {
        Real jf[10];
        if (!(jacobian_terms(x, &rt.geo[std::size_t(q) * 4 * nv], nv, rt.w[q], jf) > 0))
            throw InputError("", "elements", "an element is inverted (det J <= 0)");
        const Real* ph = &rt.phi[std::size_t(q) * 4 * nsh];
        for (int a = 0; a < nsh; ++a) {
            Real g[4];
            physical_derivatives(ph, nsh, a, jf, g);
            for (int c = 0; c < 4; ++c) d[std::size_t(c) * nsh + a] = g[c];
        }
        for (int p = 0; p < np; ++p) {
            const Real* di = &d[std::size_t(Pairs::test_d(p)) * nsh];
            const Real* dj = &d[std::size_t(Pairs::trial_d(p)) * nsh];
            Real* mp = &m[std::size_t(p) * nsh * nsh];
            for (int a = 0; a < nsh; ++a) {
                const Real wa = jf[9] * di[a];
                Real* row = mp + std::size_t(a) * nsh;
                for (int b = 0; b < nsh; ++b) row[b] += wa * dj[b];
            }
        }
    }
    Real acc[np];
    for (int a = 0; a < nsh; ++a)
        for (int b = 0; b < nsh; ++b) {
            for (int p = 0; p < np; ++p) acc[p] = m[(std::size_t(p) * nsh + a) * nsh + b];
            store_block<Pairs>(acc, cp.data(), nsh, a, b, k);
        }
}

// Sum factorisation, stages 1 and 2 of one reference-derivative pair (r, s): contract the x
// and y directions of Q, adding into t2[(pa * npre + pb) * n + q3]. Direction c's test factor is
// N' when r == c + 1 (else N), its trial factor N' when s == c + 1.
void sumfact_xy_stages(const ReferenceTables& t, int r, int s, const double* q, std::vector<double>& t1,
                       std::vector<double>& t2) {
    const int n = t.points_1d, P = t.order + 1, npre = int(t.prefixes.size());
    const double* x0 = r == 1 ? t.dn1d.data() : t.n1d.data();
    const double* y0 = s == 1 ? t.dn1d.data() : t.n1d.data();
    const double* x1 = r == 2 ? t.dn1d.data() : t.n1d.data();
    const double* y1 = s == 2 ? t.dn1d.data() : t.n1d.data();
    t1.assign(std::size_t(P) * P * n * n, 0.0);
    for (int i1 = 0; i1 < P; ++i1)
        for (int i2 = 0; i2 < P; ++i2) {
            double* dst = &t1[(std::size_t(i1) * P + i2) * n * n];
            for (int q1 = 0; q1 < n; ++q1) {
                const double xy = x0[q1 * P + i1] * y0[q1 * P + i2];
                for (int q32 = 0; q32 < n * n; ++q32) dst[q32] += xy * q[q32 * n + q1];
            }
        }
    for (int pa = 0; pa < npre; ++pa)
        for (int pb = 0; pb < npre; ++pb) {
            const auto [i1, j1] = t.prefixes[pa];
            const auto [i2, j2] = t.prefixes[pb];
            const double* src = &t1[(std::size_t(i1) * P + i2) * n * n];
            double* dst = &t2[(std::size_t(pa) * npre + pb) * n];
            for (int q2 = 0; q2 < n; ++q2) {
                const double xy = x1[q2 * P + j1] * y1[q2 * P + j2];
                for (int q3 = 0; q3 < n; ++q3) dst[q3] += xy * src[q3 * n + q2];
            }
        }
}

// Stage 3 for one z pattern (test factor N' if zt, trial N' if zs): out[a][b] += z-contraction.
void sumfact_z_stage(const ReferenceTables& t, bool zt, bool zs, const std::vector<double>& t2, double* out) {
    const int n = t.points_1d, P = t.order + 1, nsh = t.nsh, npre = int(t.prefixes.size());
    const double* x2 = zt ? t.dn1d.data() : t.n1d.data();
    const double* y2 = zs ? t.dn1d.data() : t.n1d.data();
    for (int a = 0; a < nsh; ++a) {
        const int ka = t.modes[a][2], pa = t.prefix_of[a];
        for (int b = 0; b < nsh; ++b) {
            const int kb = t.modes[b][2];
            const double* src = &t2[(std::size_t(pa) * npre + t.prefix_of[b]) * n];
            double acc = 0;
            for (int q3 = 0; q3 < n; ++q3) acc += x2[q3 * P + ka] * y2[q3 * P + kb] * src[q3];
            out[std::size_t(a) * nsh + b] += acc;
        }
    }
}

}  // namespace

void sumfact_coefficients(const ReferenceTables& t, const ProblemCoefficients& c, const double* xv, double* q) {
    const int ne = c.equations, np = c.pairs();
    const std::vector<double> cp = c.packed();
    std::fill(q, q + std::size_t(ne) * ne * 16 * t.nq, 0.0);
    with_problem_pairs(c.problem, [&](auto pairs) {
        using Pairs = decltype(pairs);
        for (int iq = 0; iq < t.nq; ++iq) {
            double jf[10];
            if (!(jacobian_terms(xv, &t.geo[std::size_t(iq) * 4 * t.nv], t.nv, t.weights[iq], jf) > 0))
                throw InputError("", "elements", "an element is inverted (det J <= 0)");
            // tr[r][d]: reference derivative r's weight in physical derivative d (d, r = 0: value).
            double tr[4][4] = {{1, 0, 0, 0}};
            for (int r = 1; r < 4; ++r)
                for (int d = 1; d < 4; ++d) tr[r][d] = jf[(r - 1) * 3 + d - 1];
            for (int ie = 0; ie < ne; ++ie)
                for (int je = 0; je < ne; ++je)
                    for (int p = 0; p < np; ++p) {
                        const double w = jf[9] * cp[(ie * ne + je) * np + p];
                        if (w == 0) continue;
                        for (int r = 0; r < 4; ++r)
                            for (int s = 0; s < 4; ++s)
                                q[(std::size_t(ie * ne + je) * 16 + r * 4 + s) * t.nq + iq] +=
                                    w * tr[r][Pairs::test_d(p)] * tr[s][Pairs::trial_d(p)];
                    }
        }
    });
}

template <class Real>
void integrate_element_plain(const ReferenceTables& t, const ProblemCoefficients& c, const double* xv, Real* k) {
    const RealTables<Real> rt(t);
    const std::vector<double> cpd = c.packed();
    const std::vector<Real> cp(cpd.begin(), cpd.end());
    std::vector<Real> d, m;
    with_problem_pairs(c.problem, [&](auto pairs) { plain_element<decltype(pairs)>(t, rt, cp, xv, d, m, k); });
}

template <class Real>
void integrate_element_sumfact(const ReferenceTables& t, const ProblemCoefficients& c, const double* xv, Real* k) {
    if (t.type != ElementType::Hexahedron || t.modes.empty())
        throw InputError("", "--variant", "sum factorisation needs hexahedra (a tensor-product element)");
    const int ne = c.equations, nsh = t.nsh, n = t.points_1d, npre = int(t.prefixes.size());
    std::vector<double> q(std::size_t(ne) * ne * 16 * t.nq), t1, t2, s(std::size_t(nsh) * nsh);
    sumfact_coefficients(t, c, xv, q.data());
    const long nn = long(ne) * nsh;
    // Symmetric problems: block (je, ie) is the transpose of block (ie, je).
    for (int ie = 0; ie < ne; ++ie)
        for (int je = c.symmetric() ? ie : 0; je < ne; ++je) {
            std::fill(s.begin(), s.end(), 0.0);
            // Pairs (r, s) with the same z factors share stage 3: their stage-2 results add up first.
            for (int zp = 0; zp < 4; ++zp) {
                const bool zt = zp & 2, zs = zp & 1;
                t2.assign(std::size_t(npre) * npre * n, 0.0);
                bool any = false;
                for (int r = 0; r < 4; ++r)
                    for (int sd = 0; sd < 4; ++sd) {
                        if ((r == 3) != zt || (sd == 3) != zs) continue;
                        const double* qs = &q[(std::size_t(ie * ne + je) * 16 + r * 4 + sd) * t.nq];
                        if (std::all_of(qs, qs + t.nq, [](double v) { return v == 0; })) continue;
                        sumfact_xy_stages(t, r, sd, qs, t1, t2);
                        any = true;
                    }
                if (any) sumfact_z_stage(t, zt, zs, t2, s.data());
            }
            for (int a = 0; a < nsh; ++a)
                for (int b = 0; b < nsh; ++b) {
                    const Real v = Real(s[std::size_t(a) * nsh + b]);
                    k[(long(a) * ne + ie) * nn + long(b) * ne + je] = v;
                    if (c.symmetric()) k[(long(b) * ne + je) * nn + long(a) * ne + ie] = v;
                }
        }
}

template <class Real>
void integrate_batch_cpu(const ReferenceTables& t, const ProblemCoefficients& c, const ElementBatch& b,
                         CpuAlgorithm algorithm, int threads, std::vector<Real>& k) {
    const long n = long(c.equations) * t.nsh;
    k.assign(std::size_t(b.count) * n * n, Real(0));
    const RealTables<Real> rt(t);
    const std::vector<double> cpd = c.packed();
    const std::vector<Real> cp(cpd.begin(), cpd.end());
    std::string error;
#pragma omp parallel num_threads(std::max(1, threads))
    {
        std::vector<Real> d, m;
#pragma omp for schedule(dynamic, 4)
        for (std::int64_t e = 0; e < b.count; ++e) {
            try {
                Real* ke = &k[std::size_t(e) * n * n];
                if (algorithm == CpuAlgorithm::SumFactorisation)
                    integrate_element_sumfact(t, c, b.element(e), ke);
                else
                    with_problem_pairs(c.problem, [&](auto pairs) {
                        plain_element<decltype(pairs)>(t, rt, cp, b.element(e), d, m, ke);
                    });
            } catch (const std::exception& ex) {
#pragma omp critical
                error = ex.what();
            }
        }
    }
    if (!error.empty()) throw InputError("", "elements", error);
}

template <class Real>
std::vector<Real> precompute_jacobian_terms(const ReferenceTables& t, const ElementBatch& b) {
    std::vector<Real> out(std::size_t(b.count) * t.nq * 10);
#pragma omp parallel for schedule(static)
    for (std::int64_t e = 0; e < b.count; ++e)
        for (int q = 0; q < t.nq; ++q) {
            double jf[10];
            jacobian_terms(b.element(e), &t.geo[std::size_t(q) * 4 * t.nv], t.nv, t.weights[q], jf);
            for (int i = 0; i < 10; ++i) out[(std::size_t(e) * t.nq + q) * 10 + i] = Real(jf[i]);
        }
    return out;
}

#define VOXWAVE_INSTANTIATE(Real)                                                                                    \
    template void integrate_element_plain<Real>(const ReferenceTables&, const ProblemCoefficients&, const double*,   \
                                                Real*);                                                              \
    template void integrate_element_sumfact<Real>(const ReferenceTables&, const ProblemCoefficients&, const double*, \
                                                  Real*);                                                            \
    template void integrate_batch_cpu<Real>(const ReferenceTables&, const ProblemCoefficients&, const ElementBatch&, \
                                            CpuAlgorithm, int, std::vector<Real>&);                                  \
    template std::vector<Real> precompute_jacobian_terms<Real>(const ReferenceTables&, const ElementBatch&);
VOXWAVE_INSTANTIATE(float)
VOXWAVE_INSTANTIATE(double)
#undef VOXWAVE_INSTANTIATE

}  // namespace voxwave::integration
