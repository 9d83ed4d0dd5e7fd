// Running a wave problem to a result, on the backend the problem asks for.
#pragma once

#include <string>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/halo_exchange.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// Runs the whole time loop; `backend_note` gets the one-line backend decision. Receivers
// record u^n and the central-difference velocity (u^{n+1} - u^{n-1}) / 2dt at t_n = n dt for
// n = 0 .. steps-1. Throws Cancelled if progress returns false.
// `slab`: set when `problem` is one subdomain of a distributed run (engine/distributed).
struct SlabHooks {
    HaloExchange* exchange = nullptr;  // fills the ghost nodes after every step
    int cuda_device = -1;              // -1: the first device
    bool overlap_exchange = true;      // CUDA: CudaEngineOptions::overlap_exchange
};
Result run_wave(const WaveProblem& problem, const ProgressFn& progress, std::string* backend_note = nullptr,
                const SlabHooks& slab = {});

}  // namespace voxwave
