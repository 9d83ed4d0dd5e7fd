// The spectral voxel elements (run.method "sem") on the GPU: the scheme and the node grid of
// sem_stepper_cpu.hpp, the element kernel fused with the central-difference update and no
// atomics. The elements are grouped into cells, a row of a few elements along x by a few element
// planes along z (sem_cell_schedule.hpp), and the cells run in eight colours (cells of one colour
// share no node), one launch a colour and a step (sem_cell_sweep_kernel.cuh). A block sweeps one
// cell along z, element plane by element plane; a thread owns one GLL column of an element
// ((p + 1)^2 threads an element), reads its column's u and z-direction stresses back from its own
// shared-memory entries where registers would cost resident warps (sem_cell_sweep_kernel.cuh says
// which), and exchanges the x and y neighbours' w and weighted stresses through shared memory
// (sem_element_kernel.hpp's sum-factorised arithmetic). The force of the node plane between two
// elements of a cell passes to the upper element in registers, that of the face between two
// elements of the row to the next element through shared memory; at the cell's faces the cell of
// the node's first colour writes the partial force, later ones add to it (one writer a colour),
// and the cell of the last colour applies the update with the complete force and writes u+ into a
// third state buffer (u and u- stay intact for the later colours). Nodes inside a cell never touch
// the force buffer. With a PML the layer's two passes follow the sweep and correct its u+
// (sem_pml_correction_cuda.cuh). One small kernel adds the sources and records the receivers
// (sem_points_kernel.cuh). FP64 and FP32;
// the CPU stepper is the oracle (the sums at shared nodes run in colour order, not the CPU's
// element order: equal to rounding).
//
// Up to a few thousand elements an SM the step runs element-parallel instead (the scatter,
// sem_scatter_kernel.cuh; sem_step_schedule.hpp chooses, by the solid elements an SM): one launch
// over every solid element, (p + 1)^2 threads an element (one a GLL line along each axis), adds
// K_e w_e into a force buffer (atomics at the nodes an element shares, a plain store at its inner
// ones). Without a PML or a ghost exchange the next step's launch applies the update where it
// loads its points (three force buffers rotate; SemScatterFused), so a chunk of steps is one
// launch a step and one node update at its end; otherwise one thread a node applies the update
// (with the sources and receivers) after each element launch, and the PML passes and the ghost
// exchange follow as after the sweep.
// The atomics' order at shared nodes varies from run to run: equal to rounding, not bitwise
// repeatable.
//
// No CUDA types here (a build without CUDA refuses every entry point from without_cuda.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/halo_exchange.hpp"
#include "wave/sem_step_schedule.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

class SemCudaTimeStepper {
public:
    // problem.method must be sem. device: index into cuda_devices(), -1 the first. cell_planes:
    // element planes a cell (sem_cell_schedule.hpp), 0 to choose them from the model and the
    // device; schedule: the column sweep, the element-parallel scatter or the automatic choice
    // (sem_step_schedule.hpp); the results agree to rounding whatever the choice. Throws
    // InputError("", "backend", ...) without a device, InputError("", "grid", ...) when the
    // model does not fit in the device's free memory.
    explicit SemCudaTimeStepper(const WaveProblem& problem, int device = -1, int cell_planes = 0,
                                SemCudaSchedule schedule = SemCudaSchedule::Auto);
    ~SemCudaTimeStepper();
    SemCudaTimeStepper(const SemCudaTimeStepper&) = delete;
    SemCudaTimeStepper& operator=(const SemCudaTimeStepper&) = delete;

    std::size_t node_count() const;
    // SoA vectors [component * node_count + node], in double whatever the precision.
    void set_state(const std::vector<double>& u_prev, const std::vector<double>& u);
    std::vector<double> displacement() const;
    std::vector<double> previous_displacement() const;
    // u at the problem's receivers now, [r * 3 + c] (a gather on the device, not the whole field).
    std::vector<double> receiver_displacements() const;
    // Advances `count` steps from step n0; receiver_displacement (when not null) gets each step's
    // u^n at the receivers before the step: [(n - n0) * receivers * 3 + r * 3 + c], and
    // receiver_displacement_after u at the receivers after the last step, [r * 3 + c], both in the
    // call's one copy back to the host. The fused scatter leaves its last node update pending until
    // the next call continues the steps or something reads or sets the state (which then does it).
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>* receiver_displacement = nullptr,
                 std::vector<double>* receiver_displacement_after = nullptr);
    // K v without damping, in double.
    std::vector<double> stiffness_times(const std::vector<double>& v) const;
    // A subdomain of a distributed run (engine/distributed): after each step the exchange fills
    // the ghost nodes of u+ with the neighbours' values on the device, in stream order after the
    // step's kernels (wave/halo_exchange.hpp; null: none). The state is in the x-fastest node
    // numbering the exchange packs, so it moves u itself, no staging copy. std::logic_error when
    // the exchange's plan is not of this node grid.
    void set_halo_exchange(HaloExchange* exchange);
    // Times `steps` steps from the current state with device events (after the caller's warm-up).
    CudaStepTiming time_steps(std::int64_t n0, std::int64_t steps);
    std::size_t device_bytes() const;
    std::string device_name() const;
    int cell_planes() const;           // element planes a cell, as chosen
    int cell_width() const;            // elements a cell along x
    SemCudaSchedule schedule() const;  // the schedule the step runs (never Auto)

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Runs the whole sem time loop on the GPU into `r` (as run_wave documents); `exchange`: the
// ghost exchange of a subdomain of a distributed run (set_halo_exchange), null for one process.
void run_sem_cuda(const WaveProblem& problem, const ProgressFn& progress, Result& r, int device = -1,
                  HaloExchange* exchange = nullptr);

}  // namespace voxwave
