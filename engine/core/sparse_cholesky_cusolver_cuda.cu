// cuSOLVER's sparse Cholesky (see sparse_cholesky_cusolver.hpp).
// NVIDIA marks cusolverSp deprecated in favour of cuDSS, which this CUDA installation does not
// ship: cusolverSp is the GPU sparse direct solver at hand, so its deprecation warnings are off here.
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
#include <cusolverSp.h>
#include <cusparse.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/cuda_library_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "core/sparse_cholesky_cusolver.hpp"

namespace voxwave {

using cuda::DeviceBuffer;

std::vector<double> cusolver_sparse_cholesky_solve(int n, const std::vector<int>& row_ptr, const std::vector<int>& col,
                                                   const std::vector<double>& val, const std::vector<double>& rhs,
                                                   double* seconds, std::string* device) {
    std::string why;
    const auto devices = cuda_devices(&why);
    if (devices.empty()) throw InputError("", "backend", "the cuSOLVER baseline needs a CUDA device: " + why);
    if (device) *device = devices.front().name;
    VOXWAVE_CUDA_CHECK(cudaSetDevice(devices.front().index));
    const DeviceBuffer<int> d_ptr(row_ptr), d_col(col);
    const DeviceBuffer<double> d_val(val), d_b(rhs);
    const DeviceBuffer<double> d_x(std::vector<double>(std::size_t(n), 0.0));
    cusolverSpHandle_t handle = nullptr;
    cusparseMatDescr_t descr = nullptr;
    VOXWAVE_CUDA_CHECK(cusolverSpCreate(&handle));
    struct Release {
        cusolverSpHandle_t& h;
        cusparseMatDescr_t& d;
        ~Release() {
            if (d) cusparseDestroyMatDescr(d);
            if (h) cusolverSpDestroy(h);
        }
    } release{handle, descr};
    VOXWAVE_CUDA_CHECK(cusparseCreateMatDescr(&descr));
    VOXWAVE_CUDA_CHECK(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL));
    VOXWAVE_CUDA_CHECK(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO));
    cuda::EventTimer timer;
    int singularity = -1;
    timer.start();
    // reorder = 1: symrcm, the fill-reducing ordering cusolverSp offers on the device path.
    VOXWAVE_CUDA_CHECK(cusolverSpDcsrlsvchol(handle, int(n), int(col.size()), descr, d_val.get(), d_ptr.get(),
                                             d_col.get(), d_b.get(), 1e-14, 1, d_x.get(), &singularity));
    timer.stop();
    const double device_seconds = timer.seconds();
    if (singularity >= 0)
        throw RuntimeError("cuSOLVER: the matrix is not positive definite (pivot " + std::to_string(singularity) + ")");
    if (seconds) *seconds = device_seconds;
    std::vector<double> x(static_cast<std::size_t>(n));
    VOXWAVE_CUDA_CHECK(cudaMemcpy(x.data(), d_x.get(), x.size() * sizeof(double), cudaMemcpyDeviceToHost));
    return x;
}

}  // namespace voxwave
