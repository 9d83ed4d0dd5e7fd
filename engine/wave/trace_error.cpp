#include "wave/trace_error.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"

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

std::vector<double> receiver_reflection_db(const Result& box, const Result& ref) {
    if (box.components != ref.components)
        throw InputError("", "components", "a 2D (plane-strain) run cannot be compared with a 3D one");
    if (box.time.size() != ref.time.size())
        throw InputError("", "receivers",
                         "the runs have " + std::to_string(box.time.size()) + " and " +
                             std::to_string(ref.time.size()) + " samples; the reflection needs the same sample times");
    for (std::size_t j = 0; j < ref.time.size(); ++j)
        if (std::abs(box.time[j] - ref.time[j]) > 1e-9 * (ref.time.size() > 1 ? ref.time[1] - ref.time[0] : 1.0))
            throw InputError("", "receivers",
                             "sample " + std::to_string(j) + " is at t = " + format_number(box.time[j]) + " s and " +
                                 format_number(ref.time[j]) + " s; the reflection needs the same sample times");
    const std::size_t nt = ref.sample_count();
    const int nc = ref.components;
    std::vector<double> db;
    for (std::size_t rr = 0; rr < ref.receiver_count(); ++rr) {
        const std::string& name = ref.receiver_names[rr];
        const auto it = std::find(box.receiver_names.begin(), box.receiver_names.end(), name);
        if (it == box.receiver_names.end())
            throw InputError("", "receivers", "receiver '" + name + "' is not in the run with the boundary");
        const std::size_t rb = std::size_t(it - box.receiver_names.begin());
        const double tolerance = 1e-9 * std::max(ref.spacing, box.spacing);
        for (int k = 0; k < 3; ++k)
            if (std::abs(box.receiver_positions[rb][std::size_t(k)] - ref.receiver_positions[rr][std::size_t(k)]) >
                tolerance)
                throw InputError("", "receivers",
                                 "receiver '" + name +
                                     "' samples different nodes in the two runs; the reflection needs the same nodes");
        double diff = 0, norm = 0;
        for (std::size_t j = 0; j < nt; ++j)
            for (int c = 0; c < nc; ++c) {
                const double d = box.u(rb, j, c) - ref.u(rr, j, c);
                diff += d * d;
                norm += ref.u(rr, j, c) * ref.u(rr, j, c);
            }
        if (!(norm > 0))
            throw InputError("", "receivers",
                             "receiver '" + name + "' has no signal in the reference run; nothing to compare with");
        db.push_back(10 * std::log10(diff / norm));
    }
    return db;
}

}  // namespace voxwave
