// Wavefield snapshots on the CUDA engine (the snapshot nodes gathered on the device, the step
// batches cut at snapshot steps) against the CPU engine's: the same steps, nodes and values, FP64
// to 1e-12 of the peak and FP32 to 1e-5 (the tolerances of test_cuda_equivalence.cpp). Labelled
// `gpu`; skipped without a CUDA device.
#include <gtest/gtest.h>

#include <string>

#include "core/device.hpp"
#include "require_cuda.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

double largest_difference(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b,
                          double& peak) {
    double diff = 0;
    for (std::size_t s = 0; s < a.size(); ++s) {
        diff = std::max(diff, test::max_abs_difference(a[s], b[s]));
        peak = std::max(peak, test::max_abs(a[s]));
    }
    return diff;
}

TEST(CudaSnapshots, RegionAtAStrideEqualsTheCpuEngine) {
    REQUIRE_CUDA();
    Scene s = read_scene_json(std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json");
    s.grid.spacing = 0.008;
    s.run.steps = 700;  // beyond one step batch (512), with snapshots on both sides of it
    s.run.dt = 0;
    SnapshotSpec spec;
    spec.every = 170;
    spec.fields = {"u", "v"};
    spec.region = SnapshotRegion{{0.05, 0.0, 0.1}, {0.30, 0.12, 0.35}};
    spec.stride = 3;
    s.snapshots = spec;
    for (Precision p : {Precision::Fp64, Precision::Fp32}) {
        SCOPED_TRACE(to_string(p));
        s.run.precision = p;
        s.run.backend = Backend::Cpu;
        const Result cpu = run_wave(build_wave_problem(s, "test"), nullptr);
        s.run.backend = Backend::Cuda;
        const Result gpu = run_wave(build_wave_problem(s, "test"), nullptr);
        ASSERT_EQ(gpu.backend, "cuda");
        EXPECT_EQ(gpu.snapshots.steps, (std::vector<std::int64_t>{170, 340, 510, 680}));
        EXPECT_EQ(gpu.snapshots.steps, cpu.snapshots.steps);
        EXPECT_EQ(gpu.snapshots.grid, cpu.snapshots.grid);
        ASSERT_EQ(gpu.snapshots.u.size(), 4u);
        ASSERT_EQ(gpu.snapshots.v.size(), 4u);
        const double tol = p == Precision::Fp64 ? 1e-12 : 1e-5;
        double peak_u = 0, peak_v = 0;
        const double du = largest_difference(cpu.snapshots.u, gpu.snapshots.u, peak_u);
        const double dv = largest_difference(cpu.snapshots.v, gpu.snapshots.v, peak_v);
        ASSERT_GT(peak_u, 0.0);
        EXPECT_LT(du / peak_u, tol);
        EXPECT_LT(dv / peak_v, tol);
        // The receivers' traces are untouched by the cut batches.
        EXPECT_LT(test::max_abs_difference(cpu.displacement, gpu.displacement) / test::max_abs(cpu.displacement), tol);
    }
}

}  // namespace
