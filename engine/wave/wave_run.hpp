// Running a wave problem to a result, on the backend the problem asks for.
#pragma once

#include <string>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// Runs the whole time loop; `backend_note` gets the one-line backend decision. Receivers
// record u^n and the central-difference velocity (u^{n+1} - u^{n-1}) / 2dt at t_n = n dt for
// n = 0 .. steps-1. Throws Cancelled if progress returns false.
Result run_wave(const WaveProblem& problem, const ProgressFn& progress, std::string* backend_note = nullptr);

}  // namespace voxwave
