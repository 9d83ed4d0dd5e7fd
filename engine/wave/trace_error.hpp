// The paper's error measure between two runs' receiver traces (seed 000 eq. 18):
//   Err = (1 / nc) sum_i [ sum_j (u_ij^obs - u_ij^ref)^2 / sum_j (u_ij^ref)^2 ]
// over the channels i (receiver x component) whose reference has energy, time samples j.
#pragma once

#include "scene/result.hpp"

namespace voxwave {

// Receivers are matched by name. The reference is read at the observed run's sample times by
// linear interpolation (runs of different dt compare), up to the shorter of the two durations.
// Throws InputError("", "receivers", ...) when no receiver is in both, or no sample overlaps.
double paper_trace_error(const Result& observed, const Result& reference);

}  // namespace voxwave
