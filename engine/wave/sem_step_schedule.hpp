// Which schedule the CUDA SEM step runs (sem_stepper_cuda.hpp): the column sweep
// (sem_cell_sweep_kernel.cuh: eight colour launches of cells swept along z, no atomics, u read
// about once a node) or the element-parallel scatter (sem_scatter_kernel.cuh: one launch over
// every solid element with atomic adds into a force buffer, then a node update). Both give the
// CPU engine's step to rounding; the choice is speed only.
//
// The automatic rule, here alone: the scatter where the model has at most
// kSemScatterElementsPerSm solid elements an SM, the sweep above. Why: the sweep's step costs about
// 8 x waves x (L + 1/4) element-plane latencies of a block (sem_cell_planes_for's model), and a
// plane's latency does not shrink with the cells a launch holds, so on a small model the sweep's
// step stops shrinking with the model: at 30^3 elements (205 an SM of an H200's 132; p = 3, the
// Stokes runs that reach Err 1e-3) it measured 230-310 us for 0.75 M nodes, about 2.4 G
// node-steps/s, against 6.5-7.6 G at 60^3 (1636 an SM), where its colours fill the device several
// times over. The scatter's work is spread over every element at once and shrinks with the model,
// at the cost of atomics and a second pass over the nodes. The threshold lies between the two
// measured sizes; the device-run phase sem-schedule times both schedules at 30 to 60 elements an
// edge to place it.
#pragma once

#include <cstddef>
#include <string>

#include "core/errors.hpp"

namespace voxwave {

enum class SemCudaSchedule { Auto, Sweep, Scatter };

inline const char* to_string(SemCudaSchedule s) {
    return s == SemCudaSchedule::Sweep ? "sweep" : (s == SemCudaSchedule::Scatter ? "scatter" : "auto");
}

// "auto", "sweep" or "scatter"; InputError("", field, ...) otherwise.
inline SemCudaSchedule parse_sem_cuda_schedule(const std::string& s, const std::string& field) {
    if (s == "auto") return SemCudaSchedule::Auto;
    if (s == "sweep") return SemCudaSchedule::Sweep;
    if (s == "scatter") return SemCudaSchedule::Scatter;
    throw InputError("", field, "unknown schedule '" + s + "' (sweep, scatter or auto)");
}

// Solid elements an SM up to which the automatic choice is the scatter (see above).
constexpr long long kSemScatterElementsPerSm = 512;

// The schedule `requested` resolves to on a device of `sms` SMs for a model of `solid_elements`
// (Auto by the rule above; the others as they are).
inline SemCudaSchedule resolve_sem_cuda_schedule(SemCudaSchedule requested, std::size_t solid_elements, int sms) {
    if (requested != SemCudaSchedule::Auto) return requested;
    const long long per_sm = (long long)solid_elements / (sms < 1 ? 1 : sms);
    return per_sm <= kSemScatterElementsPerSm ? SemCudaSchedule::Scatter : SemCudaSchedule::Sweep;
}

}  // namespace voxwave
