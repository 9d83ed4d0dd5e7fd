// The one place a build without CUDA gets its CUDA entry points from. Each feature declares
// them in a header free of CUDA types and defines them in its *_cuda.cu; when nvcc is missing
// those files are not compiled and the definitions below take their place, refusing with one
// message, so that the CLI, the GUI and the tests compile and link the same way everywhere.
// Callers learn beforehand through core/device.hpp (cuda_compiled, cuda_devices) and
// core/backend.hpp (resolve_backend) whether a call can succeed.
//
// CUDA-OpenGL interop also needs the GL headers: its refusals are compiled whenever it is
// missing, with or without CUDA.
#include "core/cuda_context.hpp"
#include "core/errors.hpp"
#include "wave/slice_gl_interop.hpp"

#if !VOXWAVE_CUDA_COMPILED
#include "core/sparse_cholesky_cusolver.hpp"
#include "distributed/halo_exchange_mpi.hpp"
#include "iga/multifrontal_cuda.hpp"
#include "integration/integrate_cuda.hpp"
#include "poisson/direct_solver_cuda.hpp"
#include "wave/batched_shots.hpp"
#include "wave/plane_strain_stepper_cuda.hpp"
#include "wave/sector_imaging.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/slice_staging.hpp"
#include "wave/tfm_imaging.hpp"
#include "wave/time_stepper_cuda.hpp"
#endif

