#include "wave/trace_error.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace voxwave {

namespace {

// Reference channel (r, c) at time t, linear between its samples (0 outside).
double sample_at(const Result& ref, std::size_t r, int c, double t) {
    const std::size_t nt = ref.sample_count();
    if (nt == 0) return 0;
    const double dt = nt > 1 ? ref.time[1] - ref.time[0] : 1;
    double x = (t - ref.time[0]) / dt;
    // Same time grid: read the sample itself, not a blend with rounding noise from its neighbour.
    if (std::abs(x - std::round(x)) < 1e-9) x = std::round(x);
    if (x < 0 || x > double(nt - 1)) return 0;
    const std::size_t j = std::min(std::size_t(x), nt - 1);
    const double w = x - double(j);
    const double a = ref.u(r, j, c);
    return j + 1 < nt ? a + w * (ref.u(r, j + 1, c) - a) : a;
}

}  // namespace

double paper_trace_error(const Result& obs, const Result& ref) {
    if (obs.sample_count() == 0 || ref.sample_count() == 0)
        throw InputError("", "receivers", "a run without samples cannot be compared");
    if (obs.components != ref.components)
        throw InputError("", "components", "a 2D (plane-strain) run cannot be compared with a 3D one");
    const double t_end = std::min(obs.time.back(), ref.time.back()) * (1 + 1e-12);
    double sum = 0;
    int channels = 0;
    bool any_common = false;
    for (std::size_t ro = 0; ro < obs.receiver_count(); ++ro) {
        const auto it = std::find(ref.receiver_names.begin(), ref.receiver_names.end(), obs.receiver_names[ro]);
        if (it == ref.receiver_names.end()) continue;
        any_common = true;
        const std::size_t rr = std::size_t(it - ref.receiver_names.begin());
        for (int c = 0; c < obs.components; ++c) {
            double num = 0, den = 0;
            for (std::size_t j = 0; j < obs.sample_count() && obs.time[j] <= t_end; ++j) {
                const double u_ref = sample_at(ref, rr, c, obs.time[j]);
                const double d = obs.u(ro, j, c) - u_ref;
                num += d * d;
                den += u_ref * u_ref;
            }
            if (den > 0) {
                sum += num / den;
                ++channels;
            }
        }
    }
    if (!any_common) throw InputError("", "receivers", "the two runs have no receiver name in common");
    if (channels == 0) throw InputError("", "receivers", "the reference run has no signal at its receivers yet");
    return sum / channels;
}

}  // namespace voxwave
