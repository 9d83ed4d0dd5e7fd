// The spectral elements' PML on CUDA (sem_pml_correction_cuda.cuh) against the CPU engine's
// (sem_pml_correction_cpu.hpp, the oracle): whole runs' traces and states, p = 2..4, FP64 to 1e-12
// and FP32 to 1e-5, on a model with the PML on four faces (edges and corners of the layer), a
// steel bar through the layer, a void in a corner of the layer, Rayleigh damping, a source and
// receivers in and beside the layer; and from a random state (the layer's reset: no history, y =
// c0 u). Labelled `gpu`; without a CUDA device every case reports itself skipped.
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

namespace {

constexpr double kDs = 0.004;

// 8 x 7 x 7 elements of concrete, a PML of 2 elements on x-, x+, y+ and z- (the corners where
// x-, y+, z- and x+, y+, z- meet), a steel bar through the x+ layer, a void in the x- y+ z- corner
// of the layer, Rayleigh damping (or none: the element pass then recomputes the previous gradients
// from u- instead of keeping them); a receiver in the layer, one beside it.
Scene pml_scene(int order, Precision precision, std::int64_t steps, bool damped = true) {
    Scene s;
    s.grid.size = {8 * kDs, 7 * kDs, 7 * kDs};
    s.grid.spacing = kDs;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}, {"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = "concrete";
    s.shapes.push_back({"steel", BoxShape{{4 * kDs, 3 * kDs, 3 * kDs}, {8 * kDs, 4 * kDs, 4 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{0.0, 6 * kDs, 0.0}, {kDs, 7 * kDs, kDs}}});
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 150e3;
    w.delay = 8e-6;
    s.sources.push_back({"S", {3.5 * kDs, 3 * kDs, 3.5 * kDs}, {0.2, 0.3, 1.0}, 1.0, w});
    s.receivers.push_back({"layer", {7 * kDs, 6 * kDs, kDs}});
    s.receivers.push_back({"inside", {5 * kDs, 2 * kDs, 4 * kDs}});
    s.boundary.absorbing.faces = {"x-", "x+", "y+", "z-"};
    s.boundary.absorbing.thickness = 2 * kDs;
    s.boundary.absorbing.type = "pml";
    if (damped) s.damping = {"rayleigh", 0.01, 100e3, 200e3};
    s.run.method = Method::Sem;
    s.run.order = order;
    s.run.precision = precision;
    s.run.steps = steps;
    s.run.backend = Backend::Cuda;  // validate_scene accepts sem's PML on either backend
    return s;
}

using test::expect_near_all;

class SemPmlCuda : public ::testing::TestWithParam<int> {};

TEST_P(SemPmlCuda, TracesAndStateEqualCpu) {
    REQUIRE_CUDA();
    for (Precision pr : {Precision::Fp64, Precision::Fp32}) {
        SCOPED_TRACE(pr == Precision::Fp64 ? "fp64" : "fp32");
        const double tol = pr == Precision::Fp64 ? 1e-12 : 1e-5;
        for (bool damped : {true, false}) {
            SCOPED_TRACE(damped ? "damped" : "undamped");
            Scene s = pml_scene(GetParam(), pr, 300, damped);
            validate_scene(s, "sem pml");
            WaveProblem p = build_wave_problem(s, "sem pml");
            ASSERT_TRUE(p.boundary.has_pml());
            ASSERT_EQ(p.rayleigh.beta > 0, damped);
            p.backend = Backend::Cpu;
            const Result cpu = run_wave(p, {});
            p.backend = Backend::Cuda;
            const Result gpu = run_wave(p, {});
            expect_near_all(gpu.displacement, cpu.displacement, tol, "traces");
        }
        if (pr != Precision::Fp64) continue;
        Scene s = pml_scene(GetParam(), pr, 300);
        validate_scene(s, "sem pml");
        const WaveProblem p = build_wave_problem(s, "sem pml");
        // The whole state (u and u-) after the same steps.
        SemTimeStepperCpu<double> c64(p);
        SemCudaTimeStepper g(p);
        for (int n = 0; n < 150; ++n) c64.step(n);
        g.advance(0, 150);
        expect_near_all(g.displacement(), c64.displacement(), 1e-12, "u");
        expect_near_all(g.previous_displacement(), c64.previous_displacement(), 1e-12, "u-");
    }
}

TEST_P(SemPmlCuda, FromARandomStateEqualsCpu) {
    // set_state resets the layer (no history, y = c0 u, y- = c0 u-) on both engines; a random
    // state puts every layer element and node to work from the first step.
    REQUIRE_CUDA();
    for (Precision pr : {Precision::Fp64, Precision::Fp32})
        for (bool damped : {true, false}) {
            SCOPED_TRACE(pr == Precision::Fp64 ? "fp64" : "fp32");
            SCOPED_TRACE(damped ? "damped" : "undamped");
            Scene s = pml_scene(GetParam(), pr, 1, damped);
            validate_scene(s, "sem pml");
            const WaveProblem p = build_wave_problem(s, "sem pml");
            const std::size_t nn = p.node_count();
            std::vector<double> u = voxwave::test::random_vector(3 * nn, 31),
                                up = voxwave::test::random_vector(3 * nn, 32);
            for (std::size_t i = 0; i < u.size(); ++i) {
                u[i] *= 1e-6;
                up[i] = u[i] + 1e-8 * up[i];
            }
            const std::int64_t late = std::int64_t(1.0 / p.dt), steps = 60;  // the source adds nothing at t = 1 s
            std::vector<double> uc, pc;
            if (pr == Precision::Fp64) {
                SemTimeStepperCpu<double> cpu(p);
                cpu.set_state(up, u);
                for (std::int64_t n = 0; n < steps; ++n) cpu.step(late + n);
                uc = cpu.displacement();
                pc = cpu.previous_displacement();
            } else {
                SemTimeStepperCpu<float> cpu(p);
                cpu.set_state(up, u);
                for (std::int64_t n = 0; n < steps; ++n) cpu.step(late + n);
                uc = cpu.displacement();
                pc = cpu.previous_displacement();
            }
            SemCudaTimeStepper gpu(p);
            gpu.set_state(up, u);
            gpu.advance(late, steps);
            const double tol = pr == Precision::Fp64 ? 1e-12 : 1e-5;
            expect_near_all(gpu.displacement(), uc, tol, "u");
            expect_near_all(gpu.previous_displacement(), pc, tol, "u-");
        }
}

INSTANTIATE_TEST_SUITE_P(Orders, SemPmlCuda, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

}  // namespace
