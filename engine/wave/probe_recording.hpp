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

// What a recording keeps of a shot's receivers, as rows of weighted receivers: first the
// receivers a Result keeps, one each with weight 1 (the scene's when there are probes, else
// all of them, as record_probes leaves them), then every element of every probe in order, its
// face nodes' weights (an element outside the active aperture is a row with no terms). The
// batched runners reduce their samples to these rows on the step (on the device on CUDA), so an
// array's face nodes never travel: a 32-element FMC group keeps 32 x 32 rows, not 86,000 nodes.
struct RecordingRows {
    std::size_t kept_receivers = 0;
    std::vector<std::vector<std::pair<std::size_t, double>>> rows;  // (receiver, weight)
    std::size_t size() const { return rows.size(); }
    std::size_t term_count() const;
};
RecordingRows recording_rows(std::size_t receivers, const std::vector<ProbeChannels>& probes,
                             std::size_t scene_receiver_count);

// One sample of every row: out[row * 3 + c], each the probe_element_mean of its terms.
template <class At>
void reduce_recording_rows(const RecordingRows& rows, At at, double* out) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Vec3 v = probe_element_mean(rows.rows[i], at);
        for (std::size_t c = 0; c < 3; ++c) out[i * 3 + c] = v[c];
    }
}

// The probes' records from their elements' velocity, elements of all probes in order,
// [(element * nt + t) * 3 + c]: element_signals[e nt + t] = v_e(t) . direction.
std::vector<ProbeRecord> probe_records(const std::vector<ProbeChannels>& probes, const double* element_velocity,
                                       std::size_t nt);

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
