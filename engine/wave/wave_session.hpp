// An interactive run: the time loop advanced in chunks by a front end (the GUI's controller),
// with the wavefield readable between chunks as slices and the receiver traces growing.
// run_wave is the batch form of the same loop; both give the same traces (tested).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scene/result.hpp"
#include "wave/slice.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// Node counts along the plane's two axes, and the number of node planes along its normal.
std::array<int, 3> slice_extent(const VoxelGrid& grid, SlicePlane plane);

class WaveSession {
public:
    // Takes the problem (its steps may be 0: the session runs until stopped). Resolves the
    // backend once (auto: CUDA when present); throws InputError like run_wave for bad settings.
    explicit WaveSession(WaveProblem problem);
    ~WaveSession();
    WaveSession(const WaveSession&) = delete;
    WaveSession& operator=(const WaveSession&) = delete;

    const WaveProblem& problem() const { return problem_; }
    Backend backend() const { return backend_; }
    const std::string& backend_note() const { return backend_note_; }

    std::int64_t step() const { return step_; }
    double time() const { return double(step_) * problem_.dt; }

    // Advances `count` steps, recording u^n (before each step) at every receiver.
    void advance(std::int64_t count);

    // The wavefield now, on node plane `index` (clamped) along the plane's normal.
    SliceImage slice(SlicePlane plane, int index, SliceQuantity quantity) const;
    // The same slice written on the GPU into `device_out` (width x height floats of device
    // memory, e.g. a mapped OpenGL buffer): no host copy. CUDA backend only (RuntimeError otherwise).
    void slice_to_device(SlicePlane plane, int index, SliceQuantity quantity, float* device_out) const;

    // Receiver samples recorded so far: [(n * receivers + r) * 3 + c] for n = 0 .. sample_count-1.
    const std::vector<double>& receiver_samples() const { return samples_; }
    std::size_t sample_count() const;

    // The traces so far as a result (velocity by central differences, the last sample's by a
    // backward difference), ready for write_result_h5.
    Result result(double wall_seconds = 0) const;

    // The whole wavefield now as one snapshot of every node (scene/snapshots.hpp): u^n and v by
    // the backward difference (u^n - u^{n-1}) / dt (u^{n+1} does not exist yet), for "Save
    // snapshot" in the explorer.
    SnapshotSeries snapshot() const;

private:
    struct Stepper;
    template <class CpuEngine>
    struct CpuStepper;
    template <class CudaEngine>
    struct CudaStepper;
    template <class Real>
    struct PlaneCpuStepper;
    struct PlaneCudaStepper;

    WaveProblem problem_;
    Backend backend_ = Backend::Cpu;
    std::string backend_note_;
    std::unique_ptr<Stepper> stepper_;
    std::int64_t step_ = 0;
    std::vector<double> samples_;
};

}  // namespace voxwave
