#include "wave/dispersion.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>
#include <numbers>

#include "core/errors.hpp"
#include "scene/run_rules.hpp"
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

DispersionTable dispersion_table(ElementMethod method, double ds, const Material& m, double dt,
                                 const std::vector<double>& ppw, std::vector<std::array<double, 3>> directions) {
    DispersionTable t;
    t.ppw = ppw;
    for (auto& d : directions) {
        const double n = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(n > 0)) throw InputError("", "directions", "every direction must be a non-zero vector");
        d = {d[0] / n, d[1] / n, d[2] / n};
    }
    t.directions = directions;
    t.velocity_ratio.reserve(directions.size() * ppw.size() * 3);
    for (const auto& d : directions)
        for (double p : ppw) {
            const auto r = bloch_velocity_ratios(method, ds, m, dt, p, d);
            t.velocity_ratio.insert(t.velocity_ratio.end(), r.begin(), r.end());
        }
    return t;
}

std::vector<std::array<double, 3>> default_dispersion_directions() { return {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}}; }

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
