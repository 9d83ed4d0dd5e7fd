// What the scan views compute from receiver traces: the line a set of receivers lies along (the
// B-scan's position axis and row order), the Hilbert envelope of a trace, and the peak inside a
// time gate. No Qt: the explorer draws these, tests check them against closed forms.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <vector>

namespace voxwave {

// The principal direction of the receivers' positions (the eigenvector of their covariance with
// the largest eigenvalue), each receiver's coordinate along it, and the receivers in that order.
struct ReceiverLine {
    // False for fewer than two distinct positions: then the coordinate is the table index and the
    // order the table's.
    bool valid = false;
    // Unit vector; its largest component is positive, so a line along an axis runs the axis' way.
    std::array<double, 3> direction{1, 0, 0};
    // 0, 1 or 2 when the direction is a coordinate axis (within 1e-6); -1 otherwise.
    int axis = -1;
    std::vector<double> coordinate;  // per receiver (table order): position . direction, metres
    std::vector<std::size_t> order;  // table indices by increasing coordinate (ties: table order)
};
ReceiverLine receiver_line(const std::vector<std::array<double, 3>>& positions);

// The analytic signal of x: x + i H[x], H the Hilbert transform, computed with an FFT of x padded
// with zeros to a power of two of at least twice its length (so its two ends do not wrap onto
// each other). Same length as x. Delay-and-sum imaging sums these, so an image's envelope is
// that of the coherent sum.
std::vector<std::complex<double>> analytic_signal(const std::vector<double>& x);
// |analytic_signal(x)|: the Hilbert envelope.
std::vector<double> hilbert_envelope(const std::vector<double>& x);

// The largest |x_n| with n dt in [t0, t1] (x_n sampled at t = n dt), refined by the parabola
// through it and its two neighbours when both are inside the gate (sub-sample time and height).
struct GatedPeak {
    bool found = false;  // false when no sample lies in the gate
    double amplitude = 0;
    double time = 0;
};
GatedPeak gated_peak(const std::vector<double>& x, double dt, double t0, double t1);

}  // namespace voxwave
