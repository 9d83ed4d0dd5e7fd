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
// and shrinks with the model, at the cost of atomics and about twice the sweep's bytes a node.
// With six shared slots a point (ScatterBlockShape: 7 blocks of four warps an SM, 73 registers a
// thread; at p = 4 in FP64 4 blocks of eight warps, 64) and the node update fused
// into the element launch it runs at 6-12 G node-steps/s FP64 on large models (2.3-2.4 TB/s at
// p = 4), so it wins well beyond the small ones. Measured on an H100 (132 SMs; bench-sem --steps
// 100, us a step, scatter / sweep, FP64; elements an SM in brackets):
//   p = 2: 30^3 (205) 40 / 88, 40^3 (485) 86 / 137, 60^3 (1636) 265 / 321;
//   p = 3: 30^3 106 / 134, 40^3 225 / 241, 60^3 723 / 626;
//   p = 4: 15^3 (26) 23 / 118, 30^3 156 / 252, 40^3 341 / 515, 60^3 1159 / 1432.
// The earlier kernel (8 blocks an SM, 64 registers), a little slower, put the crossings beyond:
// p = 2 50^3 (947) 165 / 197; p = 3 50^3 440 / 481; p = 4 80^3 (3879) 3309 / 3297 (FP32 1851 / 2462).
// So p = 3 crossed between 947 and 1636 an SM (below), p = 4 at about 3900 or beyond, p = 2 above 1636;
// the thresholds sit at or below the crossings. The scatter has since become 2-4 % shorter at p = 4
// (each fused launch a programmatic dependent, even-odd D products; measured on an H200), which
// moves the crossings further out, not in. At p = 3 its shared-memory layout with fewer bank
// conflicts (ScatterSharedLayout) made the scatter a third shorter, and on an H200 (bench-sem
// --steps 100, FP64, scatter / sweep) it won at 60^3 (1636 an SM) 436 / 566 us and at 80^3 (3879)
// 1024 / 1321 (FP32 289 / 406, 673 / 826), so p = 3 takes the threshold of p = 4. The device-run
// phase sem-schedule times both schedules at 15 to 60 elements an edge to move them.
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
constexpr long long sem_scatter_elements_per_sm(int order) { return order <= 2 ? 2048 : 4096; }

// The schedule `requested` resolves to on a device of `sms` SMs for a model of `solid_elements`
// of order `order` (Auto by the rule above; the others as they are).
inline SemCudaSchedule resolve_sem_cuda_schedule(SemCudaSchedule requested, int order, std::size_t solid_elements,
                                                 int sms) {
    if (requested != SemCudaSchedule::Auto) return requested;
    const long long per_sm = (long long)solid_elements / (sms < 1 ? 1 : sms);
    return per_sm <= sem_scatter_elements_per_sm(order) ? SemCudaSchedule::Scatter : SemCudaSchedule::Sweep;
}

}  // namespace voxwave
