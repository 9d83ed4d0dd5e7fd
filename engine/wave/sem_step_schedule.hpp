// Which schedule the CUDA SEM step runs (sem_stepper_cuda.hpp): the column sweep
// (sem_cell_sweep_kernel.cuh: eight colour launches of cells swept along z, no atomics, u read
// about once a node) or the element-parallel scatter (sem_scatter_kernel.cuh: one launch over
// every solid element with atomic adds into a force buffer, then a node update). Both give the
// CPU engine's step to rounding; the choice is speed only.
//
// The automatic rule, here alone: the scatter where the model has at most
// sem_scatter_elements_per_sm(p) solid elements an SM, the sweep above. Why: the sweep's step costs
// about 8 x waves x (L + 1/4) element-plane latencies of a block (sem_cell_planes_for's model), and
// a plane's latency does not shrink with the cells a launch holds, so on a small model the sweep's
// step stops shrinking with the model; the scatter's work is spread over every element at once
// and shrinks with the model, at the cost of atomics and a second pass over the nodes: it ran at
// a constant 3.7-4.2 G node-steps/s FP64 at every size, so it is throughput-bound, and its cost a
// node grows with p faster than the sweep's. Measured on an H100 (132 SMs; bench-sem --steps 100,
// us a step, sweep / scatter, FP64):
//   p = 2: 30^3 (205 an SM) 88 / 45, 40^3 (485) 156 / 144, 60^3 (1636) 320 / 517;
//   p = 3: 30^3 134 / 199 (FP32 109 / 119), 40^3 257 / 477, 60^3 624 / 1534;
//   p = 4: 15^3 (26 an SM, the Stokes sem4 at 16 mm) 170 / 47, 30^3 251 / 450, 60^3 1430 / 3404.
// So at p = 2 the threshold lies just above 485 an SM; at p = 3 and 4 the scatter loses from 205
// an SM. Taking the scatter's time as proportional to the elements (it is throughput-bound) and
// the sweep's as linear between 26 and 205 an SM, p = 4 crosses at about 90 an SM and p = 3
// (whose sweep is cheaper still) at about 120; the thresholds sit below both, where the scatter
// wins by the measurements' margin. The device-run phase sem-schedule times both schedules at 15
// to 60 elements an edge to move them.
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

// Solid elements an SM up to which the automatic choice is the scatter at order `order` (see above).
constexpr long long sem_scatter_elements_per_sm(int order) { return order <= 2 ? 512 : 256; }

// The schedule `requested` resolves to on a device of `sms` SMs for a model of `solid_elements`
// of order `order` (Auto by the rule above; the others as they are).
inline SemCudaSchedule resolve_sem_cuda_schedule(SemCudaSchedule requested, int order, std::size_t solid_elements,
                                                 int sms) {
    if (requested != SemCudaSchedule::Auto) return requested;
    const long long per_sm = (long long)solid_elements / (sms < 1 ? 1 : sms);
    return per_sm <= sem_scatter_elements_per_sm(order) ? SemCudaSchedule::Scatter : SemCudaSchedule::Sweep;
}

}  // namespace voxwave
