#include "wave/dispersion.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "core/errors.hpp"
#include "scene/run_rules.hpp"
#include "wave/plane_strain_element_matrix.hpp"
#include "wave/sem_element_matrix.hpp"
#include "wave/voxel_element_matrix.hpp"

namespace voxwave {
namespace {

// The Bloch wave along `direction` for ppw points per wavelength, `points` of them per element of
// size ds: its wave vector and magnitude. InputError for a zero direction or ppw <= 1.
struct BlochWave {
    std::array<double, 3> k;
    double magnitude;
};
BlochWave bloch_wave(const std::array<double, 3>& direction, double ppw, int points, double ds) {
    const double norm =
        std::sqrt(direction[0] * direction[0] + direction[1] * direction[1] + direction[2] * direction[2]);
    if (!(norm > 0)) throw InputError("", "direction", "must be a non-zero vector");
    if (!(ppw > 1)) throw InputError("", "ppw", "points per wavelength must exceed 1");
    const double kmag = 2.0 * std::numbers::pi * points / (ppw * ds);
    return {{kmag * direction[0] / norm, kmag * direction[1] / norm, kmag * direction[2] / norm}, kmag};
}

}  // namespace

std::array<double, 3> bloch_velocity_ratios(ElementMethod method, double ds, const Material& m, double dt, double ppw,
                                            const std::array<double, 3>& direction) {
    const auto [k, kmag] = bloch_wave(direction, ppw, 1, ds);

    const ElementMatrix ke = voxel_element_stiffness(method, ds, m);
    auto corner = [](int l) {
        const int c = l / 4, r = l % 4;
        const int a = (r == 1 || r == 2) ? 1 : 0, b = (r >= 2) ? 1 : 0;
        return std::array<int, 3>{a, b, c};
    };
    Eigen::Matrix3cd d = Eigen::Matrix3cd::Zero();
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b) {
            const auto ca = corner(a), cb = corner(b);
            double phase = 0;
            for (int x = 0; x < 3; ++x) phase += k[x] * ds * (cb[x] - ca[x]);
            const std::complex<double> e = std::polar(1.0, phase);
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) d(i, j) += ke(3 * a + i, 3 * b + j) * e;
        }
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3cd> eig(d, Eigen::EigenvaluesOnly);
    const double mass = m.density * ds * ds * ds;
    const double exact[3] = {m.vs, m.vs, m.vp};
    std::array<double, 3> ratio{};
    for (int mode = 0; mode < 3; ++mode) {
        double omega = std::sqrt(std::max(0.0, eig.eigenvalues()(mode)) / mass);
        if (dt > 0) {
            const double x = 0.5 * dt * omega;
            if (x > 1.0) throw InputError("", "dt", "above the stable limit for this spacing and material");
            omega = 2.0 / dt * std::asin(x);
        }
        ratio[mode] = exact[mode] > 0 ? (omega / kmag) / exact[mode] : 0.0;
    }
    return ratio;
}

namespace {

// The table of a ratio function of (ppw, unit direction) returning the modes' velocity ratios.
template <class Ratios>
DispersionTable table_of(const std::vector<double>& ppw, std::vector<std::array<double, 3>> directions, int dimensions,
                         const Ratios& ratios) {
    DispersionTable t;
    t.modes = dimensions == 2 ? 2 : 3;
    t.ppw = ppw;
    for (auto& d : directions) {
        const double n = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(n > 0)) throw InputError("", "directions", "every direction must be a non-zero vector");
        if (dimensions == 2 && d[2] != 0) throw InputError("", "directions", "a 2D direction has no z component");
        d = {d[0] / n, d[1] / n, d[2] / n};
    }
    t.directions = directions;
    t.velocity_ratio.reserve(directions.size() * ppw.size() * 3);
    for (const auto& d : directions)
        for (double p : ppw) {
            const auto r = ratios(p, d);
            t.velocity_ratio.insert(t.velocity_ratio.end(), r.begin(), r.end());
        }
    return t;
}

