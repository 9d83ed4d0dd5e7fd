// CUDA backend of the direct Poisson solver (see direct_solver_cuda.hpp). The CPU solver
// (direct_solver_cpu.cpp) is its oracle, including the rounding of every stored intermediate.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cusolverDn.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "poisson/direct_solver_cuda.hpp"
#include "wave/cuda_support.cuh"

namespace voxwave::poisson {

bool cuda_poisson_built() { return true; }

namespace {

void cublas_check(cublasStatus_t s, const char* what, const char* file, int line) {
    if (s != CUBLAS_STATUS_SUCCESS)
        throw RuntimeError(std::string("cuBLAS error in ") + what + " (" + file + ":" + std::to_string(line) +
                           "): " + cublasGetStatusString(s));
}
#define VOXWAVE_CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

// Accumulation type: FP64 for FP64 data, FP32 otherwise (FP16 data, FP32 accumulation).
__device__ inline double to_acc(double v) { return v; }
__device__ inline float to_acc(float v) { return v; }
__device__ inline float to_acc(__half v) { return __half2float(v); }
template <class T>
__device__ inline T from_acc(double v) {
    return v;
}
template <>
__device__ inline float from_acc<float>(double v) {
    return static_cast<float>(v);
}
template <>
__device__ inline __half from_acc<__half>(double v) {
    return __float2half_rn(static_cast<float>(v));
}

// Y(:, k) -= A X(:, k) for a CSR matrix A; one thread per row and right-hand side.
template <class T>
__global__ void csr_subtract_kernel(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col,
                                    const T* __restrict__ val, const T* __restrict__ X, long long ldx, T* Y,
                                    long long ldy) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const long long k = blockIdx.y;
    if (r >= rows) return;
    using Acc = decltype(to_acc(T{}));
    Acc s = 0;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) s += to_acc(val[j]) * to_acc(X[col[j] + k * ldx]);
    Y[r + k * ldy] = from_acc<T>(to_acc(Y[r + k * ldy]) - s);
}

// The same product for node-major blocks (the K values of a node contiguous: many right-hand
// sides). A block per row, its threads over the right-hand sides: reads of X are coalesced.
template <class T>
__global__ void csr_subtract_node_major_kernel(int K, const int* __restrict__ row_ptr, const int* __restrict__ col,
                                               const T* __restrict__ val, const T* __restrict__ X, T* Y) {
    const long long r = blockIdx.x;
    const int k = blockIdx.y * blockDim.x + threadIdx.x;
    if (k >= K) return;
    using Acc = decltype(to_acc(T{}));
    Acc s = 0;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) s += to_acc(val[j]) * to_acc(X[col[j] * (long long)K + k]);
    Y[r * K + k] = from_acc<T>(to_acc(Y[r * K + k]) - s);
}

template <class T>
T to_storage(double v) {
    if constexpr (std::is_same_v<T, __half>)
        return __float2half_rn(static_cast<float>(v));
    else
        return static_cast<T>(v);
}
template <class T>
double from_storage(T v) {
    if constexpr (std::is_same_v<T, __half>)
        return static_cast<double>(__half2float(v));
    else
        return static_cast<double>(v);
}

