// From the receivers' traces to the probes' signals (docs/architecture.md#probes-and-scans).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// The one rule of a probe's reception: an element's value is the weighted mean
// sum_k w_k x(receiver_k) of its face nodes' values (the weights sum to 1, wave_problem.hpp),
// `at(receiver)` pointing at that receiver's three components. record_probes takes it of the
// velocity, the live traces (below) of the displacement.
template <class At>
Vec3 probe_element_mean(const std::vector<std::pair<std::size_t, double>>& element, At at) {
    Vec3 mean{0, 0, 0};
    for (const auto& [receiver, weight] : element) {
        const double* x = at(receiver);
        for (int c = 0; c < 3; ++c) mean[std::size_t(c)] += weight * x[c];
    }
    return mean;
}

// Fills r.probes from the velocity traces of the probes' face nodes (problem.probes) and then
// drops those receivers, so that r's receivers are the scene's again. Every runner calls it once
// on the whole problem's result (run_wave, the distributed run's rank 0).
void record_probes(const WaveProblem& problem, Result& r);

// The live view's traces of the receiving probes (the explorer's trace panel): one per piston,
// named after the probe, and one per active element of an array, "NAME / element K" (K from 1),
// each at the weighted mean of its face nodes' positions. In problem.probes' order.
struct ProbeTraceRows {
    std::vector<std::string> names;
    std::vector<Vec3> positions;
};
ProbeTraceRows probe_trace_rows(const WaveProblem& problem);

// Live samples of all the problem's receivers, [(n * receivers + r) * 3 + c] (WaveSession's
// layout), to those of the scene's receivers followed by the probe_trace_rows, the same layout:
// each probe row the probe_element_mean of its face nodes' displacement.
std::vector<double> probe_trace_samples(const WaveProblem& problem, const std::vector<double>& samples);

}  // namespace voxwave
