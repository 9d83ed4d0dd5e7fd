// The run rules (scene/run_rules.hpp): validate_scene refuses a value just outside each limit
// with the rule's field and accepts one just inside; a command-line change is validated with
// the file, once; the engines assert the rules (std::logic_error) instead of re-validating.
#include <cmath>
#include <limits>
#include <stdexcept>

#include "scene/rasterise.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/tcovfem_stiffness_cpu.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"
#include "wave/wave_session.hpp"

namespace voxwave {
namespace {

using testing::block_scene;

Scene small_block() {
    Scene s = block_scene(4, 3, 2, 0.002);
    s.receivers.push_back({"R", {0.004, 0.002, 0.004}});
    return s;
}

void expect_rejected(const Scene& s, const std::string& field, const std::string& reason) {
    test::expect_error(test::catch_input_error([&] { validate_scene(s, "scene.json"); }), "scene.json", field, reason);
}

TEST(RunRules, TcovfemStagesOneToEight) {
    EXPECT_EQ(kTcovfemMinStages, 1);
    EXPECT_EQ(kTcovfemMaxStages, 8);
    EXPECT_EQ(RunSpec{}.stages, kTcovfemMaxStages);
    Scene s = small_block();
    s.run.method = Method::Tcovfem;
    for (int m : {kTcovfemMinStages, kTcovfemMaxStages}) {
        s.run.stages = m;
        EXPECT_NO_THROW(validate_scene(s, "scene.json")) << m;
    }
    s.run.stages = kTcovfemMinStages - 1;
    expect_rejected(s, "run.stages", "must be between 1 and 8 (got 0)");
    s.run.stages = kTcovfemMaxStages + 1;
    expect_rejected(s, "run.stages", "must be between 1 and 8 (got 9)");
    // The range holds for every method: a scene keeps its M when the method changes.
    s.run.method = Method::Ovfem;
    expect_rejected(s, "run.stages", "(got 9)");
}

TEST(RunRules, StagesBeyondAnIntAreRefusedWithTheSameMessage) {
    const std::string text = R"({"format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.01, 0.01, 0.01], "spacing": 0.002}, "run": {"stages": 4294967305}})";
    test::expect_error(test::catch_input_error([&] { parse_scene_json(text, "mem.json", ""); }), "mem.json",
                       "run.stages", "must be between 1 and 8 (got 4294967305)");
}

TEST(RunRules, TcovfemHasNoFp32) {
    EXPECT_TRUE(precision_allowed(Method::Vfem, Precision::Fp32));
    EXPECT_TRUE(precision_allowed(Method::Ovfem, Precision::Fp32));
    EXPECT_TRUE(precision_allowed(Method::Tcovfem, Precision::Fp64));
    EXPECT_FALSE(precision_allowed(Method::Tcovfem, Precision::Fp32));
    EXPECT_EQ(allowed_precision(Method::Ovfem, Precision::Fp32), Precision::Fp32);
    EXPECT_EQ(allowed_precision(Method::Tcovfem, Precision::Fp32), Precision::Fp64);
    Scene s = small_block();
    s.run.precision = Precision::Fp32;
    for (Method m : {Method::Vfem, Method::Ovfem}) {
        s.run.method = m;
        EXPECT_NO_THROW(validate_scene(s, "scene.json")) << to_string(m);
    }
    s.run.method = Method::Tcovfem;
    expect_rejected(s, "run.precision", "tcovfem computes in INT8 digits and FP64; use precision fp64 (got fp32)");
    s.run.precision = Precision::Fp64;
    EXPECT_NO_THROW(validate_scene(s, "scene.json"));
}

TEST(RunRules, SpacingRange) {
    // A box of a few elements at each end of the range, so that only the spacing decides.
    auto at = [](double ds) {
        Scene s;
        s.grid.size = {4 * kMinSpacing, 4 * kMinSpacing, 4 * kMinSpacing};
        if (ds > 1e-3) s.grid.size = {2 * kMaxSpacing, 2 * kMaxSpacing, 2 * kMaxSpacing};
        s.grid.spacing = ds;
        return s;
    };
    EXPECT_NO_THROW(validate_scene(at(kMinSpacing), "scene.json"));
    EXPECT_NO_THROW(validate_scene(at(kMaxSpacing), "scene.json"));
    expect_rejected(at(std::nextafter(kMinSpacing, 0.0)), "grid.spacing", "must be between 1e-05 and 1 m");
    expect_rejected(at(std::nextafter(kMaxSpacing, 2.0)), "grid.spacing", "must be between 1e-05 and 1 m");
    expect_rejected(at(0), "grid.spacing", "must be > 0 (got 0)");
    expect_rejected(at(-kMinSpacing), "grid.spacing", "must be > 0");
    expect_rejected(at(std::nan("")), "grid.spacing", "must be a finite number");
    // The rasteriser (the GUI's second spacing, the compare panel's) keeps the same range.
    test::expect_error(test::catch_input_error([&] { rasterise(small_block(), 2 * kMaxSpacing); }), "", "grid.spacing",
                       "must be between");
    EXPECT_EQ(rasterise(small_block(), kMaxSpacing).n, (std::array<int, 3>{1, 1, 1}));
}

