#include "wave/point_force_solution.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "wave/wavelet.hpp"

namespace voxwave {

std::array<double, 3> point_force_displacement(const Material& m, const std::array<double, 3>& x,
                                               const std::array<double, 3>& direction,
                                               const std::function<double(double)>& force, double t, int panels) {
    const double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    const double g[3] = {x[0] / r, x[1] / r, x[2] / r};
    const double a = m.vp, b = m.vs, rho = m.density;
    const int n = panels + panels % 2;
    const double t0 = r / a, t1 = r / b, h = (t1 - t0) / n;
    double near = 0;
    for (int k = 0; k <= n; ++k) {
        const double tau = t0 + k * h;
        const double w = (k == 0 || k == n) ? 1 : (k % 2 ? 4 : 2);
        near += w * tau * force(t - tau);
    }
    near *= h / 3;
    const double gd = g[0] * direction[0] + g[1] * direction[1] + g[2] * direction[2];
    const double pi4 = 4 * std::numbers::pi * rho;
    std::array<double, 3> u{};
    for (int i = 0; i < 3; ++i) {
        const double gij = g[i] * gd, dij = direction[i];
        u[i] = (3 * gij - dij) * near / (pi4 * r * r * r) + gij * force(t - r / a) / (pi4 * a * a * r) -
               (gij - dij) * force(t - r / b) / (pi4 * b * b * r);
    }
    return u;
}

namespace {

// First arrival of anything reflected at offset `off`: the P wave from the nearest image of the
// centre source through a face (the onset of a Ricker centred at `delay` lies 1.2 / f before it).
double first_reflection_onset(const PointForceProblem& p, const std::array<double, 3>& off) {
    double best = 1e300;
    for (int axis = 0; axis < 3; ++axis)
        for (int side : {-1, 1}) {
            std::array<double, 3> img{0, 0, 0};
            img[axis] = side * p.side;
            double d2 = 0;
            for (int c = 0; c < 3; ++c) d2 += (off[c] - img[c]) * (off[c] - img[c]);
            best = std::min(best, std::sqrt(d2) / p.material.vp);
        }
    return best + p.delay - 1.2 / p.frequency;
}

PointForceProblem finish(PointForceProblem p) {
    p.duration = point_force_error_window(p);
    return p;
}

}  // namespace

double point_force_error_window(const PointForceProblem& p) {
    double window = 1e300;
    for (const auto& [name, off] : p.receivers) window = std::min(window, first_reflection_onset(p, off));
    return window;
}

PointForceProblem stokes_point_force_problem() { return scaled_point_force_problem(1.0); }

PointForceProblem scaled_point_force_problem(double factor, double box_factor) {
    PointForceProblem p;
    p.material = {"stokes", 2000, 3000, 1700, "#a0a0a0", "the Stokes accuracy problem (issue 36)"};
    p.side = 0.24 * factor * box_factor;
    p.frequency = 60e3 / factor;
    p.delay = 1.2 / p.frequency;
    const double mm = 1e-3 * factor;
    p.receivers = {{"A", {24 * mm, 16 * mm, 24 * mm}},
                   {"B", {32 * mm, 24 * mm, 16 * mm}},
                   {"C", {8 * mm, 24 * mm, 32 * mm}},
                   {"D", {24 * mm, 32 * mm, 24 * mm}}};
    return finish(p);
}

Scene point_force_scene(const PointForceProblem& prob, Method method, double ds, int order, Precision precision) {
    const int n = static_cast<int>(std::lround(prob.side / ds));
    Scene s;
    s.grid.size = {n * ds, n * ds, n * ds};
    s.grid.spacing = ds;
    s.materials = {prob.material};
    s.background = prob.material.name;
    const double c = 0.5 * n * ds;
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = prob.frequency;
    w.delay = prob.delay;
    s.sources.push_back({"force", {c, c, c}, {0, 0, 1}, prob.amplitude, w});
    for (const auto& [name, off] : prob.receivers) s.receivers.push_back({name, {c + off[0], c + off[1], c + off[2]}});
    s.run.method = method;
    s.run.order = order;
    s.run.precision = precision;
    s.run.duration = prob.duration;
    return s;
}

std::string point_force_receiver_off_node(const PointForceProblem& prob, double spacing,
                                          const std::vector<std::string>& names,
                                          const std::vector<std::array<double, 3>>& positions) {
    const double c = 0.5 * double(std::lround(prob.side / spacing)) * spacing;
    for (const auto& [name, off] : prob.receivers) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end() || std::size_t(it - names.begin()) >= positions.size()) return name;
        const auto& at = positions[std::size_t(it - names.begin())];
        for (int k = 0; k < 3; ++k)
            if (std::abs(at[k] - (c + off[k])) > 1e-9 * prob.side) return name;
    }
    return "";
}

double point_force_error(const PointForceProblem& prob, const Result& r) {
    auto force = [&](double s) { return prob.amplitude * ricker(s, prob.frequency, prob.delay); };
    for (const auto& [name, off] : prob.receivers)
        if (std::find(r.receiver_names.begin(), r.receiver_names.end(), name) == r.receiver_names.end())
            throw InputError("", "receivers", "no receiver '" + name + "' in the result");
    if (const std::string off = point_force_receiver_off_node(prob, r.spacing, r.receiver_names, r.receiver_positions);
        !off.empty())
        throw InputError("", "receivers", "receiver '" + off + "' snapped off its point: the spacing's nodes miss it");
    double sum = 0;
    int channels = 0;
    for (const auto& [name, off] : prob.receivers) {
        const auto it = std::find(r.receiver_names.begin(), r.receiver_names.end(), name);
        const std::size_t ri = std::size_t(it - r.receiver_names.begin());
        double ref_energy[3] = {0, 0, 0}, diff[3] = {0, 0, 0};
        for (std::size_t t = 0; t < r.sample_count(); ++t) {
            const auto ref = point_force_displacement(prob.material, off, {0, 0, 1}, force, r.time[t]);
            for (int k = 0; k < 3; ++k) {
                ref_energy[k] += ref[k] * ref[k];
                diff[k] += (r.u(ri, t, k) - ref[k]) * (r.u(ri, t, k) - ref[k]);
            }
        }
        const double emax = std::max({ref_energy[0], ref_energy[1], ref_energy[2]});
        for (int k = 0; k < 3; ++k)
            if (ref_energy[k] > 1e-6 * emax) {
                sum += diff[k] / ref_energy[k];
                ++channels;
            }
    }
    if (channels == 0) throw InputError("", "receivers", "no channel carries signal in the error window");
    return sum / channels;
}

}  // namespace voxwave
