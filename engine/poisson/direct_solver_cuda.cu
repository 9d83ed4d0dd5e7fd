// CUDA backend of the direct Poisson solver (see direct_solver_cuda.hpp). The CPU solver
// (direct_solver_cpu.cpp) is its oracle, including the rounding of every stored intermediate.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <type_traits>
#include <vector>

#include "core/cuda_library_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/event_timer.cuh"
#include "poisson/direct_solver_cuda.hpp"

namespace voxwave::poisson {

namespace {

using cuda::DeviceBuffer;

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

// Y(:, k) = Y0(:, k) - A X(:, k) for a CSR matrix A (Y0 may be Y); one thread per row and
// right-hand side. Taking Y0 apart from Y saves the device copy that used to seed Y.
template <class T>
__global__ void csr_subtract_kernel(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col,
                                    const T* __restrict__ val, const T* __restrict__ X, long long ldx, const T* Y0,
                                    T* Y, long long ldy) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const long long k = blockIdx.y;
    if (r >= rows) return;
    using Acc = decltype(to_acc(T{}));
    Acc s = 0;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) s += to_acc(val[j]) * to_acc(X[col[j] + k * ldx]);
    Y[r + k * ldy] = from_acc<T>(to_acc(Y0[r + k * ldy]) - s);
}

// The same product for node-major blocks (the K values of a node contiguous: many right-hand
// sides). A block per row, each thread over V consecutive right-hand sides read and written as
// one aligned pack: V = 16 / sizeof(T) gives 16-byte accesses (8 FP16, 4 FP32 or 2 FP64 values;
// a 2-byte access per thread used only an eighth of each memory transaction in FP16), V = 1 is
// the fallback for K not a multiple of that.
template <class T>
constexpr int kRhsPerThread = int(16 / sizeof(T));

template <class T, int V>
struct alignas(sizeof(T) * V) RhsPack {
    T x[V];
};

template <class T, int V>
__global__ void csr_subtract_node_major_kernel(int K, const int* __restrict__ row_ptr, const int* __restrict__ col,
                                               const T* __restrict__ val, const T* __restrict__ X, const T* Y0, T* Y) {
    using Pack = RhsPack<T, V>;
    const long long r = blockIdx.x;
    const int k0 = (blockIdx.y * blockDim.x + threadIdx.x) * V;
    if (k0 >= K) return;
    using Acc = decltype(to_acc(T{}));
    Acc s[V];
#pragma unroll
    for (int v = 0; v < V; ++v) s[v] = 0;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) {
        const Acc a = to_acc(val[j]);
        const Pack in = *reinterpret_cast<const Pack*>(X + col[j] * (long long)K + k0);
#pragma unroll
        for (int v = 0; v < V; ++v) s[v] += a * to_acc(in.x[v]);
    }
    const Pack y0 = *reinterpret_cast<const Pack*>(Y0 + r * K + k0);
    Pack out;
#pragma unroll
    for (int v = 0; v < V; ++v) out.x[v] = from_acc<T>(to_acc(y0.x[v]) - s[v]);
    *reinterpret_cast<Pack*>(Y + r * K + k0) = out;
}

// potri fills the lower triangle; mirror it into the upper one on the device (a host loop over a
// 40,000^2 matrix touched memory column-strided for tens of seconds).
__global__ void mirror_lower_kernel(double* a, int n) {
    const int i = blockIdx.x * 32 + threadIdx.x, j = blockIdx.y * 32 + threadIdx.y;
    if (i < n && j < n && i < j) a[i + (long long)j * n] = a[j + (long long)i * n];
}

template <class T>
T to_storage(double v) {
    if constexpr (std::is_same_v<T, __half>)
        return __float2half_rn(static_cast<float>(v));
    else
        return static_cast<T>(v);
}

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

// Leading dimension for dense device matrices: a multiple of 8 elements, so every column starts
// on a 16-byte boundary and cuBLAS can take its Tensor Core kernels (an odd |E| or cell size
// sent FP16 products to slower paths: 264 TFLOP/s for Pi^-1 r at L = 7).
inline int padded_ld(int rows) { return (rows + 7) / 8 * 8; }

