// Builds without nvcc: the CUDA engine's entry points exist and refuse with a clear message,
// so the CLI, the GUI and the tests compile and link the same way everywhere.
#include "wave/time_stepper_cuda.hpp"

#if !VOXWAVE_CUDA_COMPILED
#include "core/errors.hpp"

namespace voxwave {
namespace {
[[noreturn]] void no_cuda() {
    throw InputError("", "backend", "this build has no CUDA engine (nvcc was not found when it was configured)");
}
}  // namespace

bool cuda_wave_engine_built() { return false; }

struct CudaTimeStepper::Impl {};
CudaTimeStepper::CudaTimeStepper(const WaveProblem&, CudaEngineOptions) { no_cuda(); }
CudaTimeStepper::~CudaTimeStepper() = default;
std::size_t CudaTimeStepper::node_count() const { no_cuda(); }
void CudaTimeStepper::set_state(const std::vector<double>&, const std::vector<double>&) { no_cuda(); }
std::vector<double> CudaTimeStepper::displacement() const { no_cuda(); }
std::vector<double> CudaTimeStepper::previous_displacement() const { no_cuda(); }
void CudaTimeStepper::advance(std::int64_t, std::int64_t, std::vector<double>*) { no_cuda(); }
std::vector<double> CudaTimeStepper::stiffness_times(const std::vector<double>&) const { no_cuda(); }
double CudaTimeStepper::median_stiffness_seconds(int) const { no_cuda(); }
CudaTimeStepper::KernelSeconds CudaTimeStepper::median_kernel_seconds(std::int64_t, int) { no_cuda(); }
CudaStepTiming CudaTimeStepper::time_steps(std::int64_t, std::int64_t) { no_cuda(); }
CudaTimeStepper::HaloPhaseSeconds CudaTimeStepper::median_halo_phase_seconds(std::int64_t, int) { no_cuda(); }
void CudaTimeStepper::set_exchange_enabled(bool) { no_cuda(); }
std::vector<double> CudaTimeStepper::receiver_displacements() const { no_cuda(); }
CudaFloatArray::CudaFloatArray(std::size_t) { no_cuda(); }
CudaFloatArray::~CudaFloatArray() = default;
std::vector<float> CudaFloatArray::download() const { no_cuda(); }
void CudaTimeStepper::write_slice(SlicePlane, int, SliceQuantity, float*) const { no_cuda(); }
bool CudaTimeStepper::fused_step() const { no_cuda(); }
std::size_t CudaTimeStepper::device_bytes() const { no_cuda(); }
std::string CudaTimeStepper::device_name() const { no_cuda(); }
std::size_t cuda_model_bytes(std::size_t, std::size_t, Precision, bool, bool) { no_cuda(); }
void check_cuda_model_fits(std::size_t, std::size_t, Precision, bool, bool, std::size_t) { no_cuda(); }
void run_wave_cuda(const WaveProblem&, const ProgressFn&, Result&, CudaEngineOptions) { no_cuda(); }
double measure_device_copy_bandwidth_gbs(std::size_t) { no_cuda(); }

}  // namespace voxwave
#endif
