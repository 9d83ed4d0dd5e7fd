// The fused CUDA step's sources and receivers on both sides of the threshold (fused_points.hpp):
// many (an array probe, every element's face a row of source and receiver nodes) go to one launch
// after the kernel, a few (a point force and three receivers) stay in the kernel. Each against the
// CPU engine (the oracle, FP64, 1e-12 of the peak) and each placement against the other forced
// (FusedPoints::InKernel / AfterKernel): every receiver's trace and the final state bit for bit,
// since both add a node's sources one after another in the list's order and copy u^n unchanged
// (to rounding with a PML, whose element pass adds with atomics).
// Labelled `gpu`; skipped without a device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "require_cuda.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/probe_recording.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

// An 8-element array on a steel block at 0.25 mm: elements 0.6 mm wide at a 0.75 mm pitch, so
// neighbours share a row of face nodes (two sources on one node), 3 mm of elevation (13 node rows),
// and one receiver of the scene's own at the bottom.
Scene array_scene(bool pml) {
    const double ds = 0.25e-3;
    Scene s = voxwave::testing::block_scene(40, 20, 24, ds, voxwave::testing::steel());
    s.run.steps = 160;
    s.receivers = {{"R0", {20 * ds, 10 * ds, 12 * ds}}};  // mid-depth: outside the z- layer
    s.probes = {voxwave::testing::top_array_probe("PA", 8, 0.75e-3, 0.6e-3, 3e-3, {20 * ds, 10 * ds, 24 * ds},
                                                  voxwave::testing::tone_burst(2e6, 2))};
    if (pml) {
        s.boundary.absorbing.type = "pml";
        s.boundary.absorbing.faces = {"x-", "x+", "z-"};
        s.boundary.absorbing.thickness = 4 * ds;
    }
    return s;
}

// One point force and three receivers on the same block.
Scene point_scene() {
    const double ds = 0.25e-3;
    Scene s = voxwave::testing::block_scene(40, 20, 24, ds, voxwave::testing::steel());
    s.run.steps = 160;
    Source f;
    f.name = "F";
    f.position = {20 * ds, 10 * ds, 24 * ds};
    f.direction = {0, 0, -1};
    f.wavelet = voxwave::testing::tone_burst(2e6, 2);
    s.sources = {f};
    s.receivers = {
        {"R0", {20 * ds, 10 * ds, 0}}, {"R1", {31 * ds, 10 * ds, 24 * ds}}, {"R2", {8 * ds, 4 * ds, 12 * ds}}};
    return s;
}

struct GpuRun {
    Result result;          // every receiver's traces (a probe's face nodes too), then the probes' records
    std::vector<double> u;  // the state after the last step
    bool kernel_points = false;
};

GpuRun run_gpu(const WaveProblem& p, FusedPoints placement) {
    CudaEngineOptions options;
    options.moment_step = MomentStepDesign::Fused;
    options.fused_points = placement;
    CudaTimeStepper stepper(p, options);
    GpuRun run;
    run.kernel_points = stepper.fused_kernel_points();
    for (const auto& rec : p.receivers) {
        run.result.receiver_names.push_back(rec.name);
        run.result.receiver_positions.push_back(rec.snapped);
    }
    record_wave_cuda(stepper, p, {}, run.result);
    run.u = stepper.displacement();
    return run;
}

double relative_difference(const std::vector<double>& oracle, const std::vector<double>& got) {
    EXPECT_EQ(oracle.size(), got.size());
    const double peak = test::max_abs(oracle);
    EXPECT_GT(peak, 0.0);
    return test::max_abs_difference(oracle, got) / peak;
}

