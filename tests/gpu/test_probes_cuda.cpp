// Probes on the CUDA engine against the CPU engine (the oracle): a steered array whose elements
// share face nodes (so several sources land on one node) and a shear piston, with and without a
// PML, in the fused step and the split design. Labelled `gpu`; skipped without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/device.hpp"
#include "require_cuda.hpp"
#include "scene/rasterise.hpp"
#include "scene/result.hpp"
#include "test_util.hpp"
#include "wave/probe_recording.hpp"
#include "wave/probe_scan.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

Scene probe_scene(bool pml) {
    Scene s;
    const double ds = 1e-3;
    s.grid.size = {24 * ds, 12 * ds, 14 * ds};
    s.grid.spacing = ds;
    s.materials = {{"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = "steel";
    s.run.steps = 300;
    s.run.backend = Backend::Cpu;
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 5900.0 / 8e-3;
    w.delay = 1.2 / w.frequency;
    ProbeSpec a;
    a.name = "PA";
    a.type = "array";
    a.center = {10.3e-3, 6e-3, 14e-3};
    a.normal = {0, 0, -1};
    a.elements = 8;
    a.pitch = 0.75e-3;  // below a voxel: neighbouring elements share face nodes
    a.element_width = 0.6e-3;
    a.elevation = 6e-3;
    a.wavelet = w;
    a.delay_law = {"steer", 30, 0, {}, {}};
    ProbeSpec b;
    b.name = "UT";
    b.center = {24e-3, 6e-3, 7e-3};
    b.normal = {-1, 0, 0};
    b.diameter = 5e-3;
    b.mode = "shear";
    b.polarization = {0, 0, 1};
    b.wavelet = w;
    s.probes = {a, b};
    if (pml) {
        s.boundary.absorbing.type = "pml";
        s.boundary.absorbing.faces = {"x-", "z-"};
        s.boundary.absorbing.thickness = 4 * ds;
    }
    return s;
}

}  // namespace

TEST(CudaProbes, SignalsEqualTheCpuEngine) {
    REQUIRE_CUDA();
    for (bool pml : {false, true}) {
        const WaveProblem p = build_wave_problem(probe_scene(pml), "probes");
        const Result cpu = run_wave(p, {});
        ASSERT_EQ(cpu.probes.size(), 2u);
        for (MomentStepDesign design : {MomentStepDesign::Fused, MomentStepDesign::Split}) {
            SCOPED_TRACE(std::string(pml ? "pml, " : "free, ") +
                         (design == MomentStepDesign::Fused ? "fused" : "split"));
            CudaEngineOptions options;
            options.moment_step = design;
            // run_wave_cuda fills the traces; the receivers' names and positions come from run_wave.
            Result gpu;
            for (const auto& rec : p.receivers) {
                gpu.receiver_names.push_back(rec.name);
                gpu.receiver_positions.push_back(rec.snapped);
            }
            run_wave_cuda(p, {}, gpu, options);
            record_probes(p, gpu);
            ASSERT_EQ(gpu.probes.size(), 2u);
            for (std::size_t i = 0; i < 2; ++i) {
                const std::vector<double>& c = cpu.probes[i].element_signals;
                const std::vector<double>& g = gpu.probes[i].element_signals;
                ASSERT_EQ(c.size(), g.size());
                const double peak = test::max_abs(c);
                ASSERT_GT(peak, 0.0);
                EXPECT_LT(test::max_abs_difference(c, g) / peak, 1e-12) << cpu.probes[i].name;
            }
        }
    }
}

// A scan on CUDA runs its shots back to back on one engine (ShotRunner: the device buffers kept,
// the sources and receivers re-uploaded, the fields zeroed): every row, the C-scan and shot 0's
// probes equal the CPU scan's (whose rows equal independent single runs bit for bit,
// tests/engine/test_scan_execution.cpp) to 1e-12, with and without a PML.
TEST(CudaProbes, ScanShotsBackToBackEqualTheCpuScan) {
    REQUIRE_CUDA();
    for (bool pml : {false, true}) {
        SCOPED_TRACE(pml ? "pml" : "free");
        Scene s = probe_scene(pml);
        s.run.steps = 200;
        s.scan = ScanSpec{"PA", "linear", {1e-3, 0, 0}, 4, {0, 0, 0}, 1, true, 1e-6, 4e-6};
        const Result cpu = run_probe_scan(s, rasterise(s), "scan", {});
        s.run.backend = Backend::Cuda;
        const Result gpu = run_probe_scan(s, rasterise(s), "scan", {});
        ASSERT_TRUE(cpu.scan && gpu.scan);
        EXPECT_EQ(gpu.backend, "cuda");
        const std::vector<double>& c = cpu.scan->shot_signals;
        const std::vector<double>& g = gpu.scan->shot_signals;
        ASSERT_EQ(c.size(), g.size());
        const double peak = test::max_abs(c);
        ASSERT_GT(peak, 0.0);
        EXPECT_LT(test::max_abs_difference(c, g) / peak, 1e-12);
        EXPECT_LT(test::max_abs_difference(cpu.scan->cscan, gpu.scan->cscan) / test::max_abs(cpu.scan->cscan), 1e-12);
        ASSERT_EQ(gpu.probes.size(), cpu.probes.size());
        for (std::size_t i = 0; i < cpu.probes.size(); ++i)
            EXPECT_LT(test::max_abs_difference(cpu.probes[i].element_signals, gpu.probes[i].element_signals) /
                          test::max_abs(cpu.probes[i].element_signals),
                      1e-12)
                << cpu.probes[i].name;
    }
}