template <class T>
struct DeviceBuffer {
    T* ptr = nullptr;
    std::size_t count = 0;
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t n) : count(n) {
        if (n) VOXWAVE_CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T)));
    }
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr(o.ptr), count(o.count) { o.ptr = nullptr; }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        std::swap(ptr, o.ptr);
        std::swap(count, o.count);
        return *this;
    }
    ~DeviceBuffer() {
        if (ptr) cudaFree(ptr);  // no throw in a destructor
    }
    void upload(const std::vector<T>& host) {
        if (count) VOXWAVE_CUDA_CHECK(cudaMemcpy(ptr, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(count);
        if (count) VOXWAVE_CUDA_CHECK(cudaMemcpy(host.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
};

template <class T>
struct DeviceCsr {
    int rows = 0, cols = 0;
    DeviceBuffer<int> row_ptr, col;
    DeviceBuffer<T> val;
};

template <class T>
DeviceCsr<T> upload_csr(const SparseMatrixd& m) {
    const Eigen::SparseMatrix<double, Eigen::RowMajor, int> r = m;
    DeviceCsr<T> d;
    d.rows = static_cast<int>(r.rows());
    d.cols = static_cast<int>(r.cols());
    std::vector<int> ptr(r.outerIndexPtr(), r.outerIndexPtr() + r.rows() + 1);
    std::vector<int> col(r.innerIndexPtr(), r.innerIndexPtr() + r.nonZeros());
    std::vector<T> val(r.nonZeros());
    for (Eigen::Index i = 0; i < r.nonZeros(); ++i) val[i] = to_storage<T>(r.valuePtr()[i]);
    d.row_ptr = DeviceBuffer<int>(ptr.size());
    d.row_ptr.upload(ptr);
    d.col = DeviceBuffer<int>(col.size());
    d.col.upload(col);
    d.val = DeviceBuffer<T>(val.size());
    d.val.upload(val);
    return d;
}

template <class T>
DeviceBuffer<T> upload_dense(const Eigen::MatrixXd& m) {
    std::vector<T> host(static_cast<std::size_t>(m.size()));
    const double* src = m.data();
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = to_storage<T>(src[i]);
    DeviceBuffer<T> d(host.size());
    d.upload(host);
    return d;
}

// Y -= A X. One right-hand side: a thread per row. Several: node-major blocks (see above).
template <class T>
void csr_subtract(const DeviceCsr<T>& A, const T* X, T* Y, int K) {
    if (A.rows == 0 || A.cols == 0 || K == 0) return;
    if (K == 1) {
        const dim3 block(128), grid((A.rows + 127) / 128, 1);
        csr_subtract_kernel<T><<<grid, block>>>(A.rows, A.row_ptr.ptr, A.col.ptr, A.val.ptr, X, A.cols, Y, A.rows);
        VOXWAVE_CUDA_CHECK_LAUNCH("csr_subtract_kernel");
        return;
    }
    const int threads = std::min(256, (K + 31) / 32 * 32);
    const dim3 block(threads), grid(A.rows, (K + threads - 1) / threads);
    csr_subtract_node_major_kernel<T><<<grid, block>>>(K, A.row_ptr.ptr, A.col.ptr, A.val.ptr, X, Y);
    VOXWAVE_CUDA_CHECK_LAUNCH("csr_subtract_node_major_kernel");
}

// C = A B (column-major, beta = 0) in the solver's precision; `batch` products with strides.
template <class T>
void gemm(cublasHandle_t h, PoissonPrecision precision, int m, int n, int k, const T* A, int lda, long long sA,
          const T* B, int ldb, long long sB, T* C, int ldc, long long sC, int batch = 1) {
    if (m == 0 || n == 0 || k == 0 || batch == 0) return;
    if constexpr (std::is_same_v<T, double>) {
        const double one = 1, zero = 0;
        if (batch == 1)
            VOXWAVE_CUBLAS_CHECK(
                cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, B, ldb, &zero, C, ldc));
        else
            VOXWAVE_CUBLAS_CHECK(cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, sA, B,
                                                           ldb, sB, &zero, C, ldc, sC, batch));
    } else {
        const float one = 1, zero = 0;
        const cudaDataType t = std::is_same_v<T, __half> ? CUDA_R_16F : CUDA_R_32F;
        const cublasComputeType_t compute =
            precision == PoissonPrecision::Tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
        if (batch == 1)
            VOXWAVE_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, t, lda, B, t, ldb, &zero,
                                              C, t, ldc, compute, CUBLAS_GEMM_DEFAULT));
        else
            VOXWAVE_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, t, lda, sA,
                                                            B, t, ldb, sB, &zero, C, t, ldc, sC, batch, compute,
                                                            CUBLAS_GEMM_DEFAULT));
    }
}

struct SolverBase {
    virtual ~SolverBase() = default;
    virtual Eigen::MatrixXd solve(const Eigen::MatrixXd& b) = 0;
    virtual double median_seconds(int repetitions) = 0;
    std::size_t bytes = 0;
};

