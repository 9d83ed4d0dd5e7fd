#include "wave/probe_recording.hpp"

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
    for (const ProbeChannels& ch : p.probes) {
        ProbeRecord rec;
        rec.name = ch.name;
        rec.array = ch.array;
        rec.delays = ch.delays;
        rec.active_first = ch.active_first;
        rec.active_count = ch.active_count;
        rec.element_signals.assign(ch.elements.size() * nt, 0.0);
        for (std::size_t e = 0; e < ch.elements.size(); ++e)
            for (const auto& [receiver, weight] : ch.elements[e]) {
                const double* v = r.velocity.data() + receiver * nt * 3;
                double* out = rec.element_signals.data() + e * nt;
                for (std::size_t t = 0; t < nt; ++t)
                    out[t] += weight * (v[3 * t] * ch.direction[0] + v[3 * t + 1] * ch.direction[1] +
                                        v[3 * t + 2] * ch.direction[2]);
            }
        r.probes.push_back(std::move(rec));
    }
    const std::size_t keep = p.scene_receiver_count;
    r.receiver_names.resize(keep);
    r.receiver_positions.resize(keep);
    r.displacement.resize(keep * nt * 3);
    r.velocity.resize(keep * nt * 3);
}

}  // namespace voxwave
