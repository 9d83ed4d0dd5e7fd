#include "wave/wavelet.hpp"

#include <cmath>
#include <numbers>

namespace voxwave {
namespace {
constexpr double kPi = std::numbers::pi;

// 2 f sinc(2 f tau): the impulse response of an ideal low-pass with cut-off f.
double lowpass_kernel(double tau, double f) {
    const double x = 2.0 * kPi * f * tau;
    if (std::abs(x) < 1e-8) return 2.0 * f * (1.0 - x * x / 6.0);
    return std::sin(x) / (kPi * tau);
}
}  // namespace

double ricker(double t, double frequency, double delay) {
    const double a = kPi * frequency * (t - delay);
    const double a2 = a * a;
    return (1.0 - 2.0 * a2) * std::exp(-a2);
}

double tone_burst(double t, double frequency, double cycles, double delay) {
    const double tp = t - delay;
    const double length = cycles / frequency;
    if (tp < 0.0 || tp > length) return 0.0;
    return std::sin(2.0 * kPi * frequency * tp) * 0.5 * (1.0 - std::cos(2.0 * kPi * tp / length));
}

double bandpass_impulse(double t, double f_low, double f_high, double delay) {
    const double tau = t - delay;
    if (delay <= 0.0 || std::abs(tau) >= delay) return 0.0;
    const double window = 0.5 * (1.0 + std::cos(kPi * tau / delay));
    const double peak = 2.0 * (f_high - f_low);
    return window * (lowpass_kernel(tau, f_high) - lowpass_kernel(tau, f_low)) / peak;
}

double sampled(double t, const std::vector<double>& samples, double dt) {
    if (samples.empty() || dt <= 0.0 || t < 0.0) return 0.0;
    const double x = t / dt;
    const auto i = static_cast<std::size_t>(x);
    if (i + 1 >= samples.size()) return (i + 1 == samples.size() && x == double(i)) ? samples[i] : 0.0;
    const double w = x - double(i);
    return (1.0 - w) * samples[i] + w * samples[i + 1];
}

double evaluate_wavelet(const Wavelet& w, double t) {
    switch (w.type) {
        case WaveletType::Ricker:
            return ricker(t, w.frequency, w.delay);
        case WaveletType::ToneBurst:
            return tone_burst(t, w.frequency, w.cycles, w.delay);
        case WaveletType::Bandpass:
            return bandpass_impulse(t, w.f_low, w.f_high, w.delay);
        case WaveletType::Samples:
            return sampled(t, w.samples, w.sample_dt);
    }
    return 0.0;
}

}  // namespace voxwave