// Narrows columns [0, cols) of an FP64 column-major block (ld `rows`) into T storage with
// leading dimension ld_out.
template <class T>
__global__ void narrow_columns_kernel(const double* __restrict__ in, int rows, int cols, T* __restrict__ out,
                                      long long ld_out) {
    const long long total = (long long)rows * cols;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)gridDim.x * blockDim.x)
        out[(i / rows) * ld_out + i % rows] = from_acc<T>(in[i]);
}

// An FP64 host matrix into device storage of type T with leading dimension ld (padding zero):
// uploaded in FP64 column chunks and narrowed on the device, so no single-threaded host
// conversion of Pi^-1 (13 GB at L = 8) is needed.
template <class T>
DeviceBuffer<T> upload_dense(const Eigen::MatrixXd& m, int ld) {
    const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
    DeviceBuffer<T> d(std::size_t(ld) * cols);
    if (d.size() == 0) return d;
    VOXWAVE_CUDA_CHECK(cudaMemset(d.get(), 0, d.size() * sizeof(T)));
    const int chunk = std::max(1, static_cast<int>((std::size_t(1) << 27) / std::max(rows, 1)));  // ~1 GiB
    DeviceBuffer<double> stage(std::size_t(rows) * std::min(chunk, cols));
    for (int j0 = 0; j0 < cols; j0 += chunk) {
        const int w = std::min(chunk, cols - j0);
        VOXWAVE_CUDA_CHECK(cudaMemcpy(stage.get(), m.data() + std::size_t(j0) * rows, sizeof(double) * rows * w,
                                      cudaMemcpyHostToDevice));
        narrow_columns_kernel<T><<<1024, 256>>>(stage.get(), rows, w, d.get() + std::size_t(j0) * ld, ld);
        VOXWAVE_CUDA_CHECK_LAUNCH("narrow_columns_kernel");
    }
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    return d;
}

// Storage row of class-local interior position `pos` (= cell * n + i): interior blocks are kept
// node-in-cell major, [i][cell][k], so applying C^-1 to every cell of a class is ONE product
// (cells K x n) (n x n) instead of a batch of (K x n) (n x n) products (cuBLAS ran the batch at
// 140 TFLOP/s in FP16 at L = 8). cells = 0: the identity (the C and E blocks).
struct RowOrder {
    int n = 1, cells = 0;
    __host__ __device__ long long operator()(long long pos) const { return cells ? (pos % n) * cells + pos / n : pos; }
};

// One chunk between the column-major FP64 staging block (rows x K) and node-major storage of T:
// kToNodeMajor narrows into the storage, otherwise it widens out of it. The loop runs along the
// contiguous side of the destination so its writes coalesce.
template <bool kToNodeMajor, class T>
__global__ void node_major_transfer_kernel(double* staging, int rows, int K, long long pos0, RowOrder order,
                                           T* storage) {
    const long long total = (long long)rows * K;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)gridDim.x * blockDim.x) {
        const long long node = kToNodeMajor ? i / K : i % rows, k = kToNodeMajor ? i % K : i / rows;
        T& slot = storage[order(pos0 + node) * K + k];
        if constexpr (kToNodeMajor)
            slot = from_acc<T>(staging[k * rows + node]);
        else
            staging[k * rows + node] = static_cast<double>(to_acc(slot));
    }
}

inline int transfer_chunk_rows(int rows, int K) {
    return std::max(1, std::min(rows, static_cast<int>((std::size_t(1) << 26) / std::max(K, 1))));  // ~512 MiB
}

