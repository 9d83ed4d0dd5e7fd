// Status checks of the CUDA libraries, as overloads of the one check: VOXWAVE_CUDA_CHECK(call)
// takes a cuBLAS, cuSOLVER or cuSPARSE call as it takes a CUDA runtime call.
#pragma once

#include <cublas_v2.h>
#include <cusolver_common.h>
#include <cusparse.h>

#include <string>

#include "core/cuda_check.cuh"

namespace voxwave::cuda {

inline void check(cublasStatus_t s, const char* what, const char* file, int line) {
    if (s != CUBLAS_STATUS_SUCCESS) throw_call_error("cuBLAS", cublasGetStatusString(s), what, file, line);
}
// cuSOLVER has no status strings: the number is the diagnosis (cusolver_common.h).
inline void check(cusolverStatus_t s, const char* what, const char* file, int line) {
    if (s != CUSOLVER_STATUS_SUCCESS)
        throw_call_error("cuSOLVER", "status " + std::to_string(int(s)), what, file, line);
}
inline void check(cusparseStatus_t s, const char* what, const char* file, int line) {
    if (s != CUSPARSE_STATUS_SUCCESS) throw_call_error("cuSPARSE", cusparseGetErrorString(s), what, file, line);
}

}  // namespace voxwave::cuda