// omega from omega^2 (semi-discrete), or the central-difference scheme's for dt > 0.
double scheme_omega(double omega2, double dt) {
    double omega = std::sqrt(std::max(0.0, omega2));
    if (dt > 0) {
        const double x = 0.5 * dt * omega;
        if (x > 1.0) throw InputError("", "dt", "above the stable limit for this spacing and material");
        omega = 2.0 / dt * std::asin(x);
    }
    return omega;
}

}  // namespace

std::array<double, 2> plane_strain_bloch_velocity_ratios(ElementMethod method, double ds, const Material& m, double dt,
                                                         double ppw, const std::array<double, 3>& direction) {
    const double norm = std::hypot(direction[0], direction[1]);
    if (!(norm > 0)) throw InputError("", "direction", "must be a non-zero vector in the plane");
    if (!(ppw > 1)) throw InputError("", "ppw", "points per wavelength must exceed 1");
    const double kmag = 2.0 * std::numbers::pi / (ppw * ds);
    const double k[2] = {kmag * direction[0] / norm, kmag * direction[1] / norm};
    const PlaneElementMatrix ke = plane_strain_element_stiffness(method, m);
    const int corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};  // local node order
    Eigen::Matrix2cd d = Eigen::Matrix2cd::Zero();
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
            const double phase = k[0] * ds * (corner[b][0] - corner[a][0]) + k[1] * ds * (corner[b][1] - corner[a][1]);
            const std::complex<double> e = std::polar(1.0, phase);
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) d(i, j) += ke(2 * a + i, 2 * b + j) * e;
        }
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix2cd> eig(d, Eigen::EigenvaluesOnly);
    const double mass = m.density * ds * ds;
    const double exact[2] = {m.vs, m.vp};
    std::array<double, 2> ratio{};
    for (int mode = 0; mode < 2; ++mode) {
        const double omega = scheme_omega(eig.eigenvalues()(mode) / mass, dt);
        ratio[mode] = exact[mode] > 0 ? (omega / kmag) / exact[mode] : 0.0;
    }
    return ratio;
}

DispersionTable dispersion_table(ElementMethod method, double ds, const Material& m, double dt,
                                 const std::vector<double>& ppw, std::vector<std::array<double, 3>> directions,
                                 int dimensions) {
    if (dimensions == 2)
        return table_of(ppw, std::move(directions), 2, [&](double p, const std::array<double, 3>& d) {
            return plane_strain_bloch_velocity_ratios(method, ds, m, dt, p, d);
        });
    return table_of(ppw, std::move(directions), 3, [&](double p, const std::array<double, 3>& d) {
        return bloch_velocity_ratios(method, ds, m, dt, p, d);
    });
}

