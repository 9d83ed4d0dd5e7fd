// The CUDA wave engine behind the same solver API as the CPU one (issue 3): VFEM and OVFEM in
// FP64 and FP32 with the moment kernel, and TCOVFEM on INT8 Tensor Cores (FP64 + INT8, M stages).
//
// The whole time loop stays on the GPU. By default each step is one fused node-centred kernel
// (fused_step.cuh: element forces summed per node in registers and shared memory, then the
// central-difference update, no atomics), with the moment kernel (voxel_step_fused_cuda.cu)
// or INT8 Tensor Cores (tcovfem_step_fused_cuda.cu), also on each subdomain of a distributed run
// (its ghost nodes filled after the step, halo_exchange.hpp). The split design, kept for
// comparison, runs a stiffness kernel (element rows along x, swept along z; forces
// combined across the warp and carried along z, then added to global memory) and an update
// kernel. A small point kernel adds the sources (in the fused step only after a PML or for many
// of them: fused_points.hpp); receiver samples collect in device memory and leave in batches.
//
// This header has no CUDA types so that CPU-only code (CLI, tests) can include it. In a build
// without CUDA every entry point throws InputError("", "backend", ...).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/fused_points.hpp"
#include "wave/halo_exchange.hpp"
#include "wave/slice.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

struct CudaStepTiming {
    double seconds = 0;  // wall time of the timed steps (device events)
    std::int64_t steps = 0;
};

// How TCOVFEM's Tensor Core outputs reach the global force vector in the split design (the fused
// step, the default, sums them in registers and shared memory and needs no global f).
enum class TcovfemMapping {
    Staged,        // through shared memory to the row emitter: plain adds, atomics only on seams (default: faster)
    PaperAtomics,  // the paper's mapping: every output added to global memory with an atomic
};

// How a step is organised, for every method (distributed subdomains too).
enum class MomentStepDesign {
    Auto,   // Fused unless VOXWAVE_CUDA_STEP=split (the benchmark measured Fused faster)
    Fused,  // one node-centred kernel per step: element forces, node sums, update; no atomics
    Split,  // element kernel adding into f (TCOVFEM: tcovfem_mapping), then the update kernel
};

struct CudaEngineOptions {
    TcovfemMapping tcovfem_mapping = TcovfemMapping::Staged;
    MomentStepDesign moment_step = MomentStepDesign::Auto;
    // Which CUDA device (index into cuda_devices()); -1: the first. A distributed run gives each
    // rank its own.
    int device = -1;
    // A subdomain of a distributed run (halo_exchange.hpp): after each step (the fused kernel or
    // the split pair, the PML's passes, the sources) its ghost nodes take the neighbours' u+.
    HaloExchange* exchange = nullptr;
    // With an exchange whose first phase is along z, the fused step without a PML overlaps that
    // phase with the interior (docs/architecture.md, "Distributed runs"): the node planes the
    // neighbours need first, their exchange on a stream of its own, the interior meanwhile. The
    // same values as without it, bit for bit; false: the whole step, then the exchange.
    bool overlap_exchange = true;
    // The fused step's sources and receivers: in the kernel or in one launch after it
    // (fused_points.hpp). An overlapped step's windows keep them in the kernel: its edge windows'
    // u+ leaves for the neighbours while the interior still runs.
    FusedPoints fused_points = FusedPoints::Auto;
};

class CudaTimeStepper {
public:
    // Uses problem.method, .precision and .stages, which keep the run rules (assert_run_rules;
    // std::logic_error otherwise). Throws InputError("", "run.method", ...) for TCOVFEM on a
    // device without INT8 Tensor Cores, InputError("", "backend", ...) when there is no device,
    // and InputError("", "grid", "model needs X GiB of GPU memory, the device has Y GiB free")
    // when the model does not fit.
    explicit CudaTimeStepper(const WaveProblem& problem, CudaEngineOptions options = {});
    ~CudaTimeStepper();
    CudaTimeStepper(const CudaTimeStepper&) = delete;
    CudaTimeStepper& operator=(const CudaTimeStepper&) = delete;

    std::size_t node_count() const;
    // The next shot of a scan on this model (wave_run.hpp's ShotRunner): re-reads the sources and
    // receivers of the WaveProblem the stepper was built on (the caller changed only those) and
    // puts every field at rest; the model's buffers stay on the device.
    void restart_shot();
    // SoA vectors [component * node_count + node], in double whatever the precision.
    void set_state(const std::vector<double>& u_prev, const std::vector<double>& u);
    std::vector<double> displacement() const;
    std::vector<double> previous_displacement() const;
    // u (previous: u^{n-1}) at `nodes` only, [i * 3 + c]: gathered on the device, so only these
    // values are copied back (wavefield snapshots).
    std::vector<double> gather(const std::vector<std::size_t>& nodes, bool previous = false) const;

