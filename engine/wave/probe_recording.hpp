// From the receivers' traces to the probes' signals (docs/architecture.md#probes-and-scans).
#pragma once

#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// Fills r.probes from the velocity traces of the probes' face nodes (problem.probes) and then
// drops those receivers, so that r's receivers are the scene's again. Every runner calls it once
// on the whole problem's result (run_wave, the distributed run's rank 0).
void record_probes(const WaveProblem& problem, Result& r);

}  // namespace voxwave