template <class T>
struct TypedSolver : SolverBase {
    const PrehandledPoisson& p;
    PoissonPrecision precision;
    cublasHandle_t handle = nullptr;
    DeviceBuffer<T> pi_inverse;
    std::vector<DeviceBuffer<T>> c_inverse;
    DeviceCsr<T> B, Bt;
    std::vector<DeviceCsr<T>> D, Dt;  // per class: columns / rows of its interior nodes
    int K = 0;
    DeviceBuffer<T> bC, bE, r, xE, xC;
    std::vector<DeviceBuffer<T>> bI, y, t, xI;

    TypedSolver(const PrehandledPoisson& pre, PoissonPrecision prec) : p(pre), precision(prec) {
        VOXWAVE_CUBLAS_CHECK(cublasCreate(&handle));
        // Tensor Cores for FP16 (and TF32 via the compute type); pedantic FP32 otherwise.
        VOXWAVE_CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
        pi_inverse = upload_dense<T>(p.pi_inverse);
        for (const auto& mc : p.classes) {
            c_inverse.push_back(upload_dense<T>(mc.inverse));
            const SparseMatrixd Dc = p.D.middleCols(mc.first_position, std::size_t(mc.cells) * p.cell_nodes);
            D.push_back(upload_csr<T>(Dc));
            Dt.push_back(upload_csr<T>(SparseMatrixd(Dc.transpose())));
        }
        B = upload_csr<T>(p.B);
        Bt = upload_csr<T>(SparseMatrixd(p.B.transpose()));
    }
    ~TypedSolver() override {
        if (handle) cublasDestroy(handle);
    }

    void allocate(int k) {
        if (k == K) return;
        K = k;
        bC = DeviceBuffer<T>(std::size_t(p.nC) * K);
        xC = DeviceBuffer<T>(std::size_t(p.nC) * K);
        bE = DeviceBuffer<T>(std::size_t(p.nE) * K);
        r = DeviceBuffer<T>(std::size_t(p.nE) * K);
        xE = DeviceBuffer<T>(std::size_t(p.nE) * K);
        bI.clear();
        y.clear();
        t.clear();
        xI.clear();
        for (const auto& mc : p.classes) {
            const std::size_t n = std::size_t(mc.cells) * p.cell_nodes * K;
            bI.emplace_back(n);
            y.emplace_back(n);
            t.emplace_back(n);
            xI.emplace_back(n);
        }
    }

    // C^-1 applied to every macro cell of class c. One right-hand side: one product whose
    // columns are the cells. Several (node-major): per cell (K x n) = (K x n) C^-1 (C^-1 is
    // symmetric), one strided batch over the cells.
    void apply_cinv(std::size_t c, const T* in, T* out) {
        const int n = p.cell_nodes, cells = p.classes[c].cells;
        if (K == 1)
            gemm<T>(handle, precision, n, cells, n, c_inverse[c].ptr, n, 0, in, n, 0, out, n, 0);
        else
            gemm<T>(handle, precision, K, n, n, in, K, (long long)n * K, c_inverse[c].ptr, n, 0, out, K,
                    (long long)n * K, cells);
    }