    // Advances `count` steps from step n0 (t_n = n dt, source forces at t_n). When
    // receiver_displacement is not null it gets, for each step n, the receivers' u^n before
    // the step: [(n - n0) * receivers * 3 + r * 3 + c]; samples are copied back in batches.
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>* receiver_displacement = nullptr);

    // Slice `plane` at node plane `index` of `quantity` into device memory (width x height floats).
    void write_slice(SlicePlane plane, int index, SliceQuantity quantity, float* device_out) const;

    // u at the receivers now, [r * 3 + c].
    std::vector<double> receiver_displacements() const;

    // K v without damping (TCOVFEM: INT8 Tensor Cores + the FP64 diagonal), in double.
    std::vector<double> stiffness_times(const std::vector<double>& v) const;

    // Median time of `repetitions` stiffness products on the current state (device events).
    double median_stiffness_seconds(int repetitions) const;
    // Median per-kernel times of `repetitions` real steps from step n0 (advances the state).
    // With the fused step, `stiffness` is the whole fused kernel and `update` is 0.
    struct KernelSeconds {
        double stiffness = 0, update = 0, points = 0;
    };
    KernelSeconds median_kernel_seconds(std::int64_t n0, int repetitions);
    // Times `steps` steps from the current state (after the caller's warm-up).
    CudaStepTiming time_steps(std::int64_t n0, std::int64_t steps);
    // With a halo exchange: the median per-phase times of `repetitions` real steps (device
    // events). kernels: the step's own kernels (fused step or split pair, PML, sources);
    // exchange: packing, transfer and unpacking of the ghost nodes; step: both.
    struct HaloPhaseSeconds {
        double kernels = 0, exchange = 0, step = 0;
    };
    HaloPhaseSeconds median_halo_phase_seconds(std::int64_t n0, int repetitions);
    // Benchmarks only: skip the exchange (wrong physics at the seams) to time the same steps
    // without communication.
    void set_exchange_enabled(bool enabled);
    // True when the steps run as one fused node-centred kernel (MomentStepDesign::Fused).
    bool fused_step() const;
    // True when the steps overlap the exchange's z phase with the interior (overlap_exchange, and
    // a fused step without a PML on a subdomain with enough node planes along z).
    bool overlapped_exchange() const;
    // True when the fused kernel samples the receivers (and, without a PML, adds the sources)
    // itself; false: one launch after it does (fused_points.hpp; re-decided by restart_shot).
    bool fused_kernel_points() const;
    // Device memory this model holds, bytes.
    std::size_t device_bytes() const;
    std::string device_name() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Floats in device memory: slices that stay on the GPU (the live-frame benchmark; the GUI's
// frames go to a GL buffer instead, see slice_gl_interop.hpp). Not zeroed.
class CudaFloatArray {
public:
    explicit CudaFloatArray(std::size_t count);
    ~CudaFloatArray();
    CudaFloatArray(const CudaFloatArray&) = delete;
    CudaFloatArray& operator=(const CudaFloatArray&) = delete;
    float* data() const { return data_; }
    std::size_t size() const { return count_; }
    std::vector<float> download() const;

private:
    struct Storage;  // the cuda::DeviceBuffer behind data_ (time_stepper_cuda.cu): no CUDA types here
    std::unique_ptr<Storage> storage_;
    float* data_ = nullptr;
    std::size_t count_ = 0;
};

// Device memory a model needs (bytes): u, u-, f (3 components each), dt^2/m, the sponge's two
// per-node factors, TCOVFEM's FP64 diagonal, one material byte per element.
std::size_t cuda_model_bytes(std::size_t elements, std::size_t nodes, Precision precision, bool tcovfem, bool sponge);
// Throws InputError("", "grid", "the model (N elements) needs X GiB of GPU memory, the device has
// Y GiB free") unless the model fits in the current device's free memory, with extra_bytes more
// (what the engine adds for this model: TCOVFEM's fused-step row handoff).
void check_cuda_model_fits(std::size_t elements, std::size_t nodes, Precision precision, bool tcovfem, bool sponge,
                           std::size_t extra_bytes = 0);

// Runs the whole time loop on the GPU into `r` (time, displacement, velocity as run_wave documents).
void run_wave_cuda(const WaveProblem& problem, const ProgressFn& progress, Result& r, CudaEngineOptions options = {});
// The time loop of run_wave_cuda on a stepper built (or restarted) for `problem`.
void record_wave_cuda(CudaTimeStepper& stepper, const WaveProblem& problem, const ProgressFn& progress, Result& r);

// Device-to-device copy bandwidth (bytes read + written per second / 1e9), median of several
// cudaMemcpy of `bytes`; throws InputError("", "backend", ...) without a device.
double measure_device_copy_bandwidth_gbs(std::size_t bytes = std::size_t(1) << 30);

}  // namespace voxwave
