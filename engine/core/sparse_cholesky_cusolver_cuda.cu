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

#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/sparse_cholesky_cusolver.hpp"
#include "wave/cuda_support.cuh"

namespace voxwave {

namespace {

void check_cusolver(cusolverStatus_t s, const char* what) {
    if (s != CUSOLVER_STATUS_SUCCESS)
        throw RuntimeError(std::string("cuSOLVER: ") + what + " failed (status " + std::to_string(int(s)) + ")");
}
void check_cusparse(cusparseStatus_t s, const char* what) {
    if (s != CUSPARSE_STATUS_SUCCESS)
        throw RuntimeError(std::string("cuSPARSE: ") + what + " failed (status " + std::to_string(int(s)) + ")");
}

template <class T>
struct DeviceArray {
    T* p = nullptr;
    explicit DeviceArray(const std::vector<T>& host) {
        VOXWAVE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(1, host.size()) * sizeof(T)));
        if (!host.empty())
            VOXWAVE_CUDA_CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    }
    ~DeviceArray() { cudaFree(p); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
};

}  // namespace

bool cusolver_sparse_cholesky_built() { return true; }

std::vector<double> cusolver_sparse_cholesky_solve(int n, const std::vector<int>& row_ptr, const std::vector<int>& col,
                                                   const std::vector<double>& val, const std::vector<double>& rhs,
                                                   double* seconds, std::string* device) {
    std::string why;
    const auto devices = cuda_devices(&why);
    if (devices.empty()) throw InputError("", "backend", "the cuSOLVER baseline needs a CUDA device: " + why);
    if (device) *device = devices.front().name;
    VOXWAVE_CUDA_CHECK(cudaSetDevice(devices.front().index));
    const DeviceArray<int> d_ptr(row_ptr), d_col(col);
    const DeviceArray<double> d_val(val), d_b(rhs);
    const DeviceArray<double> d_x(std::vector<double>(std::size_t(n), 0.0));
    cusolverSpHandle_t handle = nullptr;
    cusparseMatDescr_t descr = nullptr;
    check_cusolver(cusolverSpCreate(&handle), "cusolverSpCreate");
    struct Release {
        cusolverSpHandle_t& h;
        cusparseMatDescr_t& d;
        ~Release() {
            if (d) cusparseDestroyMatDescr(d);
            if (h) cusolverSpDestroy(h);
        }
    } release{handle, descr};
    check_cusparse(cusparseCreateMatDescr(&descr), "cusparseCreateMatDescr");
    check_cusparse(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL), "cusparseSetMatType");
    check_cusparse(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO), "cusparseSetMatIndexBase");
    cudaEvent_t t0, t1;
    VOXWAVE_CUDA_CHECK(cudaEventCreate(&t0));
    VOXWAVE_CUDA_CHECK(cudaEventCreate(&t1));
    int singularity = -1;
    VOXWAVE_CUDA_CHECK(cudaEventRecord(t0));
    // reorder = 1: symrcm, the fill-reducing ordering cusolverSp offers on the device path.
    check_cusolver(cusolverSpDcsrlsvchol(handle, int(n), int(col.size()), descr, d_val.p, d_ptr.p, d_col.p, d_b.p,
                                         1e-14, 1, d_x.p, &singularity),
                   "cusolverSpDcsrlsvchol");
    VOXWAVE_CUDA_CHECK(cudaEventRecord(t1));
    VOXWAVE_CUDA_CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    VOXWAVE_CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    if (singularity >= 0)
        throw RuntimeError("cuSOLVER: the matrix is not positive definite (pivot " + std::to_string(singularity) + ")");
    if (seconds) *seconds = 1e-3 * ms;
    std::vector<double> x(static_cast<std::size_t>(n));
    VOXWAVE_CUDA_CHECK(cudaMemcpy(x.data(), d_x.p, x.size() * sizeof(double), cudaMemcpyDeviceToHost));
    return x;
}

}  // namespace voxwave
