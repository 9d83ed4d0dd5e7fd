#include "poisson/poisson_assembly.hpp"

#include <cmath>
#include <numbers>

namespace voxwave::poisson {

std::vector<int> interior_dofs(const PoissonMesh& mesh, int* count) {
    std::vector<int> dof(mesh.node_count(), -1);
    int n = 0;
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
        if (!mesh.on_boundary[i]) dof[i] = n++;
    if (count) *count = n;
    return dof;
}

namespace {

// Shape functions of a cell at reference point (r, s) with their physical gradients and |det J|.
struct ShapeValues {
    double phi[4], dx[4], dy[4], det;
};

ShapeValues q1_shape(const PoissonMesh& m, const std::array<int, 4>& c, double r, double s) {
    // Bilinear map from [0,1]^2; vertices counter-clockwise from (0,0).
    const double N[4] = {(1 - r) * (1 - s), r * (1 - s), r * s, (1 - r) * s};
    const double dr[4] = {-(1 - s), (1 - s), s, -s};
    const double ds[4] = {-(1 - r), -r, r, (1 - r)};
    double J[2][2] = {{0, 0}, {0, 0}};
    for (int k = 0; k < 4; ++k) {
        J[0][0] += dr[k] * m.xy[c[k]][0];
        J[0][1] += dr[k] * m.xy[c[k]][1];
        J[1][0] += ds[k] * m.xy[c[k]][0];
        J[1][1] += ds[k] * m.xy[c[k]][1];
    }
    const double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    ShapeValues v{};
    v.det = std::abs(det);
    for (int k = 0; k < 4; ++k) {
        v.phi[k] = N[k];
        v.dx[k] = (J[1][1] * dr[k] - J[0][1] * ds[k]) / det;
        v.dy[k] = (-J[1][0] * dr[k] + J[0][0] * ds[k]) / det;
    }
    return v;
}

ShapeValues p1_shape(const PoissonMesh& m, const std::array<int, 4>& c, double r, double s) {
    const auto &a = m.xy[c[0]], &b = m.xy[c[1]], &d = m.xy[c[2]];
    const double det = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
    ShapeValues v{};
    v.det = std::abs(det);
    v.phi[0] = 1 - r - s;
    v.phi[1] = r;
    v.phi[2] = s;
    v.dx[0] = (b[1] - d[1]) / det;
    v.dy[0] = (d[0] - b[0]) / det;
    v.dx[1] = (d[1] - a[1]) / det;
    v.dy[1] = (a[0] - d[0]) / det;
    v.dx[2] = (a[1] - b[1]) / det;
    v.dy[2] = (b[0] - a[0]) / det;
    return v;
}

struct QuadraturePoint {
    double r, s, w;  // weights sum to the reference cell's area
};

std::vector<QuadraturePoint> quadrature(int vertices, int order) {
    std::vector<QuadraturePoint> q;
    if (vertices == 3) {
        if (order <= 1) return {{1.0 / 3, 1.0 / 3, 0.5}};
        // Dunavant's 6-point rule, exact for degree 4.
        const double a = 0.445948490915965, wa = 0.223381589678011 / 2;
        const double b = 0.091576213509771, wb = 0.109951743655322 / 2;
        return {{a, a, wa}, {1 - 2 * a, a, wa}, {a, 1 - 2 * a, wa}, {b, b, wb}, {1 - 2 * b, b, wb}, {b, 1 - 2 * b, wb}};
    }
    const int n = order <= 2 ? 2 : 3;
    const double g2[2] = {0.5 - 0.5 / std::sqrt(3.0), 0.5 + 0.5 / std::sqrt(3.0)};
    const double w2[2] = {0.5, 0.5};
    const double g3[3] = {0.5 - 0.5 * std::sqrt(0.6), 0.5, 0.5 + 0.5 * std::sqrt(0.6)};
    const double w3[3] = {5.0 / 18, 8.0 / 18, 5.0 / 18};
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            q.push_back(n == 2 ? QuadraturePoint{g2[i], g2[j], w2[i] * w2[j]}
                               : QuadraturePoint{g3[i], g3[j], w3[i] * w3[j]});
    return q;
}

ShapeValues shape(const PoissonMesh& m, const std::array<int, 4>& c, double r, double s) {
    return m.vertices_per_cell == 3 ? p1_shape(m, c, r, s) : q1_shape(m, c, r, s);
}

}  // namespace

SparseMatrixd assemble_stiffness(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns) {
    const int nv = mesh.vertices_per_cell;
    const auto q = quadrature(nv, nv == 3 ? 1 : 2);
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(mesh.fine_cells().size() * nv * nv);
    for (const auto& c : mesh.fine_cells()) {
        double k[4][4] = {};
        for (const auto& p : q) {
            const ShapeValues v = shape(mesh, c, p.r, p.s);
            for (int a = 0; a < nv; ++a)
                for (int b = 0; b < nv; ++b) k[a][b] += p.w * v.det * (v.dx[a] * v.dx[b] + v.dy[a] * v.dy[b]);
        }
        for (int a = 0; a < nv; ++a)
            for (int b = 0; b < nv; ++b)
                if (dof[c[a]] >= 0 && dof[c[b]] >= 0) t.emplace_back(dof[c[a]], dof[c[b]], k[a][b]);
    }
    SparseMatrixd A(unknowns, unknowns);
    A.setFromTriplets(t.begin(), t.end());
    return A;
}

double exact_solution(int n, double x, double y) {
    const double pi = std::numbers::pi;
    return std::sin(n * pi * x) * std::sin(n * pi * y) * (x - 1.25) * (x - 1.75) * (y - 0.25) * (y - 0.75);
}

double exact_source(int n, double x, double y) {
    const double w = n * std::numbers::pi;
    // u = s(x) t(y), s = sin(w x) p(x), t = sin(w y) q(y): -Laplace u = -(s'' t + s t'').
    const double p = (x - 1.25) * (x - 1.75), dp = 2 * x - 3, q = (y - 0.25) * (y - 0.75), dq = 2 * y - 1;
    const double sx = std::sin(w * x), cx = std::cos(w * x), sy = std::sin(w * y), cy = std::cos(w * y);
    const double s = sx * p, ds2 = -w * w * sx * p + 2 * w * cx * dp + 2 * sx;
    const double t = sy * q, dt2 = -w * w * sy * q + 2 * w * cy * dq + 2 * sy;
    return -(ds2 * t + s * dt2);
}

Eigen::VectorXd assemble_load(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns, int n) {
    const int nv = mesh.vertices_per_cell;
    const auto q = quadrature(nv, 4);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(unknowns);
    for (const auto& c : mesh.fine_cells())
        for (const auto& p : q) {
            const ShapeValues v = shape(mesh, c, p.r, p.s);
            double x = 0, y = 0;
            for (int a = 0; a < nv; ++a) {
                x += v.phi[a] * mesh.xy[c[a]][0];
                y += v.phi[a] * mesh.xy[c[a]][1];
            }
            const double f = exact_source(n, x, y) * p.w * v.det;
            for (int a = 0; a < nv; ++a)
                if (dof[c[a]] >= 0) b[dof[c[a]]] += f * v.phi[a];
        }
    return b;
}

Eigen::VectorXd exact_at_dofs(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns, int n) {
    Eigen::VectorXd u(unknowns);
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
        if (dof[i] >= 0) u[dof[i]] = exact_solution(n, mesh.xy[i][0], mesh.xy[i][1]);
    return u;
}

}  // namespace voxwave::poisson
