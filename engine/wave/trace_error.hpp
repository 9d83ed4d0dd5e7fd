// The measures between two runs' receiver traces:
// - the paper's error (seed 000 eq. 18):
//   Err = (1 / nc) sum_i [ sum_j (u_ij^obs - u_ij^ref)^2 / sum_j (u_ij^ref)^2 ]
//   over the channels i (receiver x component) whose reference has energy, time samples j;
// - the reflection of an absorbing boundary, per receiver r over all components c and samples j:
//   20 log10( ||u_box - u_ref|| / ||u_ref|| ),  ||v||^2 = sum_c sum_j v_rcj^2.
#pragma once

#include <vector>

#include "scene/result.hpp"

namespace voxwave {

// Receivers are matched by name. The reference is read at the observed run's sample times by
// linear interpolation (runs of different dt compare), up to the shorter of the two durations.
// Throws InputError("", "receivers", ...) when no receiver is in both, or no sample overlaps.
double paper_trace_error(const Result& observed, const Result& reference);

// What a boundary sent back, in dB per receiver of `reference` (in its order): `box` is the run with
// the boundary, `reference` the same run in a box whose faces return nothing inside the window
// (same method, grid and time step). Both must sample the same nodes at the same times, so the
// difference is the boundary's echo and nothing else: receivers matched by name, positions equal
// to 1e-9 of the grid spacing, the same sample times. Throws InputError("", "receivers", ...)
// naming what differs, or a reference receiver without signal (no level to compare with).
std::vector<double> receiver_reflection_db(const Result& box, const Result& reference);

}  // namespace voxwave
