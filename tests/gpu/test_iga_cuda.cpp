// The CUDA multi-frontal IGA solver against the CPU one (the oracle), issue 6. Labelled gpu;
// without a device every test reports itself skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/device.hpp"
#include "iga/iga_solver.hpp"
#include "iga/multifrontal_cpu.hpp"
#include "iga/multifrontal_cuda.hpp"
#include "iga/sparse_baseline.hpp"

using namespace voxwave;
using namespace voxwave::iga;

namespace {
bool have_iga_cuda(std::string& why) {
    if (!cuda_compiled()) {
        why = "this build has no CUDA engine";
        return false;
    }
    return !cuda_devices(&why).empty();
}

#define REQUIRE_IGA_CUDA()                                                    \
    do {                                                                      \
        std::string why_;                                                     \
        if (!have_iga_cuda(why_)) GTEST_SKIP() << "no CUDA device: " << why_; \
    } while (0)

double cuda_vs_cpu(int p, int N, IgaProblemKind kind) {
    const IgaSpace s = make_iga_space(p, N);
    const IgaLoad load = iga_load(s, kind);
    const FrontTree t = build_front_tree(s);
    const std::vector<double> cpu = multifrontal_solve_cpu(s, t, load, true);
    const std::vector<double> gpu = multifrontal_solve_cuda(s, t, load);
    double d = 0, sc = 0;
    for (std::size_t i = 0; i < cpu.size(); ++i)
        d = std::max(d, std::abs(cpu[i] - gpu[i])), sc = std::max(sc, std::abs(cpu[i]));
    return d / sc;
}
}  // namespace

// Small meshes: every front goes through the batched path (cusolverDnDpotrfBatched, ...).
TEST(IgaCuda, BatchedFrontsMatchCpuForEveryDegree) {
    REQUIRE_IGA_CUDA();
    for (int p = 1; p <= 4; ++p)
        for (IgaProblemKind kind : {IgaProblemKind::Seed, IgaProblemKind::Manufactured})
            EXPECT_LT(cuda_vs_cpu(p, 16, kind), 1e-12) << "p " << p << " " << to_string(kind);
}

// N = 128, p = 3: the root eliminates about 780 unknowns, above the single-front threshold, so
// the full-device potrf/trsm/gemm path runs too.
TEST(IgaCuda, BigRootFrontMatchesCpu) {
    REQUIRE_IGA_CUDA();
    EXPECT_LT(cuda_vs_cpu(3, 128, IgaProblemKind::Manufactured), 1e-11);
}

TEST(IgaCuda, SeedProblemReproducesX2OnTheDevice) {
    REQUIRE_IGA_CUDA();
    for (int p = 1; p <= 4; ++p) {
        IgaParams q;
        q.degree = p;
        q.elements = 32;
        q.problem = IgaProblemKind::Seed;
        q.backend = Backend::Cuda;
        q.grid = 11;
        const IgaResult r = solve_iga(q);
        EXPECT_EQ(r.backend, "cuda");
        EXPECT_LT(r.l2_error, 1e-12) << "p " << p;
        EXPECT_LT(r.baseline_max_difference, 1e-12) << "p " << p;
    }
}

// The GPU baseline (cuSOLVER sparse Cholesky) solves the same assembled system as the
// multi-frontal solver: equal to 1e-10 relative (a different elimination order, symrcm).
TEST(IgaCuda, CusolverSparseBaselineEqualsTheMultifrontalSolution) {
    REQUIRE_IGA_CUDA();
    for (int p : {1, 2, 3}) {
        const IgaSpace s = make_iga_space(p, 32);
        const IgaLoad load = iga_load(s, IgaProblemKind::Manufactured);
        const FrontTree t = build_front_tree(s);
        const std::vector<double> mf = multifrontal_solve_cpu(s, t, load, true);
        double secs = 0;
        std::string device;
        const std::vector<double> sp =
            sparse_direct_solve_cusolver(s, assemble_sparse_system(s, load), load, &secs, &device);
        ASSERT_EQ(sp.size(), mf.size());
        double d = 0, sc = 0;
        for (std::size_t i = 0; i < mf.size(); ++i)
            d = std::max(d, std::abs(mf[i] - sp[i])), sc = std::max(sc, std::abs(mf[i]));
        EXPECT_LT(d / sc, 1e-10) << "p " << p;
        EXPECT_GT(secs, 0.0);
        EXPECT_FALSE(device.empty());
    }
}