TEST(RunRules, TimeStepAgainstTheStableLimit) {
    Scene s = small_block();
    const WaveProblem automatic = build_wave_problem(s, "scene.json");
    const double stable = stable_time_step(automatic.grid, s.materials, s.run.method, s.damping);
    ASSERT_GT(stable, 0);
    EXPECT_EQ(automatic.dt_stable, stable);
    EXPECT_EQ(automatic.dt, 0.9 * stable);  // kAutoDtFraction
    EXPECT_EQ(run_time_step(0, stable), kAutoDtFraction * stable);
    EXPECT_EQ(run_time_step(1e-9, stable), 1e-9);
    s.run.dt = stable;  // exactly at the limit: allowed
    EXPECT_EQ(build_wave_problem(s, "scene.json").dt, stable);
    s.run.dt = std::nextafter(stable, 1.0);
    test::expect_error(test::catch_input_error([&] { build_wave_problem(s, "scene.json"); }), "scene.json", "run.dt",
                       "above the stable limit");
    s.run.dt = -1e-9;
    expect_rejected(s, "run.dt", "must be >= 0");
}

TEST(RunRules, AbsorbingLayerThickness) {
    Scene s = small_block();
    s.boundary.absorbing = {{"x-"}, 0};
    expect_rejected(s, "boundary.absorbing.thickness", "must be > 0 (got 0)");
    s.boundary.absorbing.thickness = std::numeric_limits<double>::denorm_min();
    EXPECT_NO_THROW(validate_scene(s, "scene.json"));
    s.boundary.absorbing = {{}, 0};  // no layer: no thickness needed
    EXPECT_NO_THROW(validate_scene(s, "scene.json"));
    s.boundary.absorbing.thickness = -0.001;
    expect_rejected(s, "boundary.absorbing.thickness", "must be >= 0");
}

// A change (command-line overrides) is applied before the one validation: a file value the
// change replaces is not checked, the changed value is.
TEST(RunRules, ReadSceneValidatesTheChangedSceneOnce) {
    test::TempDir dir;
    const std::string path = dir.file("scene.json");
    Scene s = small_block();
    s.run.stages = 4;
    write_scene_json(path, s);
    std::string text = test::read_file(path);
    const std::string from = "\"stages\": 4";
    ASSERT_NE(text.find(from), std::string::npos) << text;
    text.replace(text.find(from), from.size(), "\"stages\": 9");
    test::write_file(path, text);

    int calls = 0;
    const Scene fixed = read_scene_json(path, [&calls](Scene& sc) {
        ++calls;
        sc.run.stages = 5;
    });
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(fixed.run.stages, 5);
    test::expect_error(test::catch_input_error([&] { read_scene_json(path); }), path, "run.stages", "(got 9)");
    test::expect_error(test::catch_input_error([&] {
                           read_scene_json(path, [](Scene& sc) {
                               sc.run.stages = 5;
                               sc.run.method = Method::Tcovfem;
                               sc.run.precision = Precision::Fp32;
                           });
                       }),
                       path, "run.precision", "use precision fp64");
}

// The engines take a WaveProblem that broke a rule as a programming error, not as user input.
TEST(RunRules, EnginesAssertTheRules) {
    const WaveProblem good = build_wave_problem(small_block(), "scene.json");
    EXPECT_NO_THROW(assert_run_rules(good));
    WaveProblem stages = good;
    stages.method = Method::Tcovfem;
    stages.stages = kTcovfemMaxStages + 1;
    EXPECT_THROW(assert_run_rules(stages), std::logic_error);
    EXPECT_THROW(CpuTimeStepper<double>{stages}, std::logic_error);
    EXPECT_THROW(run_wave(stages, {}), std::logic_error);
    EXPECT_THROW(TcovfemStiffnessCpu(good.grid, good.materials, kTcovfemMinStages - 1), std::logic_error);
    WaveProblem fp32 = good;
    fp32.method = Method::Tcovfem;
    fp32.precision = Precision::Fp32;
    EXPECT_THROW(WaveSession{fp32}, std::logic_error);
    EXPECT_THROW(CpuTimeStepper<float>{fp32}, std::logic_error);
    // build_wave_problem's precondition is a validated scene.
    Scene unvalidated = small_block();
    unvalidated.run.stages = 0;
    EXPECT_THROW(build_wave_problem(unvalidated, "scene.json"), std::logic_error);
}

}  // namespace
}  // namespace voxwave
