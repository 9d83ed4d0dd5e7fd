// Array acquisitions of one point scatterer from a closed form, for the imaging tests: a linear
// array on the surface z = 0 (elements along x, normal +z) in a uniform solid; each received
// signal is a Gaussian-modulated cosine (its envelope peaks exactly at its delay) with geometric
// spreading. Written here, independently of the imaging code under test.
#pragma once

#include <cmath>
#include <vector>

#include "wave/array_acquisition.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave::test {

struct PointScatterer {
    int elements = 16;
    double pitch = 0.5e-3;
    double frequency = 5e6;
    double vp = 5900, vs = 3200;
    double lateral = 1e-3, depth = 10e-3;  // the scatterer, from the array centre
    double dt = 10e-9;
    int samples = 900;
    double reference_time = 0.4e-6;  // the wavelet's peak
    // Wave speeds of the transmit and receive legs (LL: vp, vp; LT: vp, vs; TT: vs, vs).
    double speed_tx = 5900, speed_rx = 5900;
};

inline double gaussian_pulse(double tau, double f) {
    const double sigma = 1 / f;
    return std::exp(-(tau / sigma) * (tau / sigma)) * std::cos(2 * 3.14159265358979323846 * f * tau);
}

inline ArrayAcquisition point_scatterer_acquisition(const PointScatterer& s, AcquisitionType type,
                                                    const std::vector<double>& angles_deg = {}) {
    ArrayAcquisition a;
    a.type = type;
    a.n_rx = std::size_t(s.elements);
    a.n_tx = type == AcquisitionType::Fmc ? a.n_rx : angles_deg.size();
    a.angles = type == AcquisitionType::Pwi ? angles_deg : std::vector<double>{};
    a.pitch = s.pitch;
    a.vp = s.vp;
    a.vs = s.vs;
    a.frequency = s.frequency;
    a.reference_time = s.reference_time;
    // The array's centre is offset from the coordinate origin: images are relative to the centre.
    const double x0 = 7e-3, y0 = 2e-3, z0 = 3e-3;
    for (int i = 0; i < s.elements; ++i)
        a.element_positions.push_back({x0 + (i - (s.elements - 1) / 2.0) * s.pitch, y0, z0});
    for (int k = 0; k < s.samples; ++k) a.time.push_back(k * s.dt);
    a.data.assign(a.n_tx * a.n_rx * a.time.size(), 0.0);
    auto ray = [&](int e) { return std::hypot((e - (s.elements - 1) / 2.0) * s.pitch - s.lateral, s.depth); };
    for (std::size_t tx = 0; tx < a.n_tx; ++tx)
        for (std::size_t rx = 0; rx < a.n_rx; ++rx) {
            double t_tx, spread;
            if (type == AcquisitionType::Fmc) {
                t_tx = ray(int(tx)) / s.speed_tx;
                spread = 1 / (ray(int(tx)) * ray(int(rx)));
            } else {
                const double th = angles_deg[tx] * 3.14159265358979323846 / 180;
                t_tx = (s.lateral * std::sin(th) + s.depth * std::cos(th)) / s.speed_tx;
                spread = 1 / std::sqrt(ray(int(rx)));
            }
            const double arrival = s.reference_time + t_tx + ray(int(rx)) / s.speed_rx;
            for (std::size_t k = 0; k < a.time.size(); ++k)
                a.data[(tx * a.n_rx + rx) * a.time.size() + k] =
                    spread * gaussian_pulse(a.time[k] - arrival, s.frequency);
        }
    return a;
}

// The image's largest pixel: where and how large.
struct Peak {
    double lateral = 0, depth = 0, value = 0;
};

inline Peak image_peak(const Image& im) {
    Peak p;
    for (std::size_t d = 0; d < im.n_depth(); ++d)
        for (std::size_t l = 0; l < im.n_lateral(); ++l)
            if (im.at(d, l) > p.value) p = {im.lateral[l], im.depth[d], im.at(d, l)};
    return p;
}

}  // namespace voxwave::test
