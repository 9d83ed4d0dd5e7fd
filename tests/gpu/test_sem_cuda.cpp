// The spectral voxel elements on CUDA against the CPU engine (the oracle): products K v and whole
// runs' traces and states, p = 2..4, FP64 to 1e-12 (the sums at shared nodes run in colour order,
// not the CPU's element order), FP32 to 1e-5, on a model with two materials, a void, a fixed face,
// a sponge, Rayleigh damping, a source and receivers; and the column sweep with cells of 1, 3, 4
// (a shorter last cell) and all 9 element planes. Labelled `gpu`; without a CUDA device every case
// reports itself skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/device.hpp"
#include "require_cuda.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using voxwave::test::random_vector;

namespace {

// Two materials, a void, Rayleigh damping, a fixed face and a sponge on two faces.
Scene sem_scene(int order, Precision precision, std::int64_t steps) {
    Scene s;
    const double ds = 0.004;
    s.grid.size = {10 * ds, 8 * ds, 9 * ds};
    s.grid.spacing = ds;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}, {"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = "concrete";
    s.shapes.push_back({"steel", BoxShape{{0.008, 0.0, 0.012}, {0.02, 0.032, 0.02}}});
    s.shapes.push_back({"void", SphereShape{{0.03, 0.02, 0.024}, 0.006}});
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 150e3;
    w.delay = 8e-6;
    s.sources.push_back({"S", {0.012, 0.016, 0.03}, {0.2, 0.3, 1.0}, 1.0, w});
    s.receivers.push_back({"R1", {0.028, 0.012, 0.01}});
    s.receivers.push_back({"R2", {0.036, 0.028, 0.034}});
    s.boundary.fixed_faces = {"z-"};
    s.boundary.absorbing.faces = {"x-", "x+"};
    s.boundary.absorbing.thickness = 0.008;
    s.boundary.absorbing.type = "sponge";
    s.damping = {"rayleigh", 0.01, 100e3, 200e3};
    s.run.method = Method::Sem;
    s.run.order = order;
    s.run.precision = precision;
    s.run.steps = steps;
    return s;
}

using test::max_abs;

class SemCuda : public ::testing::TestWithParam<int> {};

TEST_P(SemCuda, ProductEqualsCpu) {
    REQUIRE_CUDA();
    for (Precision pr : {Precision::Fp64, Precision::Fp32}) {
        Scene s = sem_scene(GetParam(), pr, 1);
        validate_scene(s, "sem");
        const WaveProblem p = build_wave_problem(s, "sem");
        const std::vector<double> v = random_vector(3 * p.node_count(), 5);
        const std::vector<double> cpu = pr == Precision::Fp64 ? SemTimeStepperCpu<double>(p).stiffness_times(v)
                                                              : SemTimeStepperCpu<float>(p).stiffness_times(v);
        const double scale = max_abs(cpu), tol = pr == Precision::Fp64 ? 1e-12 : 1e-5;
        ASSERT_GT(scale, 0);
        for (SemCudaSchedule schedule : {SemCudaSchedule::Sweep, SemCudaSchedule::Scatter}) {
            SCOPED_TRACE(to_string(schedule));
            const std::vector<double> gpu = SemCudaTimeStepper(p, -1, 0, schedule).stiffness_times(v);
            for (std::size_t i = 0; i < cpu.size(); ++i) ASSERT_NEAR(gpu[i], cpu[i], tol * scale) << i;
        }
    }
}

TEST_P(SemCuda, TracesAndStateEqualCpu) {
    REQUIRE_CUDA();
    for (Precision pr : {Precision::Fp64, Precision::Fp32}) {
        Scene s = sem_scene(GetParam(), pr, 300);
        validate_scene(s, "sem");
        WaveProblem p = build_wave_problem(s, "sem");
        p.backend = Backend::Cpu;
        const Result cpu = run_wave(p, {});
        p.backend = Backend::Cuda;
        const Result gpu = run_wave(p, {});
        const double scale = max_abs(cpu.displacement), tol = pr == Precision::Fp64 ? 1e-12 : 1e-5;
        ASSERT_GT(scale, 0);
        ASSERT_EQ(gpu.displacement.size(), cpu.displacement.size());
        for (std::size_t i = 0; i < cpu.displacement.size(); ++i)
            ASSERT_NEAR(gpu.displacement[i], cpu.displacement[i], tol * scale) << i;
        for (std::size_t r = 0; r < cpu.receiver_positions.size(); ++r)
            for (int c = 0; c < 3; ++c) EXPECT_EQ(gpu.receiver_positions[r][c], cpu.receiver_positions[r][c]);
        if (pr != Precision::Fp64) continue;
        // The whole state after the same steps.
        SemTimeStepperCpu<double> c64(p);
        SemCudaTimeStepper g(p);
        for (int n = 0; n < 100; ++n) c64.step(n);
        g.advance(0, 100);
        const auto uc = c64.displacement(), ug = g.displacement();
        const double us = max_abs(uc);
        ASSERT_GT(us, 0);
        for (std::size_t i = 0; i < uc.size(); ++i) ASSERT_NEAR(ug[i], uc[i], 1e-12 * us) << i;
    }
}

TEST_P(SemCuda, UndampedWithoutSpongeEqualsCpu) {
    // No sponge and no damping: the fused step takes h as one number and never reads u- for the
    // operand (the other cases have both). The column sweep (small models run the scatter
    // otherwise, test_sem_scatter_cuda.cpp's case).
    REQUIRE_CUDA();
    Scene s = sem_scene(GetParam(), Precision::Fp64, 200);
    s.boundary.absorbing.faces.clear();
    s.damping = {};
    validate_scene(s, "sem");
    WaveProblem p = build_wave_problem(s, "sem");
    ASSERT_EQ(p.rayleigh.beta, 0.0);
    SemTimeStepperCpu<double> cpu(p);
    SemCudaTimeStepper gpu(p, -1, 0, SemCudaSchedule::Sweep);
    for (int n = 0; n < 200; ++n) cpu.step(n);
    gpu.advance(0, 200);
    const auto uc = cpu.displacement(), ug = gpu.displacement(), pc = cpu.previous_displacement(),
               pg = gpu.previous_displacement();
    const double us = max_abs(uc);
    ASSERT_GT(us, 0);
    for (std::size_t i = 0; i < uc.size(); ++i) {
        ASSERT_NEAR(ug[i], uc[i], 1e-12 * us) << i;
        ASSERT_NEAR(pg[i], pc[i], 1e-12 * us) << i;
    }
}

TEST_P(SemCuda, EveryCellHeightEqualsCpu) {
    // The column sweep (forced: the model is small enough for the automatic scatter). The cells'
    // element planes only move sums between registers and the partial-force buffer:
    // the product and a damped, sponged run with the source firing agree with the CPU whatever
    // they are, in FP64 and FP32.
    REQUIRE_CUDA();
    for (Precision pr : {Precision::Fp64, Precision::Fp32}) {
        Scene s = sem_scene(GetParam(), pr, 1);
        validate_scene(s, "sem");
        const WaveProblem p = build_wave_problem(s, "sem");
        ASSERT_EQ(p.grid.n[2], 9);
        ASSERT_GT(p.rayleigh.beta, 0.0);
        const double tol = pr == Precision::Fp64 ? 1e-12 : 1e-5;
        const std::vector<double> v = random_vector(3 * p.node_count(), 9);
        std::vector<double> ku, uc;
        if (pr == Precision::Fp64) {
            SemTimeStepperCpu<double> cpu(p);
            ku = cpu.stiffness_times(v);
            for (int n = 0; n < 100; ++n) cpu.step(n);
            uc = cpu.displacement();
        } else {
            SemTimeStepperCpu<float> cpu(p);
            ku = cpu.stiffness_times(v);
            for (int n = 0; n < 100; ++n) cpu.step(n);
            uc = cpu.displacement();
        }
        const double ks = max_abs(ku), us = max_abs(uc);
        ASSERT_GT(ks, 0);
        ASSERT_GT(us, 0);
        for (int planes : {1, 3, 4, 9}) {
            SCOPED_TRACE(planes);
            SemCudaTimeStepper gpu(p, -1, planes, SemCudaSchedule::Sweep);
            EXPECT_EQ(gpu.cell_planes(), planes);
            const std::vector<double> kg = gpu.stiffness_times(v);
            for (std::size_t i = 0; i < ku.size(); ++i) ASSERT_NEAR(kg[i], ku[i], tol * ks) << i;
            gpu.advance(0, 100);
            const std::vector<double> ug = gpu.displacement();
            for (std::size_t i = 0; i < uc.size(); ++i) ASSERT_NEAR(ug[i], uc[i], tol * us) << i;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Orders, SemCuda, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

}  // namespace