// Rows [row0, row0 + rows) of every column of the host right-hand sides into node-major device
// storage (the K values of a node contiguous, rows in `order`), and back: transposed and
// converted on the device in chunks, so a 915,712 x 1024 block (L = 8) does not go through a
// single host thread.
template <class T>
void upload_node_major(const Eigen::MatrixXd& b, int row0, int rows, T* dst, RowOrder order = {}) {
    const int K = static_cast<int>(b.cols()), N = static_cast<int>(b.rows());
    if (rows == 0 || K == 0) return;
    const int chunk = transfer_chunk_rows(rows, K);
    DeviceBuffer<double> stage(std::size_t(chunk) * K);
    for (int i0 = 0; i0 < rows; i0 += chunk) {
        const int h = std::min(chunk, rows - i0);
        VOXWAVE_CUDA_CHECK(cudaMemcpy2D(stage.get(), sizeof(double) * h, b.data() + row0 + i0, sizeof(double) * N,
                                        sizeof(double) * h, K, cudaMemcpyHostToDevice));
        node_major_transfer_kernel<true, T><<<1024, 256>>>(stage.get(), h, K, i0, order, dst);
        VOXWAVE_CUDA_CHECK_LAUNCH("node_major_transfer_kernel");
    }
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T>
void download_node_major(const T* src, int row0, int rows, Eigen::MatrixXd& x, RowOrder order = {}) {
    const int K = static_cast<int>(x.cols()), N = static_cast<int>(x.rows());
    if (rows == 0 || K == 0) return;
    const int chunk = transfer_chunk_rows(rows, K);
    DeviceBuffer<double> stage(std::size_t(chunk) * K);
    for (int i0 = 0; i0 < rows; i0 += chunk) {
        const int h = std::min(chunk, rows - i0);
        node_major_transfer_kernel<false, T><<<1024, 256>>>(stage.get(), h, K, i0, order, const_cast<T*>(src));
        VOXWAVE_CUDA_CHECK_LAUNCH("node_major_transfer_kernel");
        VOXWAVE_CUDA_CHECK(cudaMemcpy2D(x.data() + row0 + i0, sizeof(double) * N, stage.get(), sizeof(double) * h,
                                        sizeof(double) * h, K, cudaMemcpyDeviceToHost));
    }
}

// Y = Y0 - A X (Y0 may be Y). One right-hand side: a thread per row. Several: node-major blocks.
template <class T>
void csr_subtract(const DeviceCsr<T>& A, const T* X, const T* Y0, T* Y, int K) {
    if (A.rows == 0 || K == 0) return;
    if (A.cols == 0) {
        if (Y0 != Y)
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(Y, Y0, sizeof(T) * std::size_t(A.rows) * K, cudaMemcpyDeviceToDevice));
        return;
    }
    if (K == 1) {
        const dim3 block(128), grid((A.rows + 127) / 128, 1);
        csr_subtract_kernel<T>
            <<<grid, block>>>(A.rows, A.row_ptr.get(), A.col.get(), A.val.get(), X, A.cols, Y0, Y, A.rows);
        VOXWAVE_CUDA_CHECK_LAUNCH("csr_subtract_kernel");
        return;
    }
    auto launch = [&](auto per_thread) {
        constexpr int V = decltype(per_thread)::value;
        const int lanes = (K + V - 1) / V, threads = std::min(256, (lanes + 31) / 32 * 32);
        const dim3 block(threads), grid(A.rows, (lanes + threads - 1) / threads);
        csr_subtract_node_major_kernel<T, V><<<grid, block>>>(K, A.row_ptr.get(), A.col.get(), A.val.get(), X, Y0, Y);
        VOXWAVE_CUDA_CHECK_LAUNCH("csr_subtract_node_major_kernel");
    };
    if (K % kRhsPerThread<T> == 0)
        launch(std::integral_constant<int, kRhsPerThread<T>>{});
    else
        launch(std::integral_constant<int, 1>{});
}

// C = alpha op(A) op(B) + beta C (column-major) in the solver's precision; `batch` products with
// strides. FP16 and TF32 run on Tensor Cores with FP32 accumulation.
struct GemmOps {
    cublasOperation_t a = CUBLAS_OP_N, b = CUBLAS_OP_N;
    double alpha = 1, beta = 0;
};

