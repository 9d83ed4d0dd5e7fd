// The plane-strain CUDA engine against the CPU engine (the oracle): whole states from a random
// start with damping, a sponge, a void and fixed nodes, and the receivers' traces of a whole
// run; FP64 to 1e-12, FP32 to 1e-5 of the peak. Skips without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>

#include "core/device.hpp"
#include "require_cuda.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/plane_strain_stepper_cpu.hpp"
#include "wave/plane_strain_stepper_cuda.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

// 37 x 29 squares of 1 mm: concrete with a steel disk and a void notch, a sponge on x- and y+,
// a fixed point, Rayleigh damping, one source and two receivers.
Scene plane_scene(Method method, Precision precision) {
    Scene s = voxwave::testing::block_scene(37, 29, 1, 0.001);
    s.grid.dimensions = 2;
    s.grid.size[2] = 0;
    s.materials.push_back(voxwave::testing::steel());
    s.shapes.push_back({"steel", SphereShape{{0.02, 0.015, 0}, 0.006}});
    s.shapes.push_back({"void", BoxShape{{0.03, 0.0, 0}, {0.032, 0.008, 0}}});
    s.sources.push_back({"S", {0.008, 0.02, 0}, {0.6, 0.8, 0}, 1e3, voxwave::testing::ricker(2e5, 6e-6)});
    s.receivers.push_back({"R1", {0.03, 0.02, 0}});
    s.receivers.push_back({"R2", {0.012, 0.005, 0}});
    s.boundary.fixed_points.push_back({0.037, 0.0, 0});
    s.boundary.absorbing = {{"x-", "y+"}, 0.004, "sponge", {}, {}, {}, {}};
    s.damping = {"rayleigh", 0.02, 1e5, 3e5};
    s.run.method = method;
    s.run.precision = precision;
    s.run.steps = 300;
    return s;
}

struct Case {
    Method method;
    Precision precision;
};

class PlaneStrainCuda : public ::testing::TestWithParam<Case> {};

TEST_P(PlaneStrainCuda, StateEqualsTheCpuEngine) {
    REQUIRE_CUDA();
    const Scene s = plane_scene(GetParam().method, GetParam().precision);
    validate_scene(s, "plane");
    const WaveProblem p = build_wave_problem(s, "plane");
    const std::size_t nn = p.node_count();
    std::vector<double> u0 = test::random_vector(2 * nn, 11), u1 = test::random_vector(2 * nn, 12);
    const bool fp64 = GetParam().precision == Precision::Fp64;
    std::vector<double> want, got;
    if (fp64) {
        PlaneStrainStepperCpu<double> cpu(p);
        cpu.set_state(u0, u1);
        for (std::int64_t n = 0; n < 200; ++n) cpu.step(n);
        want = cpu.displacement();
    } else {
        PlaneStrainStepperCpu<float> cpu(p);
        cpu.set_state(u0, u1);
        for (std::int64_t n = 0; n < 200; ++n) cpu.step(n);
        want = cpu.displacement();
    }
    PlaneStrainStepperCuda gpu(p);
    gpu.set_state(u0, u1);
    gpu.advance(0, 200);
    got = gpu.displacement();
    ASSERT_GT(test::max_abs(want), 0);
    EXPECT_LT(test::max_abs_difference(got, want), (fp64 ? 1e-12 : 1e-5) * test::max_abs(want));
}

TEST_P(PlaneStrainCuda, TracesEqualTheCpuRun) {
    REQUIRE_CUDA();
    Scene s = plane_scene(GetParam().method, GetParam().precision);
    s.run.backend = Backend::Cpu;
    const Result cpu = run_wave(build_wave_problem(s, "plane"), {});
    s.run.backend = Backend::Cuda;
    const Result gpu = run_wave(build_wave_problem(s, "plane"), {});
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_EQ(gpu.components, 2);
    ASSERT_EQ(gpu.displacement.size(), cpu.displacement.size());
    const double tol = GetParam().precision == Precision::Fp64 ? 1e-12 : 1e-5;
    ASSERT_GT(test::max_abs(cpu.displacement), 0);
    EXPECT_LT(test::max_abs_difference(gpu.displacement, cpu.displacement), tol * test::max_abs(cpu.displacement));
    EXPECT_LT(test::max_abs_difference(gpu.velocity, cpu.velocity), tol * test::max_abs(cpu.velocity));
}

INSTANTIATE_TEST_SUITE_P(MethodsAndPrecisions, PlaneStrainCuda,
                         ::testing::Values(Case{Method::Vfem, Precision::Fp64}, Case{Method::Ovfem, Precision::Fp64},
                                           Case{Method::Ovfem, Precision::Fp32}),
                         [](const auto& param_info) {
                             return std::string(to_string(param_info.param.method)) + "_" +
                                    to_string(param_info.param.precision);
                         });

}  // namespace
