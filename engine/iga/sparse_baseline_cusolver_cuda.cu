// cuSOLVER's sparse Cholesky as the GPU baseline of the multi-frontal solver (issue 6).
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
#include "iga/sparse_baseline.hpp"
#include "wave/cuda_support.cuh"

namespace voxwave::iga {

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

bool gpu_sparse_baseline_built() { return true; }

std::vector<double> sparse_direct_solve_cusolver(const IgaSpace& s, const SparseSystem& sys, const IgaLoad& load,
                                                 double* seconds, std::string* device) {
    std::string why;
    const auto devices = cuda_devices(&why);
    if (devices.empty()) throw InputError("", "backend", "the cuSOLVER baseline needs a CUDA device: " + why);
    if (device) *device = devices.front().name;
    // Full symmetric CSR from the lower-triangle CSC: cuSOLVER is given both triangles, so no
    // assumption about which one it reads.
    const std::int64_t n = sys.size;
    std::vector<int> count(std::size_t(n) + 1, 0);
    for (std::int64_t c = 0; c < n; ++c)
        for (std::int32_t k = sys.col_begin[std::size_t(c)]; k < sys.col_begin[std::size_t(c) + 1]; ++k) {
            const std::int64_t r = sys.row[std::size_t(k)];
            ++count[std::size_t(r) + 1];
            if (r != c) ++count[std::size_t(c) + 1];
        }
    for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    std::vector<int> row_ptr = count, col(std::size_t(count.back()));
    std::vector<double> val(col.size());
    std::vector<int> fill(row_ptr.begin(), row_ptr.end() - 1);
    for (std::int64_t c = 0; c < n; ++c)
        for (std::int32_t k = sys.col_begin[std::size_t(c)]; k < sys.col_begin[std::size_t(c) + 1]; ++k) {
            const int r = sys.row[std::size_t(k)];
            const double v = sys.value[std::size_t(k)];
            col[std::size_t(fill[std::size_t(r)])] = int(c), val[std::size_t(fill[std::size_t(r)]++)] = v;
            if (r != c) col[std::size_t(fill[std::size_t(c)])] = r, val[std::size_t(fill[std::size_t(c)]++)] = v;
        }
    // Column indices sorted within each row (CSR as cuSPARSE expects it).
    for (std::int64_t r = 0; r < n; ++r) {
        const auto b = std::size_t(row_ptr[std::size_t(r)]), e = std::size_t(row_ptr[std::size_t(r) + 1]);
        std::vector<std::pair<int, double>> row(e - b);
        for (std::size_t k = b; k < e; ++k) row[k - b] = {col[k], val[k]};
        std::sort(row.begin(), row.end());
        for (std::size_t k = b; k < e; ++k) col[k] = row[k - b].first, val[k] = row[k - b].second;
    }
    VOXWAVE_CUDA_CHECK(cudaSetDevice(devices.front().index));
    const DeviceArray<int> d_ptr(row_ptr), d_col(col);
    const DeviceArray<double> d_val(val), d_b(sys.rhs);
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
    return expand_free_solution(s, x.data(), load);
}

}  // namespace voxwave::iga
