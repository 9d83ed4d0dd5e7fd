// The plane-strain (2D) time loop on a CUDA device, FP64 or FP32: the CPU engine's scheme
// (plane_strain_stepper_cpu.hpp, the oracle) in one node-centred kernel a step. Each thread owns
// one node, computes the element forces of its (up to) four squares with the shared
// plane_strain_element_force, keeps its corner's share, and applies the central-difference
// update, writing u+ to a third buffer: no atomics, no force vector in memory. A 1024 x 1024
// model moves about 80 bytes a node a step (u, u-, u+, dt^2/m, the h factors, the ids), so the
// kernel is bound by memory, and recomputing each element four times costs less than the force
// vector's round trip.
//
// No CUDA types here: plane_strain_stepper_cuda.cu defines it, engine/without_cuda.cpp refuses.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

class PlaneStrainStepperCuda {
public:
    // problem.dimensions must be 2; device -1: the first device. InputError without a device.
    explicit PlaneStrainStepperCuda(const WaveProblem& problem, int device = -1);
    ~PlaneStrainStepperCuda();
    PlaneStrainStepperCuda(const PlaneStrainStepperCuda&) = delete;
    PlaneStrainStepperCuda& operator=(const PlaneStrainStepperCuda&) = delete;

    std::size_t node_count() const;
    // SoA [component * node_count + node], 2 components, as the CPU engine.
    void set_state(const std::vector<double>& u_prev, const std::vector<double>& u);
    std::vector<double> displacement() const;
    std::vector<double> previous_displacement() const;
    // Steps first .. first + count - 1; when `receivers` is given, appends u of every receiver
    // (receiver-major within a step: [r * 2 + c]) after each step.
    void advance(std::int64_t first, std::int64_t count, std::vector<double>* receivers = nullptr);
    // Median device seconds of one step over `repeats` steps (CUDA events, after a warm-up).
    double median_step_seconds(int repeats);
    std::string device_name() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The whole run on the device, recording the receivers as run_wave does.
void run_plane_strain_cuda(const WaveProblem& problem, const ProgressFn& progress, Result& r, int device = -1);

}  // namespace voxwave
