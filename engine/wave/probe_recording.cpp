#include "wave/probe_recording.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace voxwave {

void record_probes(const WaveProblem& p, Result& r) {
    // Without probes no receivers were appended and there is nothing to reduce; a plane-strain
    // result (2 components, below) always takes this way out, as 2D scenes refuse probes.
    if (p.probes.empty()) return;
    const std::size_t nt = r.sample_count(), nr = r.receiver_count();
    if (nr != p.receivers.size() || r.velocity.size() != nr * nt * 3)
        throw RuntimeError("record_probes: the result has " + std::to_string(nr) + " receivers, the problem " +
                           std::to_string(p.receivers.size()));
    std::size_t elements = 0;
    for (const ProbeChannels& ch : p.probes) elements += ch.elements.size();
    std::vector<double> velocity(elements * nt * 3);
    std::size_t e = 0;
    for (const ProbeChannels& ch : p.probes)
        for (const auto& element : ch.elements) {
            for (std::size_t t = 0; t < nt; ++t) {
                const Vec3 v = probe_element_mean(
                    element, [&](std::size_t receiver) { return r.velocity.data() + (receiver * nt + t) * 3; });
                std::copy(v.begin(), v.end(), velocity.begin() + std::ptrdiff_t((e * nt + t) * 3));
            }
            ++e;
        }
    r.probes = probe_records(p.probes, velocity.data(), nt);
    const std::size_t keep = p.scene_receiver_count;
    r.receiver_names.resize(keep);
    r.receiver_positions.resize(keep);
    r.displacement.resize(keep * nt * 3);
    r.velocity.resize(keep * nt * 3);
}

std::vector<ProbeRecord> probe_records(const std::vector<ProbeChannels>& probes, const double* element_velocity,
                                       std::size_t nt) {
    std::vector<ProbeRecord> records;
    for (const ProbeChannels& ch : probes) {
        ProbeRecord rec;
        rec.name = ch.name;
        rec.array = ch.array;
        rec.delays = ch.delays;
        rec.active_first = ch.active_first;
        rec.active_count = ch.active_count;
        rec.element_signals.assign(ch.elements.size() * nt, 0.0);
        for (std::size_t e = 0; e < ch.elements.size(); ++e, element_velocity += nt * 3)
            for (std::size_t t = 0; t < nt; ++t) {
                const double* v = element_velocity + t * 3;
                rec.element_signals[e * nt + t] =
                    v[0] * ch.direction[0] + v[1] * ch.direction[1] + v[2] * ch.direction[2];
            }
        records.push_back(std::move(rec));
    }
    return records;
}

std::size_t RecordingRows::term_count() const {
    std::size_t n = 0;
    for (const auto& row : rows) n += row.size();
    return n;
}

RecordingRows recording_rows(std::size_t receivers, const std::vector<ProbeChannels>& probes,
                             std::size_t scene_receiver_count) {
    RecordingRows r;
    r.kept_receivers = probes.empty() ? receivers : std::min(receivers, scene_receiver_count);
    for (std::size_t i = 0; i < r.kept_receivers; ++i) r.rows.push_back({{i, 1.0}});
    for (const ProbeChannels& ch : probes) r.rows.insert(r.rows.end(), ch.elements.begin(), ch.elements.end());
    return r;
}

ProbeTraceRows probe_trace_rows(const WaveProblem& p) {
    ProbeTraceRows rows;
    for (const ProbeChannels& ch : p.probes)
        for (std::size_t e = 0; e < ch.elements.size(); ++e) {
            if (ch.elements[e].empty()) continue;  // outside the active aperture: no receivers
            rows.names.push_back(ch.array ? ch.name + " / element " + std::to_string(e + 1) : ch.name);
            rows.positions.push_back(
                probe_element_mean(ch.elements[e], [&](std::size_t i) { return p.receivers[i].snapped.data(); }));
        }
    return rows;
}

std::vector<double> probe_trace_samples(const WaveProblem& p, const std::vector<double>& samples) {
    const std::size_t nr = p.receivers.size();
    if (p.probes.empty() || nr == 0) return samples;
    const std::size_t keep = p.scene_receiver_count, nt = samples.size() / (3 * nr);
    std::size_t rows = keep;
    for (const ProbeChannels& ch : p.probes)
        for (const auto& element : ch.elements) rows += element.empty() ? 0 : 1;
    std::vector<double> out(nt * rows * 3);
    for (std::size_t t = 0; t < nt; ++t) {
        const double* in = samples.data() + t * nr * 3;
        double* row = out.data() + t * rows * 3;
        std::copy(in, in + keep * 3, row);
        row += keep * 3;
        for (const ProbeChannels& ch : p.probes)
            for (const auto& element : ch.elements) {
                if (element.empty()) continue;
                const Vec3 u = probe_element_mean(element, [&](std::size_t i) { return in + i * 3; });
                row = std::copy(u.begin(), u.end(), row);
            }
    }
    return out;
}

}  // namespace voxwave
