#include "wave/receiver_scans.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <unsupported/Eigen/FFT>

namespace voxwave {

ReceiverLine receiver_line(const std::vector<std::array<double, 3>>& positions) {
    ReceiverLine line;
    const std::size_t n = positions.size();
    line.order.resize(n);
    std::iota(line.order.begin(), line.order.end(), std::size_t(0));
    line.coordinate.resize(n);
    for (std::size_t r = 0; r < n; ++r) line.coordinate[r] = double(r);
    if (n < 2) return line;
    Eigen::Vector3d mean = Eigen::Vector3d::Zero();
    for (const auto& p : positions) mean += Eigen::Vector3d(p[0], p[1], p[2]);
    mean /= double(n);
    Eigen::Matrix3d cov = Eigen::Matrix3d::Zero();
    double extent = 0;
    for (const auto& p : positions) {
        const Eigen::Vector3d d = Eigen::Vector3d(p[0], p[1], p[2]) - mean;
        cov += d * d.transpose();
        extent = std::max(extent, d.norm());
    }
    // Positions all at one point (to rounding of metres-sized coordinates): no line.
    double size = 0;
    for (const auto& p : positions) size = std::max({size, std::abs(p[0]), std::abs(p[1]), std::abs(p[2])});
    if (!(extent > 1e-12 * std::max(size, 1e-3))) return line;
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(cov);
    Eigen::Vector3d d = eig.eigenvectors().col(2);  // eigenvalues ascend
    int big = 0;
    d.cwiseAbs().maxCoeff(&big);
    if (d[big] < 0) d = -d;
    line.valid = true;
    for (int i = 0; i < 3; ++i) {
        if (std::abs(d[i]) > 1 - 1e-6) {
            line.axis = i;
            d = Eigen::Vector3d::Zero();
            d[i] = 1;  // exactly the axis: coordinates are then the positions' own
        }
    }
    line.direction = {d[0], d[1], d[2]};
    for (std::size_t r = 0; r < n; ++r)
        line.coordinate[r] = positions[r][0] * d[0] + positions[r][1] * d[1] + positions[r][2] * d[2];
    std::stable_sort(line.order.begin(), line.order.end(),
                     [&](std::size_t a, std::size_t b) { return line.coordinate[a] < line.coordinate[b]; });
    return line;
}

std::vector<std::complex<double>> analytic_signal(const std::vector<double>& x) {
    const std::size_t n = x.size();
    if (n == 0) return {};
    std::size_t m = 1;
    while (m < 2 * n) m <<= 1;
    // Eigen's FFT (kissfft inside): the spectrum of the zero-padded trace, then the analytic
    // signal: DC and Nyquist kept, the positive frequencies doubled, the negative dropped.
    std::vector<double> padded(m, 0.0);
    std::copy(x.begin(), x.end(), padded.begin());
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    std::vector<std::complex<double>> half;
    fft.fwd(half, padded);
    std::vector<std::complex<double>> spectrum(m, 0.0);
    spectrum[0] = half[0];
    for (std::size_t k = 1; k < m / 2; ++k) spectrum[k] = 2.0 * half[k];
    spectrum[m / 2] = half[m / 2];
    std::vector<std::complex<double>> a;
    fft.ClearFlag(Eigen::FFT<double>::HalfSpectrum);
    fft.inv(a, spectrum);  // scaled by 1/m
    a.resize(n);
    return a;
}

std::vector<double> hilbert_envelope(const std::vector<double>& x) {
    const std::vector<std::complex<double>> a = analytic_signal(x);
    std::vector<double> env(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) env[i] = std::abs(a[i]);
    return env;
}

GatedPeak gated_peak(const std::vector<double>& x, double dt, double t0, double t1) {
    GatedPeak p;
    if (x.empty() || !(dt > 0) || !(t1 >= t0)) return p;
    const double first = std::max(0.0, std::ceil(t0 / dt - 1e-9));
    const double last = std::min(double(x.size() - 1), std::floor(t1 / dt + 1e-9));
    if (first > last) return p;
    const std::size_t n0 = std::size_t(first), n1 = std::size_t(last);
    std::size_t best = n0;
    for (std::size_t n = n0; n <= n1; ++n)
        if (std::abs(x[n]) > std::abs(x[best])) best = n;
    p.found = true;
    p.amplitude = std::abs(x[best]);
    p.time = double(best) * dt;
    if (best > n0 && best < n1) {
        const double a = std::abs(x[best - 1]), b = p.amplitude, c = std::abs(x[best + 1]);
        const double curvature = a - 2 * b + c;
        if (curvature < 0) {
            const double shift = std::clamp(0.5 * (a - c) / curvature, -0.5, 0.5);
            p.time += shift * dt;
            p.amplitude = b - 0.25 * (a - c) * shift;
        }
    }
    return p;
}

}  // namespace voxwave
