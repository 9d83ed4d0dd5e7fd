// Source time functions (docs/architecture.md#boundaries-sources-receivers-dispersion, #files-and-cli).
// All return a dimensionless shape; the source's amplitude (newtons) multiplies it.
#pragma once

#include "scene/scene.hpp"

namespace voxwave {

// Ricker: (1 - 2 (pi f tau)^2) exp(-(pi f tau)^2), tau = t - delay; peak 1 at t = delay.
double ricker(double t, double frequency, double delay);
// Hann-windowed tone burst: sin(2 pi f t') * 0.5 (1 - cos(2 pi f t' / cycles)) for
// 0 <= t' = t - delay <= cycles / f, else 0.
double tone_burst(double t, double frequency, double cycles, double delay);
// The paper's band-pass impulse: the ideal band-pass [f_low, f_high] of a unit impulse at
// `delay` (difference of two sinc kernels), tapered by a Hann window of half-width `delay`
// (so it starts and ends at zero: the paper's 8.192e-4 s run is twice its 4.096e-4 s delay)
// and normalised to peak 1 at t = delay.
double bandpass_impulse(double t, double f_low, double f_high, double delay);
// Linear interpolation of samples spaced dt from t = 0; 0 outside.
double sampled(double t, const std::vector<double>& samples, double dt);

double evaluate_wavelet(const Wavelet& w, double t);

}  // namespace voxwave