// The CPU engine against Auto's placement (expected: `kernel_points`), and the two placements
// forced against each other bit for bit.
void check_both_placements(const Scene& scene, Method method, bool kernel_points) {
    Scene cpu_scene = scene;
    cpu_scene.run.method = Method::Ovfem;  // TCOVFEM's oracle too: at M = 8 it is FP64-level
    const WaveProblem cp = build_wave_problem(cpu_scene, "test");
    const Result cpu = run_wave(cp, {});
    Scene gpu_scene = scene;
    gpu_scene.run.backend = Backend::Cuda;
    gpu_scene.run.method = method;
    const WaveProblem p = build_wave_problem(gpu_scene, "test");
    const GpuRun in_kernel = run_gpu(p, FusedPoints::InKernel), after = run_gpu(p, FusedPoints::AfterKernel);
    GpuRun automatic = run_gpu(p, FusedPoints::Auto);
    const bool pml = p.boundary.has_pml();  // the receivers stay in the kernel with a layer
    EXPECT_TRUE(in_kernel.kernel_points);
    EXPECT_EQ(after.kernel_points, pml);
    EXPECT_EQ(automatic.kernel_points, kernel_points || pml);

    if (pml) {
        // The layer's element pass adds its forces with atomics, so two runs of one placement
        // agree to rounding, not bit for bit.
        EXPECT_LT(relative_difference(in_kernel.result.displacement, after.result.displacement), 1e-12);
        EXPECT_LT(relative_difference(in_kernel.result.velocity, after.result.velocity), 1e-12);
        EXPECT_LT(relative_difference(in_kernel.u, after.u), 1e-12);
    } else {
        EXPECT_TRUE(in_kernel.result.displacement == after.result.displacement);
        EXPECT_TRUE(in_kernel.result.velocity == after.result.velocity);
        EXPECT_TRUE(in_kernel.u == after.u);
    }
    EXPECT_EQ(in_kernel.result.displacement.size(), 3 * p.receivers.size() * std::size_t(p.steps));

    record_probes(p, automatic.result);
    EXPECT_LT(relative_difference(cpu.displacement, automatic.result.displacement), 1e-12);
    EXPECT_LT(relative_difference(cpu.velocity, automatic.result.velocity), 1e-12);
    ASSERT_EQ(cpu.probes.size(), automatic.result.probes.size());
    for (std::size_t i = 0; i < cpu.probes.size(); ++i)
        EXPECT_LT(relative_difference(cpu.probes[i].element_signals, automatic.result.probes[i].element_signals), 1e-12)
            << cpu.probes[i].name;
}

}  // namespace

// Above the threshold: the array's 8 elements put tens of source nodes each on the face (the
// shared rows carry two sources), far more than 8 sources and 64 receivers. Without a PML the
// launch adds the sources the kernel no longer adds and samples the receivers; with one the
// sources come after the PML's passes either way and the receivers stay in the kernel, whatever
// the placement asked for.
TEST(CudaFusedPoints, ArrayProbeAfterTheKernelEqualsTheCpuEngineAndTheKernelsOwnPass) {
    REQUIRE_CUDA();
    for (bool pml : {false, true})
        for (Method m : {Method::Ovfem, Method::Tcovfem}) {
            SCOPED_TRACE(std::string(pml ? "pml, " : "free, ") + to_string(m));
            const Scene s = array_scene(pml);
            const WaveProblem p = build_wave_problem(s, "test");
            ASSERT_GT(p.sources.size(), kFusedKernelSources);
            ASSERT_GT(p.receivers.size(), kFusedKernelReceivers);
            // Some node carries two elements' sources (the order the launch must keep).
            std::vector<int> per_node(p.grid.node_count(), 0);
            int shared = 0;
            for (const SourceTerm& t : p.sources) shared += ++per_node[t.node] == 2;
            ASSERT_GT(shared, 0);
            check_both_placements(s, m, false);
        }
}

// Below it: a point force and three receivers stay in the fused kernel.
TEST(CudaFusedPoints, PointForceInTheKernelEqualsTheCpuEngineAndTheLaunch) {
    REQUIRE_CUDA();
    const Scene s = point_scene();
    const WaveProblem p = build_wave_problem(s, "test");
    ASSERT_LE(p.sources.size(), kFusedKernelSources);
    ASSERT_LE(p.receivers.size(), kFusedKernelReceivers);
    check_both_placements(s, Method::Ovfem, true);
}
