#include "wave/dispersion.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>
#include <numbers>

#include "core/errors.hpp"
#include "wave/plane_strain_element_matrix.hpp"
#include "wave/voxel_element_matrix.hpp"

namespace voxwave {

std::array<double, 3> bloch_velocity_ratios(ElementMethod method, double ds, const Material& m, double dt, double ppw,
                                            const std::array<double, 3>& direction) {
    const double norm =
        std::sqrt(direction[0] * direction[0] + direction[1] * direction[1] + direction[2] * direction[2]);
    if (!(norm > 0)) throw InputError("", "direction", "must be a non-zero vector");
    if (!(ppw > 1)) throw InputError("", "ppw", "points per wavelength must exceed 1");
    const double kmag = 2.0 * std::numbers::pi / (ppw * ds);
    const std::array<double, 3> k{kmag * direction[0] / norm, kmag * direction[1] / norm, kmag * direction[2] / norm};

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

// omega from an eigenvalue of D, with the central-difference correction when dt > 0.
double bloch_omega(double eigenvalue, double mass, double dt) {
    double omega = std::sqrt(std::max(0.0, eigenvalue) / mass);
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
        const double omega = bloch_omega(eig.eigenvalues()(mode), mass, dt);
        ratio[mode] = exact[mode] > 0 ? (omega / kmag) / exact[mode] : 0.0;
    }
    return ratio;
}

DispersionTable dispersion_table(ElementMethod method, double ds, const Material& m, double dt,
                                 const std::vector<double>& ppw, std::vector<std::array<double, 3>> directions,
                                 int dimensions) {
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
            if (dimensions == 2) {
                const auto r = plane_strain_bloch_velocity_ratios(method, ds, m, dt, p, d);
                t.velocity_ratio.insert(t.velocity_ratio.end(), r.begin(), r.end());
            } else {
                const auto r = bloch_velocity_ratios(method, ds, m, dt, p, d);
                t.velocity_ratio.insert(t.velocity_ratio.end(), r.begin(), r.end());
            }
        }
    return t;
}

std::vector<std::array<double, 3>> default_dispersion_directions(int dimensions) {
    if (dimensions == 2) return {{1, 0, 0}, {1, 1, 0}};
    return {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}};
}

}  // namespace voxwave
