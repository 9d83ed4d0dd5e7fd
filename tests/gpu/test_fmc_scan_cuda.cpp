// An FMC and a PWI scan on the CUDA engine against the CPU engine (the oracle): every shot's
// element signals (an FMC's one-element apertures, a PWI's shifted steer laws), FP64, 1e-12 of
// the peak, shot by shot (a PML) and batched (element means formed on the device). Labelled
// `gpu`; skipped without a device.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/device.hpp"
#include "require_cuda.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/probe_scan.hpp"

using namespace voxwave;

namespace {

Scene fmc_scene(const std::string& type, Backend backend) {
    // Elements below a voxel apart: neighbours share face nodes.
    Scene s = voxwave::testing::array_on_steel_block(6, 0.3e-3, 0.25e-3);
    const double ds = s.grid.spacing;
    s.shapes.push_back({"void", CylinderShape{{20 * ds, 2 * ds, 10 * ds}, {0, 1, 0}, 3 * ds, 1}});
    s.scan = ScanSpec{};
    s.scan->probe = "PA";
    s.scan->type = type;
    if (type == "pwi") s.scan->angles = {-15, 0, 25};
    s.boundary.absorbing.type = "pml";
    s.boundary.absorbing.faces = {"x-", "x+", "z-"};
    s.boundary.absorbing.thickness = 4 * ds;
    s.run.steps = 200;
    s.run.backend = backend;
    validate_scene(s, type);
    return s;
}

}  // namespace

TEST(CudaFmcScan, ShotsEqualTheCpuEngine) {
    REQUIRE_CUDA();
    for (const std::string type : {"fmc", "pwi"}) {
        SCOPED_TRACE(type);
        const Scene cpu_scene = fmc_scene(type, Backend::Cpu), gpu_scene = fmc_scene(type, Backend::Cuda);
        const Result cpu = run_probe_scan(cpu_scene, rasterise(cpu_scene), type, {});
        const Result gpu = run_probe_scan(gpu_scene, rasterise(gpu_scene), type, {});
        ASSERT_TRUE(cpu.scan && gpu.scan);
        EXPECT_EQ(gpu.backend, "cuda");
        const std::vector<double>& c = cpu.scan->shot_signals;
        const std::vector<double>& g = gpu.scan->shot_signals;
        ASSERT_EQ(c.size(), g.size());
        const double peak = test::max_abs(c);
        ASSERT_GT(peak, 0.0);
        EXPECT_LT(test::max_abs_difference(c, g) / peak, 1e-12);
    }
}

// The FMC batched on the GPU (a sponge, not a PML: the shots are stepped together and each
// group's element means are formed on the device, only those rows coming back) against the CPU
// engine's shots one at a time, which average every face node's trace on the host: every shot's
// element signals, and shot 0's scene receiver kept beside the probe's rows, 1e-12 of the peak.
TEST(CudaFmcScan, BatchedElementSignalsFormedOnTheDeviceEqualTheCpuEngine) {
    REQUIRE_CUDA();
    auto scene = [](Backend backend) {
        Scene s = voxwave::testing::array_on_steel_block(6, 0.3e-3, 0.25e-3);
        const double ds = s.grid.spacing;
        s.shapes.push_back({"void", CylinderShape{{20 * ds, 2 * ds, 10 * ds}, {0, 1, 0}, 3 * ds, 1}});
        s.receivers.push_back({"R", {28 * ds, 2 * ds, 24 * ds}});
        s.scan = ScanSpec{};
        s.scan->probe = "PA";
        s.scan->type = "fmc";
        s.boundary.absorbing.type = "sponge";
        s.boundary.absorbing.faces = {"x-", "x+", "z-"};
        s.boundary.absorbing.thickness = 4 * ds;
        s.run.steps = 200;
        s.run.backend = backend;
        validate_scene(s, "fmc");
        return s;
    };
    const Scene cpu_scene = scene(Backend::Cpu), gpu_scene = scene(Backend::Cuda);
    const Result cpu = run_probe_scan(cpu_scene, rasterise(cpu_scene), "fmc", {}, nullptr, {}, nullptr, 1);
    std::string note;
    const Result gpu = run_probe_scan(gpu_scene, rasterise(gpu_scene), "fmc", {}, &note, {}, nullptr, 4);
    EXPECT_NE(note.find("6 shots stepped in groups of 4"), std::string::npos) << note;
    ASSERT_TRUE(cpu.scan && gpu.scan);
    EXPECT_EQ(gpu.backend, "cuda");
    auto expect_close = [](const std::vector<double>& c, const std::vector<double>& g, const char* what) {
        ASSERT_EQ(c.size(), g.size()) << what;
        const double peak = test::max_abs(c);
        ASSERT_GT(peak, 0.0) << what;
        const double worst = test::max_abs_difference(c, g) / peak;
        std::printf("%s: largest difference %.3g of the peak\n", what, worst);
        EXPECT_LT(worst, 1e-12) << what;
    };
    expect_close(cpu.scan->shot_signals, gpu.scan->shot_signals, "every shot's element signals");
    ASSERT_EQ(cpu.probes.size(), 1u);
    ASSERT_EQ(gpu.probes.size(), 1u);
    expect_close(cpu.probes[0].element_signals, gpu.probes[0].element_signals, "shot 0's probe record");
    EXPECT_EQ(gpu.receiver_names, std::vector<std::string>{"R"});
    expect_close(cpu.displacement, gpu.displacement, "shot 0's receiver displacement");
    expect_close(cpu.velocity, gpu.velocity, "shot 0's receiver velocity");
}