template <class T>
void gemm(cublasHandle_t h, PoissonPrecision precision, int m, int n, int k, const T* A, int lda, long long sA,
          const T* B, int ldb, long long sB, T* C, int ldc, long long sC, int batch = 1, GemmOps ops = {}) {
    if (m == 0 || n == 0 || batch == 0) return;
    if constexpr (std::is_same_v<T, double>) {
        const double alpha = ops.alpha, beta = ops.beta;
        if (batch == 1)
            VOXWAVE_CUDA_CHECK(cublasDgemm(h, ops.a, ops.b, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc));
        else
            VOXWAVE_CUDA_CHECK(cublasDgemmStridedBatched(h, ops.a, ops.b, m, n, k, &alpha, A, lda, sA, B, ldb, sB,
                                                         &beta, C, ldc, sC, batch));
    } else {
        const float alpha = static_cast<float>(ops.alpha), beta = static_cast<float>(ops.beta);
        const cudaDataType t = std::is_same_v<T, __half> ? CUDA_R_16F : CUDA_R_32F;
        const cublasComputeType_t compute =
            precision == PoissonPrecision::Tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
        if (batch == 1)
            VOXWAVE_CUDA_CHECK(cublasGemmEx(h, ops.a, ops.b, m, n, k, &alpha, A, t, lda, B, t, ldb, &beta, C, t, ldc,
                                            compute, CUBLAS_GEMM_DEFAULT));
        else
            VOXWAVE_CUDA_CHECK(cublasGemmStridedBatchedEx(h, ops.a, ops.b, m, n, k, &alpha, A, t, lda, sA, B, t, ldb,
                                                          sB, &beta, C, t, ldc, sC, batch, compute,
                                                          CUBLAS_GEMM_DEFAULT));
    }
}

