// Delay-and-sum imaging written once for the CPU and CUDA (docs/architecture.md#imaging): the travel
// times of the two legs and the linearly interpolated sample of an analytic signal. Plain data
// only, so the CUDA kernels and the CPU loops read the same problem.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace voxwave {

// One image's delay-and-sum over transmissions x receivers, in the array's frame: lateral along
// array_axis and depth along normal, both from the array centre; an element's `offset` is its
// distance from that plane (along array_axis x normal).
struct DelayAndSumProblem {
    // Analytic signals, real and imaginary parts, (n_tx * n_rx) x nt, row-major.
    const double* signal_re = nullptr;
    const double* signal_im = nullptr;
    int n_tx = 0, n_rx = 0, nt = 0;
    // Sample k is at travel time t_first + k dt (the file's time minus the wavelet's reference).
    double t_first = 0, dt = 1;
    // Elements (n_rx of them; for FMC also the transmitters): lateral, depth and offset, m.
    const double* element_lateral = nullptr;
    const double* element_depth = nullptr;
    const double* element_offset = nullptr;
    // PWI: n_tx plane waves, sin and cos of their angles (nullptr for FMC).
    const double* plane_sin = nullptr;
    const double* plane_cos = nullptr;
    double speed_tx = 0, speed_rx = 0;  // m/s of the transmit and receive legs (the mode)
    // Pixel (i_depth, i_lateral) is at (lateral0 + i_lateral pixel, depth0 + i_depth pixel).
    int n_lateral = 0, n_depth = 0;
    double lateral0 = 0, depth0 = 0, pixel = 0;

    VOXWAVE_HD long long pixel_count() const { return (long long)n_lateral * n_depth; }
};

// Straight-ray time from element e to the pixel at (lateral, depth), or back.
VOXWAVE_HD double element_leg_time(const DelayAndSumProblem& p, int e, double lateral, double depth, double speed) {
    const double dl = lateral - p.element_lateral[e], dd = depth - p.element_depth[e], o = p.element_offset[e];
    return sqrt(dl * dl + dd * dd + o * o) / speed;
}

// Time at which plane wave a (time zero: its front crosses the array centre) reaches the pixel.
VOXWAVE_HD double plane_wave_time(const DelayAndSumProblem& p, int a, double lateral, double depth) {
    return (lateral * p.plane_sin[a] + depth * p.plane_cos[a]) / p.speed_tx;
}

// Transmission tx's leg to the pixel: an element's ray (FMC) or a plane wave (PWI).
VOXWAVE_HD double transmit_time(const DelayAndSumProblem& p, int tx, double lateral, double depth) {
    return p.plane_sin ? plane_wave_time(p, tx, lateral, depth) : element_leg_time(p, tx, lateral, depth, p.speed_tx);
}

// Adds signal s's analytic value at travel time t (linear interpolation; nothing outside the
// record) to (re, im).
VOXWAVE_HD void add_interpolated_sample(const DelayAndSumProblem& p, long long s, double t, double& re, double& im) {
    const double x = (t - p.t_first) / p.dt;
    if (!(x >= 0) || x > double(p.nt - 1)) return;
    int k = int(x);
    if (k >= p.nt - 1) k = p.nt - 2;
    const double w = x - double(k);
    const long long i = s * p.nt + k;
    re += (1 - w) * p.signal_re[i] + w * p.signal_re[i + 1];
    im += (1 - w) * p.signal_im[i] + w * p.signal_im[i + 1];
}

// Sector scans (sector_imaging.hpp): range i of plane wave tx's own line from the array centre.
// The ranges are the problem's depth axis (depth0, pixel, n_depth), so the CPU and CUDA sectors
// sample the same points.
VOXWAVE_HD double sector_range(const DelayAndSumProblem& p, int i) { return p.depth0 + double(i) * p.pixel; }

// The sector image's envelope at `range` on plane wave tx's line, at (range sin theta, range cos
// theta): the plane wave's time there plus each receiver's leg (dynamic receive focusing).
VOXWAVE_HD double sector_line_value(const DelayAndSumProblem& p, int tx, double range) {
    const double lateral = range * p.plane_sin[tx], depth = range * p.plane_cos[tx];
    const double t_tx = transmit_time(p, tx, lateral, depth);
    double re = 0, im = 0;
    for (int rx = 0; rx < p.n_rx; ++rx)
        add_interpolated_sample(p, (long long)tx * p.n_rx + rx,
                                t_tx + element_leg_time(p, rx, lateral, depth, p.speed_rx), re, im);
    return sqrt(re * re + im * im);
}

}  // namespace voxwave
