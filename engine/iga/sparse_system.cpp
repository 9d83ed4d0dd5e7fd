#include "iga/sparse_baseline.hpp"

namespace voxwave::iga {

namespace {
std::size_t sz(std::int64_t v) { return static_cast<std::size_t>(v); }
}  // namespace

SparseSystem assemble_sparse_system(const IgaSpace& s, const IgaLoad& load) {
    const int p = s.p, p1 = p + 1, n = s.n, band = 2 * p + 1, slots = band * band, ne = p1 * p1;
    const std::int64_t nf = s.free_count();
    // Column c = (i, j) couples with rows (i + di, j + dj), |di|, |dj| <= p: fixed slots per
    // column, filled element by element, then compressed to the lower triangle.
    std::vector<double> dense(sz(nf * slots), 0.0);
    for (int first = 0; first < p1; ++first) {  // element rows p + 1 apart write disjoint columns
#pragma omp parallel for schedule(static)
        for (int ey = first; ey < s.N; ey += p1)
            for (int ex = 0; ex < s.N; ++ex) {
                const std::vector<double> k = iga_element_matrix(s, ex, ey);
                for (int b = 0; b < ne; ++b) {
                    const int ib = ex + b % p1, jb = ey + b / p1;
                    if (jb == 0 || jb == n - 1) continue;
                    const std::int64_t col = ib + std::int64_t(n) * (jb - 1);
                    for (int a = 0; a < ne; ++a) {
                        const int ia = ex + a % p1, ja = ey + a / p1;
                        if (ja == 0 || ja == n - 1) continue;
                        dense[sz(col * slots + (ja - jb + p) * band + (ia - ib + p))] += k[sz(a * ne + b)];
                    }
                }
            }
    }
    SparseSystem sys;
    sys.size = nf;
    sys.col_begin.reserve(sz(nf + 1));
    sys.col_begin.push_back(0);
    for (std::int64_t col = 0; col < nf; ++col) {
        const int ib = static_cast<int>(col % n), jb = static_cast<int>(col / n) + 1;
        for (int dj = 0; dj <= p; ++dj)
            for (int di = -p; di <= p; ++di) {
                const int ia = ib + di, ja = jb + dj;
                if (ia < 0 || ia >= n || ja >= n - 1 || (dj == 0 && di < 0)) continue;
                sys.row.push_back(static_cast<std::int32_t>(ia + std::int64_t(n) * (ja - 1)));
                sys.value.push_back(dense[sz(col * slots + (dj + p) * band + (di + p))]);
            }
        sys.col_begin.push_back(static_cast<std::int32_t>(sys.row.size()));
    }
    sys.rhs.resize(sz(nf));
    for (std::int64_t f = 0; f < nf; ++f) sys.rhs[sz(f)] = load.rhs[sz(f + n)];
    return sys;
}

std::vector<double> expand_free_solution(const IgaSpace& s, const double* free_x, const IgaLoad& load) {
    std::vector<double> x = load.dirichlet;
    for (std::int64_t f = 0; f < s.free_count(); ++f) x[sz(f + s.n)] = free_x[f];
    return x;
}

}  // namespace voxwave::iga