namespace voxwave {

#if !VOXWAVE_CUDA_COMPILED
namespace {
[[noreturn]] void no_cuda(const std::string& field = "backend") {
    throw InputError("", field, "this build has no CUDA (nvcc was not found when it was configured)");
}
}  // namespace

// core
std::vector<double> cusolver_sparse_cholesky_solve(int, const std::vector<int>&, const std::vector<int>&,
                                                   const std::vector<double>&, const std::vector<double>&, double*,
                                                   std::string*) {
    no_cuda();
}

// wave
ShotGroupRecording run_shot_group_cuda(const WaveProblem&, const std::vector<const ShotSources*>&, const StepProgress&,
                                       int, std::string*) {
    no_cuda();
}
struct CudaTimeStepper::Impl {};
CudaTimeStepper::CudaTimeStepper(const WaveProblem&, CudaEngineOptions) { no_cuda(); }
CudaTimeStepper::~CudaTimeStepper() = default;
std::size_t CudaTimeStepper::node_count() const { no_cuda(); }
void CudaTimeStepper::restart_shot() { no_cuda(); }
void CudaTimeStepper::set_state(const std::vector<double>&, const std::vector<double>&) { no_cuda(); }
std::vector<double> CudaTimeStepper::displacement() const { no_cuda(); }
std::vector<double> CudaTimeStepper::previous_displacement() const { no_cuda(); }
std::vector<double> CudaTimeStepper::gather(const std::vector<std::size_t>&, bool) const { no_cuda(); }
void CudaTimeStepper::advance(std::int64_t, std::int64_t, std::vector<double>*) { no_cuda(); }
std::vector<double> CudaTimeStepper::stiffness_times(const std::vector<double>&) const { no_cuda(); }
double CudaTimeStepper::median_stiffness_seconds(int) const { no_cuda(); }
CudaTimeStepper::KernelSeconds CudaTimeStepper::median_kernel_seconds(std::int64_t, int) { no_cuda(); }
CudaStepTiming CudaTimeStepper::time_steps(std::int64_t, std::int64_t) { no_cuda(); }
CudaTimeStepper::HaloPhaseSeconds CudaTimeStepper::median_halo_phase_seconds(std::int64_t, int) { no_cuda(); }
void CudaTimeStepper::set_exchange_enabled(bool) { no_cuda(); }
bool CudaTimeStepper::fused_step() const { no_cuda(); }
bool CudaTimeStepper::overlapped_exchange() const { no_cuda(); }
bool CudaTimeStepper::fused_kernel_points() const { no_cuda(); }
std::vector<double> CudaTimeStepper::receiver_displacements() const { no_cuda(); }
void CudaTimeStepper::write_slice(SlicePlane, int, SliceQuantity, float*) const { no_cuda(); }
std::size_t CudaTimeStepper::device_bytes() const { no_cuda(); }
std::string CudaTimeStepper::device_name() const { no_cuda(); }
struct PlaneStrainStepperCuda::Impl {};
PlaneStrainStepperCuda::PlaneStrainStepperCuda(const WaveProblem&, int) { no_cuda(); }
PlaneStrainStepperCuda::~PlaneStrainStepperCuda() = default;
std::size_t PlaneStrainStepperCuda::node_count() const { no_cuda(); }
void PlaneStrainStepperCuda::set_state(const std::vector<double>&, const std::vector<double>&) { no_cuda(); }
std::vector<double> PlaneStrainStepperCuda::displacement() const { no_cuda(); }
std::vector<double> PlaneStrainStepperCuda::previous_displacement() const { no_cuda(); }
void PlaneStrainStepperCuda::advance(std::int64_t, std::int64_t, std::vector<double>*) { no_cuda(); }
double PlaneStrainStepperCuda::median_step_seconds(int) { no_cuda(); }
std::string PlaneStrainStepperCuda::device_name() const { no_cuda(); }
void run_plane_strain_cuda(const WaveProblem&, const ProgressFn&, Result&, int) { no_cuda(); }
struct CudaFloatArray::Storage {};
CudaFloatArray::CudaFloatArray(std::size_t) { no_cuda(); }
CudaFloatArray::~CudaFloatArray() = default;
std::vector<float> CudaFloatArray::download() const { no_cuda(); }
std::size_t cuda_model_bytes(std::size_t, std::size_t, Precision, bool, bool) { no_cuda(); }
void check_cuda_model_fits(std::size_t, std::size_t, Precision, bool, bool, std::size_t) { no_cuda(); }
void run_wave_cuda(const WaveProblem&, const ProgressFn&, Result&, CudaEngineOptions) { no_cuda(); }
void record_wave_cuda(CudaTimeStepper&, const WaveProblem&, const ProgressFn&, Result&) { no_cuda(); }
struct SemCudaTimeStepper::Impl {};
SemCudaTimeStepper::SemCudaTimeStepper(const WaveProblem&, int, int, SemCudaSchedule) { no_cuda(); }
SemCudaTimeStepper::~SemCudaTimeStepper() = default;
std::size_t SemCudaTimeStepper::node_count() const { no_cuda(); }
void SemCudaTimeStepper::set_state(const std::vector<double>&, const std::vector<double>&) { no_cuda(); }
std::vector<double> SemCudaTimeStepper::displacement() const { no_cuda(); }
std::vector<double> SemCudaTimeStepper::previous_displacement() const { no_cuda(); }
std::vector<double> SemCudaTimeStepper::receiver_displacements() const { no_cuda(); }
void SemCudaTimeStepper::advance(std::int64_t, std::int64_t, std::vector<double>*, std::vector<double>*) { no_cuda(); }
std::vector<double> SemCudaTimeStepper::stiffness_times(const std::vector<double>&) const { no_cuda(); }
void SemCudaTimeStepper::set_halo_exchange(HaloExchange*) { no_cuda(); }
CudaStepTiming SemCudaTimeStepper::time_steps(std::int64_t, std::int64_t) { no_cuda(); }
std::size_t SemCudaTimeStepper::device_bytes() const { no_cuda(); }
std::string SemCudaTimeStepper::device_name() const { no_cuda(); }
int SemCudaTimeStepper::cell_planes() const { no_cuda(); }
int SemCudaTimeStepper::cell_width() const { no_cuda(); }
SemCudaSchedule SemCudaTimeStepper::schedule() const { no_cuda(); }
void run_sem_cuda(const WaveProblem&, const ProgressFn&, Result&, int, HaloExchange*) { no_cuda(); }
double measure_device_copy_bandwidth_gbs(std::size_t) { no_cuda(); }

struct DeviceSliceStaging::Impl {};
DeviceSliceStaging::DeviceSliceStaging() {
    throw RuntimeError("this build has no CUDA: slices cannot stay on the GPU");
}
DeviceSliceStaging::~DeviceSliceStaging() = default;
int DeviceSliceStaging::device() const { return -1; }
StagedSliceInfo DeviceSliceStaging::snapshot(const WaveSession&, SlicePlane, int, SliceQuantity, double) { return {}; }
bool DeviceSliceStaging::has_new(StagedSliceInfo*) const { return false; }
bool DeviceSliceStaging::copy_latest(float*, std::size_t, void*, StagedSliceInfo* info) {
    if (info) *info = {};
    return false;
}

std::vector<double> delay_and_sum_cuda(const DelayAndSumProblem&) { no_cuda(); }
std::vector<double> sector_lines_cuda(const DelayAndSumProblem&) { no_cuda(); }
void cuda_start_context(int) {}

// poisson
namespace poisson {
Eigen::MatrixXd cuda_spd_inverse(const Eigen::MatrixXd&) { no_cuda(); }
struct CudaPoissonSolver::Impl {};
CudaPoissonSolver::CudaPoissonSolver(const PrehandledPoisson&, PoissonPrecision) { no_cuda(); }
CudaPoissonSolver::~CudaPoissonSolver() = default;
Eigen::MatrixXd CudaPoissonSolver::solve(const Eigen::MatrixXd&) { no_cuda(); }
double CudaPoissonSolver::median_solve_seconds(int) { no_cuda(); }
std::string CudaPoissonSolver::device_name() const { no_cuda(); }
std::size_t CudaPoissonSolver::device_bytes() const { no_cuda(); }
}  // namespace poisson

// iga
namespace iga {
std::vector<double> multifrontal_solve_cuda(const IgaSpace&, const FrontTree&, const IgaLoad&,
                                            CudaMultifrontalTimings*) {
    no_cuda("--backend");
}
}  // namespace iga

// integration
namespace integration {
CudaIntegrationTiming integrate_batch_cuda(const CudaIntegrationRequest&, std::vector<double>&) { no_cuda(); }
}  // namespace integration

// distributed: the host path of the MPI exchange works; the device paths refuse.
struct DeviceStaging {};
void DeviceStagingRelease::operator()(DeviceStaging* staging) const { delete staging; }
void MpiHaloExchange::exchange_device_phases(void*, bool, void*, std::size_t, std::size_t) { no_cuda(); }
bool nccl_built() { return false; }
double measure_device_exchange_seconds(HaloExchange&, bool, int) { no_cuda(); }
std::unique_ptr<HaloExchange> make_nccl_halo_exchange(const MpiWorld&, HaloPlan, int) { no_cuda("--halo"); }
#endif  // !VOXWAVE_CUDA_COMPILED

#if !VOXWAVE_GL_INTEROP
namespace {
const char* const kNoInterop = "this build has no CUDA-OpenGL interop (CUDA or the OpenGL headers were missing)";
}

bool gl_interop_built() { return false; }
std::vector<int> gl_interop_devices(std::string* why) {
    if (why) *why = kNoInterop;
    return {};
}
GlSliceBuffer::GlSliceBuffer(unsigned, int) { throw RuntimeError(kNoInterop); }
GlSliceBuffer::~GlSliceBuffer() = default;
void GlSliceBuffer::write(const WaveSession&, SlicePlane, int, SliceQuantity) {}
bool GlSliceBuffer::copy_from(DeviceSliceStaging&, StagedSliceInfo* info) {
    if (info) *info = {};
    return false;
}
#endif  // !VOXWAVE_GL_INTEROP

}  // namespace voxwave