// B (nC x nE) is kept dense when that is small: its few rows are thousands of entries long
// (B = L^-1 A~_CE fills in), and the CSR kernel walked each row with one thread (4.7 ms of the
// 12.7 ms FP16 solve at L = 7). Dense, both products with B are Tensor Core GEMMs.
inline bool dense_coupling(const PrehandledPoisson& p, std::size_t bytes_per_value) {
    return p.nC > 0 && p.nE > 0 && std::size_t(p.nC) * p.nE * bytes_per_value <= (std::size_t(1) << 31);
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
    DeviceBuffer<T> pi_inverse;              // leading dimension ld_pi
    std::vector<DeviceBuffer<T>> c_inverse;  // leading dimension ld_c
    int ld_pi = 0, ld_c = 0;
    bool dense_b = false;
    DeviceBuffer<T> b_dense;  // B (nC x nE), column-major, leading dimension nC, when dense_b
    DeviceCsr<T> B, Bt;
    std::vector<DeviceCsr<T>> D, Dt;  // per class: columns / rows of its interior nodes
    int K = 0;
    DeviceBuffer<T> bC, bE, r, xE, xC;
    std::vector<DeviceBuffer<T>> bI, y, t, xI;

    TypedSolver(const PrehandledPoisson& pre, PoissonPrecision prec) : p(pre), precision(prec) {
        VOXWAVE_CUDA_CHECK(cublasCreate(&handle));
        // Tensor Cores for FP16 (and TF32 via the compute type); pedantic FP32 otherwise.
        VOXWAVE_CUDA_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
        ld_pi = padded_ld(p.nE);
        ld_c = padded_ld(p.cell_nodes);
        pi_inverse = upload_dense<T>(p.pi_inverse, ld_pi);
        for (const auto& mc : p.classes) {
            c_inverse.push_back(upload_dense<T>(mc.inverse, ld_c));
            // D's columns in the interior storage order (see RowOrder).
            const SparseMatrixd Dcell = p.D.middleCols(mc.first_position, std::size_t(mc.cells) * p.cell_nodes);
            const RowOrder order = interior_order(mc);
            std::vector<Eigen::Triplet<double>> tr;
            tr.reserve(std::size_t(Dcell.nonZeros()));
            for (int col = 0; col < Dcell.outerSize(); ++col)
                for (SparseMatrixd::InnerIterator it(Dcell, col); it; ++it)
                    tr.emplace_back(int(it.row()), int(order(col)), it.value());
            SparseMatrixd Dc(Dcell.rows(), Dcell.cols());
            Dc.setFromTriplets(tr.begin(), tr.end());
            D.push_back(upload_csr<T>(Dc));
            Dt.push_back(upload_csr<T>(SparseMatrixd(Dc.transpose())));
        }
        dense_b = dense_coupling(p, sizeof(T));
        if (dense_b) {
            b_dense = upload_dense<T>(Eigen::MatrixXd(p.B), p.nC);
        } else {
            B = upload_csr<T>(p.B);
            Bt = upload_csr<T>(SparseMatrixd(p.B.transpose()));
        }
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
        // Several right-hand sides: |E| and the cell size padded to multiples of 8 with zero
        // nodes, so the inner dimension of the Pi^-1 and C^-1 products is one too (cuBLAS's FP16
        // Tensor Core kernels wanted it: k = 1953 ran at 134 TFLOP/s at L = 8). The padding
        // stays zero: no sparse product touches it, and the padded rows of Pi^-1, C^-1 are zero.
        r = DeviceBuffer<T>(std::size_t(k_e()) * K);
        xE = DeviceBuffer<T>(std::size_t(k_e()) * K);
        VOXWAVE_CUDA_CHECK(cudaMemset(r.get(), 0, sizeof(T) * r.size()));
        VOXWAVE_CUDA_CHECK(cudaMemset(xE.get(), 0, sizeof(T) * xE.size()));
        bI.clear();
        y.clear();
        t.clear();
        xI.clear();
        for (const auto& mc : p.classes) {
            const std::size_t n = std::size_t(mc.cells) * k_i() * K;
            for (auto* v : {&bI, &y, &t, &xI}) {
                v->emplace_back(n);
                VOXWAVE_CUDA_CHECK(cudaMemset(v->back().get(), 0, sizeof(T) * n));
            }
        }
    }

    RowOrder interior_order(const MacroCellClass& mc) const {
        RowOrder o;
        o.n = p.cell_nodes;
        o.cells = mc.cells;
        return o;
    }

    // C^-1 applied to every macro cell of class c: with the interior block stored [i][cell][k]
    // it is a (cells K x n) matrix, and out = in C^-1 (C^-1 symmetric) is one product.
    void apply_cinv(std::size_t c, const T* in, T* out) {
        const int n = k_i(), rows = p.classes[c].cells * K;
        gemm<T>(handle, precision, rows, n, n, in, rows, 0, c_inverse[c].get(), ld_c, 0, out, rows, 0);
    }
    // Inner dimensions of the dense products: padded (= the leading dimensions) when K > 1.
    int k_e() const { return K > 1 ? ld_pi : p.nE; }
    int k_i() const { return K > 1 ? ld_c : p.cell_nodes; }

    // Steps 4-6 on the device data. With a trace, events between the stages give their times.
    void run_steps(std::vector<cuda::Event>* marks = nullptr) {
        auto mark = [&] {
            if (marks) marks->emplace_back().record();
        };
        mark();
        for (std::size_t c = 0; c < p.classes.size(); ++c) apply_cinv(c, bI[c].get(), y[c].get());
        mark();
        // r = b_E - B^T b_C - sum_c D_c y_c; the first product reads b_E in place of a copy.
        const T* r_in = bE.get();
        if (p.nC && dense_b) {
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(r.get(), bE.get(), sizeof(T) * bE.size(), cudaMemcpyDeviceToDevice));
            GemmOps ops;
            ops.alpha = -1;
            ops.beta = 1;
            if (K == 1) {  // r (nE) -= B^T b_C
                ops.a = CUBLAS_OP_T;
                gemm<T>(handle, precision, p.nE, 1, p.nC, b_dense.get(), p.nC, 0, bC.get(), p.nC, 0, r.get(), p.nE, 0,
                        1, ops);
            } else {  // node-major: r (K x nE) -= b_C (K x nC) B
                gemm<T>(handle, precision, K, p.nE, p.nC, bC.get(), K, 0, b_dense.get(), p.nC, 0, r.get(), K, 0, 1,
                        ops);
            }
            r_in = r.get();
        } else if (p.nC) {
            csr_subtract(Bt, bC.get(), r_in, r.get(), K);
            r_in = r.get();
        }
        for (std::size_t c = 0; c < p.classes.size(); ++c) {
            csr_subtract(D[c], y[c].get(), r_in, r.get(), K);
            r_in = r.get();
        }
        if (r_in != r.get() && p.nE)
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(r.get(), bE.get(), sizeof(T) * bE.size(), cudaMemcpyDeviceToDevice));
        mark();
        // x_E = Pi^-1 r; node-major: x_E^T = r^T Pi^-1 (Pi^-1 symmetric).
        if (K == 1)
            gemm<T>(handle, precision, p.nE, 1, p.nE, pi_inverse.get(), ld_pi, 0, r.get(), p.nE, 0, xE.get(), p.nE, 0);
        else
            gemm<T>(handle, precision, K, k_e(), k_e(), r.get(), K, 0, pi_inverse.get(), ld_pi, 0, xE.get(), K, 0);
        mark();
        if (p.nC && dense_b) {  // x_C = b_C - B x_E
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(xC.get(), bC.get(), sizeof(T) * xC.size(), cudaMemcpyDeviceToDevice));
            GemmOps ops;
            ops.alpha = -1;
            ops.beta = 1;
            if (K == 1) {
                gemm<T>(handle, precision, p.nC, 1, p.nE, b_dense.get(), p.nC, 0, xE.get(), p.nE, 0, xC.get(), p.nC, 0,
                        1, ops);
            } else {  // node-major: x_C (K x nC) -= x_E (K x nE) B^T
                ops.b = CUBLAS_OP_T;
                gemm<T>(handle, precision, K, p.nC, p.nE, xE.get(), K, 0, b_dense.get(), p.nC, 0, xC.get(), K, 0, 1,
                        ops);
            }
        } else {
            csr_subtract(B, xE.get(), bC.get(), xC.get(), K);
        }
        for (std::size_t c = 0; c < p.classes.size(); ++c) csr_subtract(Dt[c], xE.get(), bI[c].get(), t[c].get(), K);
        mark();
        for (std::size_t c = 0; c < p.classes.size(); ++c) apply_cinv(c, t[c].get(), xI[c].get());
        mark();
    }

    // VOXWAVE_POISSON_TRACE=1: one line per stage of a solve (median over the repetitions) on
    // stderr, to see where the time of the many-right-hand-side solve goes.
    void trace_stages(int repetitions) {
        static const char* names[] = {"C^-1 (step 4)", "r = b_E - B^T b_C - D y", "Pi^-1 r (dense)",
                                      "x_C, t = b_I - D^T x_E", "C^-1 (step 6)"};
        std::vector<std::vector<double>> ms(5);
        for (int rep = 0; rep < repetitions; ++rep) {
            std::vector<cuda::Event> marks;
            run_steps(&marks);
            for (std::size_t i = 0; i + 1 < marks.size(); ++i)
                ms[i].push_back(1e3 * cuda::elapsed_seconds(marks[i], marks[i + 1]));
        }
        for (std::size_t i = 0; i < ms.size(); ++i) {
            std::sort(ms[i].begin(), ms[i].end());
            std::fprintf(stderr, "[poisson] K = %d, %-26s %9.3f ms\n", K, names[i], ms[i][ms[i].size() / 2]);
        }
    }

    Eigen::MatrixXd solve(const Eigen::MatrixXd& b) override {
        allocate(static_cast<int>(b.cols()));
        const int nC = p.nC, nE = p.nE;
        upload_node_major<T>(b, 0, nC, bC.get());
        upload_node_major<T>(b, nC, nE, bE.get());
        for (std::size_t c = 0; c < p.classes.size(); ++c)
            upload_node_major<T>(b, nC + nE + p.classes[c].first_position, p.classes[c].cells * p.cell_nodes,
                                 bI[c].get(), interior_order(p.classes[c]));
        run_steps();
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
        Eigen::MatrixXd x(p.unknowns, K);
        download_node_major<T>(xC.get(), 0, nC, x);
        download_node_major<T>(xE.get(), nC, nE, x);
        for (std::size_t c = 0; c < p.classes.size(); ++c)
            download_node_major<T>(xI[c].get(), nC + nE + p.classes[c].first_position,
                                   p.classes[c].cells * p.cell_nodes, x, interior_order(p.classes[c]));
        return x;
    }

    double median_seconds(int repetitions) override {
        cuda::EventTimer timer;
        run_steps();  // warm-up
        if (const char* tr = std::getenv("VOXWAVE_POISSON_TRACE"); tr && *tr == '1')
            trace_stages(std::max(1, repetitions));
        std::vector<double> times;
        for (int i = 0; i < repetitions; ++i) {
            timer.start();
            run_steps();
            timer.stop();
            times.push_back(timer.seconds());
        }
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
    VOXWAVE_CUDA_CHECK(cusolverDnCreate(&h));
    struct HandleGuard {
        cusolverDnHandle_t h;
        ~HandleGuard() { cusolverDnDestroy(h); }
    } guard{h};
    DeviceBuffer<double> a(std::size_t(n) * n);
    VOXWAVE_CUDA_CHECK(cudaMemcpy(a.get(), spd.data(), sizeof(double) * a.size(), cudaMemcpyHostToDevice));
    int lwork = 0, lwork2 = 0;
    VOXWAVE_CUDA_CHECK(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, a.get(), n, &lwork));
    VOXWAVE_CUDA_CHECK(cusolverDnDpotri_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, a.get(), n, &lwork2));
    DeviceBuffer<double> work(std::size_t(std::max(lwork, lwork2)));
    DeviceBuffer<int> info(1);
    VOXWAVE_CUDA_CHECK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, a.get(), n, work.get(), lwork, info.get()));
    if (info.download()[0] != 0) throw RuntimeError("cuSOLVER potrf: Pi is not positive definite");
    VOXWAVE_CUDA_CHECK(cusolverDnDpotri(h, CUBLAS_FILL_MODE_LOWER, n, a.get(), n, work.get(), lwork2, info.get()));
    if (info.download()[0] != 0) throw RuntimeError("cuSOLVER potri failed");
    const dim3 block(32, 32), grid((n + 31) / 32, (n + 31) / 32);
    mirror_lower_kernel<<<grid, block>>>(a.get(), n);
    VOXWAVE_CUDA_CHECK_LAUNCH("mirror_lower_kernel");
    Eigen::MatrixXd inv(n, n);
    VOXWAVE_CUDA_CHECK(cudaMemcpy(inv.data(), a.get(), sizeof(double) * a.size(), cudaMemcpyDeviceToHost));
    return inv;
}

struct CudaPoissonSolver::Impl {
    std::unique_ptr<SolverBase> solver;
    std::string device;
    std::size_t bytes = 0;
};

CudaPoissonSolver::CudaPoissonSolver(const PrehandledPoisson& p, PoissonPrecision precision)
    : impl_(std::make_unique<Impl>()) {
    std::string why;
    if (cuda_devices(&why).empty()) throw InputError("", "backend", "cuda requested but " + why);
    cudaDeviceProp prop{};
    VOXWAVE_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    impl_->device = prop.name;
    const std::size_t s = storage_bytes(precision);
    std::size_t cinv = 0;
    for (const auto& mc : p.classes) cinv += std::size_t(mc.inverse.size());
    cinv = std::size_t(padded_ld(p.cell_nodes)) * p.cell_nodes * p.classes.size();
    impl_->bytes = s * (std::size_t(padded_ld(p.nE)) * p.nE + cinv) +
                   (dense_coupling(p, s) ? s * std::size_t(p.nC) * p.nE : 0) +
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