std::array<double, 3> sem_bloch_velocity_ratios(int order, double ds, const Material& m, double dt, double ppw,
                                                const std::array<double, 3>& direction) {
    const auto [k, kmag] = bloch_wave(direction, ppw, order, ds);
    const int p = order, n1 = p + 1, n3 = n1 * n1 * n1, nc = p * p * p;
    const Eigen::MatrixXd ke = sem_element_stiffness(order, ds, m.lame_lambda(), m.shear_modulus());
    const Eigen::VectorXd me = sem_element_mass(order, ds, m.density);
    const GllTables gll = gll_tables(order);
    // Element node l -> its cell node and position.
    std::vector<int> cell(n3);
    std::vector<std::array<double, 3>> pos(n3);
    for (int c = 0; c < n1; ++c)
        for (int b = 0; b < n1; ++b)
            for (int a = 0; a < n1; ++a) {
                const int l = a + n1 * (b + n1 * c);
                cell[l] = (a % p) + p * ((b % p) + p * (c % p));
                pos[l] = {0.5 * ds * (gll.xi[a] + 1), 0.5 * ds * (gll.xi[b] + 1), 0.5 * ds * (gll.xi[c] + 1)};
            }
    Eigen::MatrixXcd d = Eigen::MatrixXcd::Zero(3 * nc, 3 * nc);
    Eigen::VectorXd mass = Eigen::VectorXd::Zero(nc);
    for (int a = 0; a < n3; ++a) {
        mass(cell[a]) += me(a);
        for (int b = 0; b < n3; ++b) {
            double phase = 0;
            for (int x = 0; x < 3; ++x) phase += k[x] * (pos[b][x] - pos[a][x]);
            const std::complex<double> e = std::polar(1.0, phase);
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) d(i * nc + cell[a], j * nc + cell[b]) += ke(i * n3 + a, j * n3 + b) * e;
        }
    }
    for (int r = 0; r < 3 * nc; ++r)
        for (int c = 0; c < 3 * nc; ++c) d(r, c) /= std::sqrt(mass(r % nc) * mass(c % nc));
    const Eigen::MatrixXcd h = 0.5 * (d + d.adjoint());
    // The acoustic modes are the three eigenvectors nearest the plane wave itself, whose Bloch
    // amplitudes are one vector U at every cell node. Beyond the cell's first Brillouin zone
    // (fewer than 2 p points per wavelength) they are no longer the three lowest: the branches
    // fold, so the modes are picked by their overlap with the constant-per-component vectors
    // M^1/2 (e_i x 1) in the mass-scaled space.
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXcd> eig(h, Eigen::ComputeEigenvectors);
    const int nd = 3 * nc;
    std::vector<std::pair<double, int>> overlap;  // (-overlap, eigenpair)
    const double msum = mass.sum();
    for (int e = 0; e < nd; ++e) {
        double o = 0;
        for (int i = 0; i < 3; ++i) {
            std::complex<double> dotv = 0;
            for (int a = 0; a < nc; ++a) dotv += std::sqrt(mass(a) / msum) * eig.eigenvectors()(i * nc + a, e);
            o += std::norm(dotv);
        }
        overlap.push_back({-o, e});
    }
    std::partial_sort(overlap.begin(), overlap.begin() + 3, overlap.end());
    std::array<double, 3> omega2{};
    for (int i = 0; i < 3; ++i) omega2[i] = eig.eigenvalues()(overlap[i].second);
    std::sort(omega2.begin(), omega2.end());
    const double exact[3] = {m.vs, m.vs, m.vp};
    std::array<double, 3> ratio{};
    for (int mode = 0; mode < 3; ++mode) {
        const double omega = scheme_omega(omega2[mode], dt);
        ratio[mode] = exact[mode] > 0 ? (omega / kmag) / exact[mode] : 0.0;
    }
    return ratio;
}

DispersionTable sem_dispersion_table(int order, double ds, const Material& m, double dt, const std::vector<double>& ppw,
                                     std::vector<std::array<double, 3>> directions) {
    return table_of(ppw, std::move(directions), 3, [&](double p, const std::array<double, 3>& d) {
        return sem_bloch_velocity_ratios(order, ds, m, dt, p, d);
    });
}

std::vector<std::array<double, 3>> default_dispersion_directions(int dimensions) {
    if (dimensions == 2) return {{1, 0, 0}, {1, 1, 0}};
    return {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}};
}

std::vector<double> default_dispersion_ppw() {
    std::vector<double> ppw;
    for (double p = 4; p <= 40; p += 1) ppw.push_back(p);
    return ppw;
}

void check_dispersion_request(double ds, const Material& m, double dt, const std::vector<double>& ppw,
                              const std::string& prefix) {
    check_spacing(ds, "", prefix + "spacing");
    if (dt < 0) throw InputError("", prefix + "dt", "must not be negative");
    validate_material(m, "", "material");
    for (double p : ppw)
        if (!(p > 2)) throw InputError("", prefix + "ppw", "points per wavelength must be > 2");
}

}  // namespace voxwave