    // Steps 4-6 on the device data.
    void run_steps() {
        for (std::size_t c = 0; c < p.classes.size(); ++c) apply_cinv(c, bI[c].ptr, y[c].ptr);
        if (p.nE) VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(r.ptr, bE.ptr, sizeof(T) * r.count, cudaMemcpyDeviceToDevice));
        csr_subtract(Bt, bC.ptr, r.ptr, K);
        for (std::size_t c = 0; c < p.classes.size(); ++c) csr_subtract(D[c], y[c].ptr, r.ptr, K);
        // x_E = Pi^-1 r; node-major: x_E^T = r^T Pi^-1 (Pi^-1 symmetric).
        if (K == 1)
            gemm<T>(handle, precision, p.nE, 1, p.nE, pi_inverse.ptr, p.nE, 0, r.ptr, p.nE, 0, xE.ptr, p.nE, 0);
        else
            gemm<T>(handle, precision, K, p.nE, p.nE, r.ptr, K, 0, pi_inverse.ptr, p.nE, 0, xE.ptr, K, 0);
        if (p.nC) VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(xC.ptr, bC.ptr, sizeof(T) * xC.count, cudaMemcpyDeviceToDevice));
        csr_subtract(B, xE.ptr, xC.ptr, K);
        for (std::size_t c = 0; c < p.classes.size(); ++c) {
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(t[c].ptr, bI[c].ptr, sizeof(T) * t[c].count, cudaMemcpyDeviceToDevice));
            csr_subtract(Dt[c], xE.ptr, t[c].ptr, K);
            apply_cinv(c, t[c].ptr, xI[c].ptr);
        }
    }

    Eigen::MatrixXd solve(const Eigen::MatrixXd& b) override {
        allocate(static_cast<int>(b.cols()));
        const int nC = p.nC, nE = p.nE, nI = p.nI;
        auto pack = [&](int row0, int rows) {
            std::vector<T> h(std::size_t(rows) * K);
            for (int k = 0; k < K; ++k)
                for (int i = 0; i < rows; ++i) h[std::size_t(i) * K + k] = to_storage<T>(b(row0 + i, k));
            return h;
        };
        bC.upload(pack(0, nC));
        bE.upload(pack(nC, nE));
        for (std::size_t c = 0; c < p.classes.size(); ++c)
            bI[c].upload(pack(nC + nE + p.classes[c].first_position, p.classes[c].cells * p.cell_nodes));
        run_steps();
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
        Eigen::MatrixXd x(p.unknowns, K);
        auto unpack = [&](const DeviceBuffer<T>& d, int row0, int rows) {
            const std::vector<T> h = d.download();
            for (int k = 0; k < K; ++k)
                for (int i = 0; i < rows; ++i) x(row0 + i, k) = from_storage<T>(h[std::size_t(i) * K + k]);
        };
        unpack(xC, 0, nC);
        unpack(xE, nC, nE);
        for (std::size_t c = 0; c < p.classes.size(); ++c)
            unpack(xI[c], nC + nE + p.classes[c].first_position, p.classes[c].cells * p.cell_nodes);
        (void)nI;
        return x;
    }

    double median_seconds(int repetitions) override {
        cudaEvent_t start, stop;
        VOXWAVE_CUDA_CHECK(cudaEventCreate(&start));
        VOXWAVE_CUDA_CHECK(cudaEventCreate(&stop));
        run_steps();  // warm-up
        std::vector<double> times;
        for (int i = 0; i < repetitions; ++i) {
            VOXWAVE_CUDA_CHECK(cudaEventRecord(start));
            run_steps();
            VOXWAVE_CUDA_CHECK(cudaEventRecord(stop));
            VOXWAVE_CUDA_CHECK(cudaEventSynchronize(stop));
            float ms = 0;
            VOXWAVE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
            times.push_back(ms * 1e-3);
        }
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    }
};

std::size_t storage_bytes(PoissonPrecision precision) {
    return precision == PoissonPrecision::Fp64 ? 8 : precision == PoissonPrecision::Fp16 ? 2 : 4;
}

}  // namespace

