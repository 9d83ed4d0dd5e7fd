// Running a wave problem to a result, on the backend the problem asks for.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "core/backend.hpp"
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

// Runs `release` (the end of a run's engine: its buffers, device memory included, freed) and
// counts its time with the engine's set-up in r.setup_seconds, so that wall_seconds -
// setup_seconds is the time loop alone. Why: freeing a CUDA engine's buffers takes from tens of
// microseconds to milliseconds, which is nothing of the method's time loop.
template <class Release>
void release_engine(Result& r, Release&& release) {
    const auto t0 = std::chrono::steady_clock::now();
    release();
    r.setup_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What a result says about its run before the time loop fills it (run_wave's and a live
// session's): method, precision, backend, stages, spacing, dt, steps, the receivers' names and
// snapped positions.
Result result_header(const WaveProblem& problem, Backend backend);

// Shots of one model back to back (scans, docs/architecture.md#probes-and-scans): the stepper
// (on CUDA, with its device buffers) is built on the first shot and kept; each later shot
// re-reads the problem's sources and receivers and starts from rest. Between shots the caller
// may change `problem`'s sources, receivers and probes only (add_probe on the scan's base
// problem); the model, masses, boundary, dt and steps stay. The runner keeps a reference to
// `problem`. Each shot's result equals run_wave's for the same problem bit for bit (its
// setup_seconds: the first shot's stepper construction, a later shot's restart). sem and plane
// strain, which take no probes, run a fresh run_wave a shot.
class ShotRunner {
public:
    explicit ShotRunner(const WaveProblem& problem, int cuda_device = -1);
    ~ShotRunner();
    ShotRunner(const ShotRunner&) = delete;
    ShotRunner& operator=(const ShotRunner&) = delete;
    Result run(const ProgressFn& progress, std::string* backend_note = nullptr);
    // Seconds of the last shot's time loop alone (the steps and the receivers' samples).
    double last_loop_seconds() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace voxwave
