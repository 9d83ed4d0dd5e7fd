// An FMC and a PWI scan on the CUDA engine against the CPU engine (the oracle): every shot's
// element signals (an FMC's one-element apertures, a PWI's shifted steer laws), FP64, 1e-12 of
// the peak. Labelled `gpu`; skipped without a device.
#include <gtest/gtest.h>

#include "core/device.hpp"
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
    std::string why;
    if (!cuda_compiled() || cuda_devices(&why).empty()) GTEST_SKIP() << "no CUDA device: " << why;
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