Eigen::MatrixXd cuda_spd_inverse(const Eigen::MatrixXd& spd) {
    const int n = static_cast<int>(spd.rows());
    if (n == 0) return spd;
    std::size_t free_bytes = 0, total = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (8.0 * double(n) * n > 0.9 * double(free_bytes))
        throw InputError("", "--level",
                         "Pi (" + std::to_string(n) + " x " + std::to_string(n) +
                             ") does not fit in the GPU's free memory for its inversion");
    cusolverDnHandle_t h = nullptr;
    if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS) throw RuntimeError("cuSOLVER: cusolverDnCreate failed");
    struct HandleGuard {
        cusolverDnHandle_t h;
        ~HandleGuard() { cusolverDnDestroy(h); }
    } guard{h};
    auto check = [](cusolverStatus_t st, const char* what) {
        if (st != CUSOLVER_STATUS_SUCCESS)
            throw RuntimeError(std::string("cuSOLVER error in ") + what + ": status " + std::to_string(int(st)));
    };
    DeviceBuffer<double> a(std::size_t(n) * n);
    VOXWAVE_CUDA_CHECK(cudaMemcpy(a.ptr, spd.data(), sizeof(double) * a.count, cudaMemcpyHostToDevice));
    int lwork = 0, lwork2 = 0;
    check(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, a.ptr, n, &lwork), "potrf_bufferSize");
    check(cusolverDnDpotri_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, a.ptr, n, &lwork2), "potri_bufferSize");
    DeviceBuffer<double> work(std::size_t(std::max(lwork, lwork2)));
    DeviceBuffer<int> info(1);
    check(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, a.ptr, n, work.ptr, lwork, info.ptr), "potrf");
    if (info.download()[0] != 0) throw RuntimeError("cuSOLVER potrf: Pi is not positive definite");
    check(cusolverDnDpotri(h, CUBLAS_FILL_MODE_LOWER, n, a.ptr, n, work.ptr, lwork2, info.ptr), "potri");
    if (info.download()[0] != 0) throw RuntimeError("cuSOLVER potri failed");
    Eigen::MatrixXd inv(n, n);
    VOXWAVE_CUDA_CHECK(cudaMemcpy(inv.data(), a.ptr, sizeof(double) * a.count, cudaMemcpyDeviceToHost));
    // potri fills the lower triangle only.
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i) inv(i, j) = inv(j, i);
    return inv;
}

struct CudaPoissonSolver::Impl {
    std::unique_ptr<SolverBase> solver;
    std::string device;
    std::size_t bytes = 0;
};

CudaPoissonSolver::CudaPoissonSolver(const PrehandledPoisson& p, PoissonPrecision precision)
    : impl_(std::make_unique<Impl>()) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        throw InputError("", "backend", "cuda requested but no CUDA device is available");
    }
    cudaDeviceProp prop{};
    VOXWAVE_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    impl_->device = prop.name;
    const std::size_t s = storage_bytes(precision);
    std::size_t cinv = 0;
    for (const auto& mc : p.classes) cinv += std::size_t(mc.inverse.size());
    impl_->bytes = s * (std::size_t(p.pi_inverse.size()) + cinv) +
                   (s + 4) * 2 * std::size_t(p.B.nonZeros() + p.D.nonZeros()) + 8 * std::size_t(p.nE + p.nC + p.nI);
    std::size_t free_bytes = 0, total = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (impl_->bytes > 0.9 * double(free_bytes)) {
        std::ostringstream m;
        m.precision(3);
        m << "level " << p.level << " with coarse level " << p.coarse_level << " needs " << impl_->bytes / 1073741824.0
          << " GiB of GPU memory, the device has " << free_bytes / 1073741824.0 << " GiB free";
        throw InputError("", "--level", m.str());
    }
    switch (precision) {
        case PoissonPrecision::Fp64:
            impl_->solver = std::make_unique<TypedSolver<double>>(p, precision);
            break;
        case PoissonPrecision::Fp32:
        case PoissonPrecision::Tf32:
            impl_->solver = std::make_unique<TypedSolver<float>>(p, precision);
            break;
        case PoissonPrecision::Fp16:
            impl_->solver = std::make_unique<TypedSolver<__half>>(p, precision);
            break;
    }
}

CudaPoissonSolver::~CudaPoissonSolver() = default;

Eigen::MatrixXd CudaPoissonSolver::solve(const Eigen::MatrixXd& b) { return impl_->solver->solve(b); }
double CudaPoissonSolver::median_solve_seconds(int repetitions) { return impl_->solver->median_seconds(repetitions); }
std::string CudaPoissonSolver::device_name() const { return impl_->device; }
std::size_t CudaPoissonSolver::device_bytes() const { return impl_->bytes; }

}  // namespace voxwave::poisson
