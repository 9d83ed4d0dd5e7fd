// The multi-frontal numeric phase on a CUDA device: every front of one tree level is processed
// together. Fronts of a level fall into a few shapes (interior, edge, corner patches); each
// shape is one batch: batched Cholesky (cusolverDnDpotrfBatched), batched triangular solve and
// batched Schur update (cublasDtrsmBatched, cublasDgemmBatched). The few big fronts near the
// root go one by one through the full-device cuSOLVER/cuBLAS routines. Leaves are built on the
// device from the 1D tables; children's Schur complements are added into their parents by one
// kernel per level. No CUDA types here: CPU-only code can include it; without CUDA in the
// build every entry point throws InputError("", "--backend", ...).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "iga/multifrontal_tree.hpp"

namespace voxwave::iga {

struct CudaMultifrontalTimings {
    double setup_seconds = 0;   // allocations, uploads, batch pointer tables (host clock)
    double factor_seconds = 0;  // leaves + eliminations up the tree (CUDA events)
    double solve_seconds = 0;   // backward substitution (CUDA events)
    std::size_t device_bytes = 0;
    std::string device;
};

// Same contract as multifrontal_solve_cpu. Throws InputError("", "--elements", "... needs X GiB
// of GPU memory, the device has Y GiB free") when the fronts do not fit.
std::vector<double> multifrontal_solve_cuda(const IgaSpace& s, const FrontTree& t, const IgaLoad& load,
                                            CudaMultifrontalTimings* timings = nullptr);

}  // namespace voxwave::iga
