// Many shots of one model stepped together (docs/architecture.md#batched-shots): an FMC with N
// elements, or a scan, is N runs that differ only in their sources and receivers. The model's
// tables are built and uploaded once for the group. On the CPU the B displacement fields are
// held with the batch innermost ([node][component][member]), so each element's material, the
// node's update factors and all index arithmetic are loaded once and applied to B right-hand
// sides, the members being the SIMD lanes of the element kernel. On the GPU each member is a
// single run's state and a step is the fused single-shot kernel once per member, all of them
// reading the shared tables (batched_shots_cuda.cu says why the batch is not inside the kernel).
//
// Supported: VFEM and OVFEM in FP64 and FP32 on the CPU and CUDA, TCOVFEM on the CPU (each
// member's element product through the INT8 digits, the element's matrix and factors shared), with
// Rayleigh damping, the sponge and fixed nodes. Otherwise (TCOVFEM on CUDA, a PML, sem, 2D,
// snapshots) run_batched_shots runs the shots one at a time through run_wave and its note says why.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/host_device.hpp"
#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/probe_recording.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// What one shot adds to the shared model: its sources, receivers and receiving probes (the
// probes' element weights index into `receivers`); receivers [0, scene_receiver_count) are the
// scene's own, kept in the shot's Result.
struct ShotSources {
    std::vector<SourceTerm> sources;
    std::vector<ReceiverPoint> receivers;
    std::vector<ProbeChannels> probes;
    std::size_t scene_receiver_count = 0;
};

// A problem's own sources, receivers and probes as one shot.
ShotSources shot_sources(const WaveProblem& problem);

// Empty when `model` can be stepped batched on `backend` (Cpu or Cuda); otherwise why not (one
// line, for the note).
std::string batched_shots_unsupported(const WaveProblem& model, Backend backend);

// Device or host memory one batch member needs (u, u-, u+ or f: 9 values a node).
std::size_t batched_member_bytes(const WaveProblem& model);
// The batch size "from memory": on CUDA as many members as fit in the device's memory less the
// model's tables and 256 MiB, at most kMaxShotBatch and at most `shots`; on the CPU 1 (its single
// engine's fused sweep keeps f out of memory and beats the batched step there).
inline constexpr std::size_t kMaxShotBatch = 32;
std::size_t default_shot_batch(const WaveProblem& model, Backend backend, std::size_t shots);

struct BatchedShotOptions {
    std::size_t batch = 0;  // members stepped together; 0: default_shot_batch
    int cuda_device = -1;   // -1: the first device
};

// Runs every shot on `model` (its own sources, receivers and probes are ignored; its backend,
// method, precision, damping, boundary, dt and steps are used) in groups of options.batch. Each
// Result is what run_wave gives for the model with that shot's sources and receivers (probes
// recorded). `progress` counts steps over all shots; `note` gets the backend's note and the
// batching decision.
std::vector<Result> run_batched_shots(const WaveProblem& model, const std::vector<ShotSources>& shots,
                                      const BatchedShotOptions& options, const ProgressFn& progress,
                                      std::string* note = nullptr);

// One member's recording: the displacement and velocity of its recording rows (probe_recording.hpp:
// the receivers its Result keeps, then its probes' elements), [(row nt + t) 3 + c] as Result.
struct ShotTraces {
    std::vector<double> displacement, velocity;
};
// A group's recordings and the seconds of its time loop (the steps, their sources and the rows'
// samples); the rest of the group's run is its set-up (allocation, the model's tables and upload,
// the traces' assembly), which the scan reports apart from its shot loops. On CUDA the loop is
// broken down by events around each step's kernels: the members' fused steps, the one launch
// adding every member's sources, the one reducing u to the rows; the loop less these is the
// copies, the launches' gaps and the waits for the host (all 0 on the CPU).
struct ShotGroupRecording {
    std::vector<ShotTraces> members;
    double loop_seconds = 0;
    double step_kernel_seconds = 0, source_seconds = 0, row_seconds = 0;
};
// Called after each step with the number of steps done; false cancels (Cancelled).
using StepProgress = std::function<bool(std::int64_t)>;

// The rows a member records (recording_rows of its receivers and probes).
RecordingRows shot_recording_rows(const ShotSources& shot);

// A group's sources as the batched CUDA step adds them after its members' steps, one launch for
// all: the group's sources are numbered member after member, each member's in its order (q, the
// index of its force in a step's block), and every (member, node) that carries one is one entry,
// its sources [first[k], first[k + 1]) in `term` in increasing q. One thread an entry and
// component adds them one after another (add_node_sources), the rounding of adding the sources in
// order at that node, as a single run's step does, with no atomics and no scan of the whole list.
struct GroupSourceNodes {
    std::vector<long long> node;   // member * member_values + node, where the member's state starts
    std::vector<long long> first;  // entries + 1
    std::vector<long long> term;   // source indices q, entry after entry
    std::size_t entries() const { return node.size(); }
};
GroupSourceNodes group_source_nodes(const std::vector<const ShotSources*>& group, std::size_t member_values);

// Entry k's sources added to `value` (component c of its node's u^{n+1}), in order: scale[q] the
// source's dt^2/m / (1 + h), force[3 q + c] its force times the wavelet this step.
template <class Real>
VOXWAVE_HD Real add_node_sources(const long long* first, const long long* term, const Real* scale, const Real* force,
                                 long long k, int c, Real value) {
    for (long long i = first[k]; i < first[k + 1]; ++i) {
        const long long q = term[i];
        value += scale[q] * force[3 * q + c];
    }
    return value;
}

// One group on the CPU / on a CUDA device: model.steps steps of all members together.
ShotGroupRecording run_shot_group_cpu(const WaveProblem& model, const std::vector<const ShotSources*>& group,
                                      const StepProgress& progress);
// batched_shots_cuda.cu; a build without CUDA refuses (engine/without_cuda.cpp).
ShotGroupRecording run_shot_group_cuda(const WaveProblem& model, const std::vector<const ShotSources*>& group,
                                       const StepProgress& progress, int device, std::string* device_name);

}  // namespace voxwave
