#include "integration/reference_tables.hpp"

#include "integration/legendre.hpp"

namespace voxwave::integration {
namespace {

// Triangle hierarchical basis of degree p in barycentric coordinates (l1 = 1 - xi1 - xi2,
// l2 = xi1, l3 = xi2): vertices l_a; edges l_a l_b L_k(l_b - l_a), k = 0..p-2; bubbles
// l1 l2 l3 L_i(l2 - l1) L_j(2 l3 - 1), i + j <= p - 3. out[d * nt + alpha], d = 0 value, 1, 2 d/dxi.
void triangle_functions(int p, double xi1, double xi2, std::vector<double>& out) {
    const int nt = triangle_shape_count(p);
    out.assign(3 * nt, 0.0);
    const double l[3] = {1 - xi1 - xi2, xi1, xi2};
    const double dl[3][2] = {{-1, -1}, {1, 0}, {0, 1}};
    int a = 0;
    auto put = [&](double v, double d1, double d2) {
        out[a] = v;
        out[nt + a] = d1;
        out[2 * nt + a] = d2;
        ++a;
    };
    for (int v = 0; v < 3; ++v) put(l[v], dl[v][0], dl[v][1]);
    double lg[kMaxOrder + 2], dlg[kMaxOrder + 2];
    const int edges[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    for (const auto& e : edges) {
        const int i = e[0], j = e[1];
        legendre_values(p, l[j] - l[i], lg, dlg);
        for (int k = 0; k <= p - 2; ++k) {
            double g[2];
            for (int c = 0; c < 2; ++c)
                g[c] = dl[i][c] * l[j] * lg[k] + l[i] * dl[j][c] * lg[k] + l[i] * l[j] * dlg[k] * (dl[j][c] - dl[i][c]);
            put(l[i] * l[j] * lg[k], g[0], g[1]);
        }
    }
    double la[kMaxOrder + 2], dla[kMaxOrder + 2], lb[kMaxOrder + 2], dlb[kMaxOrder + 2];
    legendre_values(p, l[1] - l[0], la, dla);
    legendre_values(p, 2 * l[2] - 1, lb, dlb);
    const double bub = l[0] * l[1] * l[2];
    double dbub[2];
    for (int c = 0; c < 2; ++c) dbub[c] = dl[0][c] * l[1] * l[2] + l[0] * dl[1][c] * l[2] + l[0] * l[1] * dl[2][c];
    for (int i = 0; i <= p - 3; ++i)
        for (int j = 0; i + j <= p - 3; ++j) {
            double g[2];
            for (int c = 0; c < 2; ++c)
                g[c] = dbub[c] * la[i] * lb[j] + bub * dla[i] * (dl[1][c] - dl[0][c]) * lb[j] +
                       bub * la[i] * dlb[j] * 2 * dl[2][c];
            put(bub * la[i] * lb[j], g[0], g[1]);
        }
}

}  // namespace

void geometric_map_functions(ElementType type, const std::array<double, 3>& x, double* out) {
    if (type == ElementType::Hexahedron) {
        const int vr[4] = {-1, 1, 1, -1}, vs[4] = {-1, -1, 1, 1};
        for (int v = 0; v < 8; ++v) {
            const double sr = vr[v % 4], ss = vs[v % 4], st = v < 4 ? -1 : 1;
            const double fr = 1 + sr * x[0], fs = 1 + ss * x[1], ft = 1 + st * x[2];
            out[v] = fr * fs * ft / 8;
            out[8 + v] = sr * fs * ft / 8;
            out[16 + v] = fr * ss * ft / 8;
            out[24 + v] = fr * fs * st / 8;
        }
        return;
    }
    // Linear prism: vertices 0..2 at zeta = -1 (triangle (0,0), (1,0), (0,1)), 3..5 above them.
    const double l[3] = {1 - x[0] - x[1], x[0], x[1]};
    const double dl[3][2] = {{-1, -1}, {1, 0}, {0, 1}};
    for (int v = 0; v < 6; ++v) {
        const int t = v % 3;
        const double sz = v < 3 ? -1 : 1, fz = (1 + sz * x[2]) / 2;
        out[v] = l[t] * fz;
        out[6 + v] = dl[t][0] * fz;
        out[12 + v] = dl[t][1] * fz;
        out[18 + v] = l[t] * sz / 2;
    }
}

ReferenceTables make_reference_tables(ElementType type, int p, HexRule rule) {
    ReferenceTables t;
    t.type = type;
    t.order = p;
    t.nsh = shape_count(type, p);
    t.nv = vertex_count(type);
    const QuadratureRule q = type == ElementType::Hexahedron ? hex_rule(p, rule) : prism_rule(p);
    t.nq = int(q.weights.size());
    t.points_1d = q.points_1d;
    t.weights = q.weights;
    t.phi.assign(std::size_t(t.nq) * 4 * t.nsh, 0.0);
    t.geo.assign(std::size_t(t.nq) * 4 * t.nv, 0.0);
    double n[3][kMaxOrder + 1], dn[3][kMaxOrder + 1];
    std::vector<double> tri;
    if (type == ElementType::Hexahedron) t.modes = hex_modes(p);
    for (int iq = 0; iq < t.nq; ++iq) {
        const auto& x = q.points[iq];
        geometric_map_functions(type, x, &t.geo[std::size_t(iq) * 4 * t.nv]);
        double* ph = &t.phi[std::size_t(iq) * 4 * t.nsh];
        if (type == ElementType::Hexahedron) {
            for (int c = 0; c < 3; ++c) hierarchical_1d(p, x[c], n[c], dn[c]);
            for (int a = 0; a < t.nsh; ++a) {
                const auto& m = t.modes[a];
                const double f0 = n[0][m[0]], f1 = n[1][m[1]], f2 = n[2][m[2]];
                ph[a] = f0 * f1 * f2;
                ph[t.nsh + a] = dn[0][m[0]] * f1 * f2;
                ph[2 * t.nsh + a] = f0 * dn[1][m[1]] * f2;
                ph[3 * t.nsh + a] = f0 * f1 * dn[2][m[2]];
            }
        } else {
            triangle_functions(p, x[0], x[1], tri);
            hierarchical_1d(p, x[2], n[2], dn[2]);
            const int nt = triangle_shape_count(p);
            for (int k = 0; k <= p; ++k)
                for (int al = 0; al < nt; ++al) {
                    const int a = k * nt + al;
                    ph[a] = tri[al] * n[2][k];
                    ph[t.nsh + a] = tri[nt + al] * n[2][k];
                    ph[2 * t.nsh + a] = tri[2 * nt + al] * n[2][k];
                    ph[3 * t.nsh + a] = tri[al] * dn[2][k];
                }
        }
    }
    if (type == ElementType::Hexahedron) {
        std::vector<double> x;
        gauss_legendre(t.points_1d, x, t.w1d);
        t.n1d.assign(std::size_t(t.points_1d) * (p + 1), 0.0);
        t.dn1d = t.n1d;
        for (int i = 0; i < t.points_1d; ++i)
            hierarchical_1d(p, x[i], &t.n1d[std::size_t(i) * (p + 1)], &t.dn1d[std::size_t(i) * (p + 1)]);
        std::vector<int> id((p + 1) * (p + 1), -1);
        for (const auto& m : t.modes) {
            int& slot = id[m[0] * (p + 1) + m[1]];
            if (slot < 0) {
                slot = int(t.prefixes.size());
                t.prefixes.push_back({m[0], m[1]});
            }
            t.prefix_of.push_back(slot);
        }
    }
    return t;
}

}  // namespace voxwave::integration
