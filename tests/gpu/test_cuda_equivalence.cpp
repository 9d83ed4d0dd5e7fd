// The CUDA engine against the CPU engine (the oracle): the same scenes, the same traces.
// Labelled `gpu`; on a machine without a CUDA device (CI) every test reports itself skipped.
//
// Tolerances (issue 3): FP64 traces agree to 1e-12 of the trace peak (different summation
// order, atomics: rounding-level differences that the stable scheme does not amplify), FP32 to
// 1e-5, TCOVFEM M = 8 at the FP64 level against OVFEM FP64. Products K v: FP64 to 1e-13
// relative in the 2-norm, FP32 to 1e-5, TCOVFEM's element forces are bit-identical integers
// on both sides, so its K v differs only by the order of the FP64 sums (1e-14).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "require_cuda.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using voxwave::test::random_vector;

namespace {

Scene asset_scene(const std::string& name, double spacing, std::int64_t steps) {
    Scene s = read_scene_json(std::string(VOXWAVE_ASSETS_DIR) + "/scenes/" + name);
    s.grid.spacing = spacing;
    s.run.steps = steps;
    s.run.dt = 0;  // the stable step of this spacing
    return s;
}

// Rebar in concrete with a void, Rayleigh damping, fixed corners and a sponge on two faces:
// every code path of the update kernel.
Scene rebar_scene(std::int64_t steps) {
    Scene s = asset_scene("paper_rebar.json", 0.008, steps);
    s.shapes.push_back({"void", SphereShape{{200e-3, 64e-3, 250e-3}, 20e-3}});
    s.boundary.absorbing.faces = {"x-", "x+"};
    s.boundary.absorbing.thickness = 0.04;
    s.boundary.absorbing.type = "sponge";
    return s;
}

struct Case {
    std::string name;
    Scene scene;
};

std::vector<Case> scenes() {
    return {{"paper_rebar_8mm", asset_scene("paper_rebar.json", 0.008, 600)},
            {"rebar_void_sponge_8mm", rebar_scene(600)},
            {"homogeneous_block_4mm", asset_scene("homogeneous_block.json", 0.004, 400)}};
}

using test::max_abs;
using test::max_abs_difference;

double rel2(const std::vector<double>& a, const std::vector<double>& ref) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        num += (a[i] - ref[i]) * (a[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    return std::sqrt(num / den);
}

Result run_on(Scene s, Backend b, Method m, Precision p, int stages = 8) {
    s.run.backend = b;
    s.run.method = m;
    s.run.precision = p;
    s.run.stages = stages;
    const WaveProblem prob = build_wave_problem(s, "test");
    return run_wave(prob, nullptr);
}

// Receiver displacements and velocities of a CUDA run against the CPU engine's, relative to the peak.
void expect_traces_equal(const Result& cpu, const Result& gpu, double tolerance) {
    EXPECT_EQ(gpu.backend, "cuda");
    ASSERT_EQ(cpu.displacement.size(), gpu.displacement.size());
    const double peak = max_abs(cpu.displacement);
    ASSERT_GT(peak, 0.0);
    EXPECT_LT(max_abs_difference(cpu.displacement, gpu.displacement) / peak, tolerance);
    EXPECT_LT(max_abs_difference(cpu.velocity, gpu.velocity) / max_abs(cpu.velocity), tolerance);
}

struct TraceCase {
    Method method;
    Precision precision;
    double tolerance;
};

class CudaTraces : public ::testing::TestWithParam<TraceCase> {};

TEST_P(CudaTraces, ReceiverTracesEqualTheCpuEngineOnEveryScene) {
    REQUIRE_CUDA();
    const TraceCase c = GetParam();
    for (const Case& sc : scenes()) {
        SCOPED_TRACE(sc.name);
        // TCOVFEM's oracle is OVFEM FP64: M = 8 must be at the FP64 level.
        const Method cpu_method = c.method == Method::Tcovfem ? Method::Ovfem : c.method;
        expect_traces_equal(run_on(sc.scene, Backend::Cpu, cpu_method, c.precision),
                            run_on(sc.scene, Backend::Cuda, c.method, c.precision), c.tolerance);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Methods, CudaTraces,
    ::testing::Values(TraceCase{Method::Vfem, Precision::Fp64, 1e-12}, TraceCase{Method::Ovfem, Precision::Fp64, 1e-12},
                      TraceCase{Method::Vfem, Precision::Fp32, 1e-5}, TraceCase{Method::Ovfem, Precision::Fp32, 1e-5},
                      TraceCase{Method::Tcovfem, Precision::Fp64, 1e-12}),
    [](const auto& case_info) {
        return std::string(to_string(case_info.param.method)) + "_" + to_string(case_info.param.precision);
    });

// The fused step adds the sources and records the receivers itself (fused_points: each block
// for the nodes it updates). Receivers on every kind of seam: the x tiles own 30 node columns,
// the y tiles 6 node rows (VFEM / OVFEM) or 8 (TCOVFEM, whose tiles hand their first row's lower
// partials over: kHandoffRows; ny = 16 here, so its last tile also updates the top row after
// its sweep), z chunks start anywhere, plus the model's faces; two sources share a node on a
// seam (added one after the other) and a third sits on the top corner. 144 receivers: more than
// the 32 lanes that record them. CPU engine as the oracle (TCOVFEM against OVFEM FP64).
TEST(CudaFusedStep, SourcesAndReceiversOnTileSeamsEqualTheCpuEngine) {
    REQUIRE_CUDA();
    Scene s = rebar_scene(150);
    const VoxelGrid g = build_wave_problem(s, "test").grid;
    ASSERT_GE(g.n[0], 31);
    ASSERT_EQ(g.n[1], 16);
    const double ds = g.spacing;
    auto at = [&](int i, int j, int k) {
        return Vec3{g.origin[0] + i * ds, g.origin[1] + j * ds, g.origin[2] + k * ds};
    };
    s.receivers.clear();
    for (int i : {0, 29, 30, g.n[0]})
        for (int j : {0, 5, 6, 7, 8, g.n[1]})
            for (int k : {0, 15, 16, 17, g.n[2] / 2, g.n[2]})
                s.receivers.push_back({"r" + std::to_string(s.receivers.size()), at(i, j, k)});
    const Source first = s.sources.at(0);
    s.sources = {first, first, first};
    s.sources[0].position = s.sources[1].position = at(30, 6, g.n[2] / 2);
    s.sources[1].direction = {1, 0, 0};
    s.sources[2].position = at(g.n[0], g.n[1], g.n[2]);
    // 144 receivers go to the point launch after the kernel by default (fused_points.hpp): the
    // knob puts them in the kernel too, whose seams this checks.
    const std::vector<std::pair<const char*, Method>> cases = {
        {"kernel", Method::Ovfem}, {"kernel", Method::Tcovfem}, {"launch", Method::Ovfem}, {"launch", Method::Tcovfem}};
    for (const auto& [placement, m] : cases) {
        SCOPED_TRACE(std::string(placement) + ", " + to_string(m));
        setenv("VOXWAVE_FUSED_POINTS", placement, 1);
        const Result cpu = run_on(s, Backend::Cpu, Method::Ovfem, Precision::Fp64);
        const Result gpu = run_on(s, Backend::Cuda, m, Precision::Fp64);
        unsetenv("VOXWAVE_FUSED_POINTS");
        ASSERT_EQ(gpu.receiver_count(), 144u);
        ASSERT_EQ(cpu.displacement.size(), gpu.displacement.size());
        const double peak = max_abs(cpu.displacement);
        ASSERT_GT(peak, 0.0);
        EXPECT_LT(max_abs_difference(cpu.displacement, gpu.displacement) / peak, 1e-12);
        // The receiver on the shared source node (i 30, j 6, k nz / 2: number (2 * 6 + 2) * 6 + 4) moved.
        double at_source = 0;
        for (std::size_t t = 0; t < gpu.sample_count(); ++t)
            for (int c = 0; c < 3; ++c) at_source = std::max(at_source, std::abs(gpu.u(88, t, c)));
        EXPECT_GT(at_source, 0.0);
    }
}

TEST(CudaTcovfem, PaperMappingTracesEqualTheStagedMapping) {
    REQUIRE_CUDA();
    Scene s = rebar_scene(300);
    s.run.backend = Backend::Cuda;
    s.run.method = Method::Tcovfem;
    const WaveProblem p = build_wave_problem(s, "test");
    CudaTimeStepper staged(p), paper(p, CudaEngineOptions{TcovfemMapping::PaperAtomics});
    std::vector<double> a, b;
    staged.advance(0, 300, &a);
    paper.advance(0, 300, &b);
    EXPECT_LT(max_abs_difference(a, b) / max_abs(a), 1e-12);
}

TEST(CudaTcovfem, FourStagesAreFp32LevelNotFp64Level) {
    REQUIRE_CUDA();
    const Scene s = asset_scene("paper_rebar.json", 0.008, 600);
    const Result ref = run_on(s, Backend::Cpu, Method::Ovfem, Precision::Fp64);
    const Result m4 = run_on(s, Backend::Cuda, Method::Tcovfem, Precision::Fp64, 4);
    const double err = max_abs_difference(ref.displacement, m4.displacement) / max_abs(ref.displacement);
    EXPECT_GT(err, 1e-12);  // 28 bits cannot be FP64-exact
    EXPECT_LT(err, 1e-5);
}

TEST(CudaStiffness, ProductsEqualTheCpuProducts) {
    REQUIRE_CUDA();
    Scene s = rebar_scene(1);
    for (Method m : {Method::Vfem, Method::Ovfem})
        for (Precision p : {Precision::Fp64, Precision::Fp32}) {
            SCOPED_TRACE(std::string(to_string(m)) + " " + to_string(p));
            s.run.method = m;
            s.run.precision = p;
            const WaveProblem prob = build_wave_problem(s, "test");
            const auto v = random_vector(3 * prob.grid.node_count(), 7);
            std::vector<double> cpu = p == Precision::Fp64 ? CpuTimeStepper<double>(prob).stiffness_times(v)
                                                           : CpuTimeStepper<float>(prob).stiffness_times(v);
            const std::vector<double> gpu = CudaTimeStepper(prob).stiffness_times(v);
            EXPECT_LT(rel2(gpu, cpu), p == Precision::Fp64 ? 1e-13 : 1e-5);
        }
}

TEST(CudaStiffness, TensorCoreProductsEqualTheCpuEmulationAndFp64) {
    REQUIRE_CUDA();
    Scene s = rebar_scene(1);
    s.run.method = Method::Ovfem;
    const WaveProblem ovfem = build_wave_problem(s, "test");
    const auto v = random_vector(3 * ovfem.grid.node_count(), 11);
    const std::vector<double> fp64 = CpuTimeStepper<double>(ovfem).stiffness_times(v);
    for (int stages : {8, 6, 4}) {
        SCOPED_TRACE(stages);
        s.run.method = Method::Tcovfem;
        s.run.stages = stages;
        const WaveProblem tc = build_wave_problem(s, "test");
        const std::vector<double> emulated = CpuTimeStepper<double>(tc).stiffness_times(v);
        const std::vector<double> tensor = CudaTimeStepper(tc).stiffness_times(v);
        const std::vector<double> paper =
            CudaTimeStepper(tc, CudaEngineOptions{TcovfemMapping::PaperAtomics}).stiffness_times(v);
        EXPECT_LT(rel2(tensor, emulated), 1e-14);
        EXPECT_LT(rel2(paper, emulated), 1e-14);
        const double err = rel2(tensor, fp64);
        if (stages == 8) {
            EXPECT_LT(err, 1e-15);
        }
        if (stages == 4) {
            EXPECT_GT(err, 1e-12);
            EXPECT_LT(err, 1e-7);
        }
    }
}

TEST(CudaEngine, StateRoundTripsAndFixedNodesStayAtRest) {
    REQUIRE_CUDA();
    const Scene s = rebar_scene(50);
    const WaveProblem prob = build_wave_problem(s, "test");
    CudaTimeStepper st(prob);
    const auto u = random_vector(3 * prob.grid.node_count(), 3);
    st.set_state(u, u);
    const auto back = st.displacement();
    for (std::size_t n : prob.boundary.fixed_nodes)
        for (int c = 0; c < 3; ++c) EXPECT_EQ(back[c * prob.grid.node_count() + n], 0.0);
    std::size_t moving = 0;
    for (std::size_t i = 0; i < u.size(); ++i) moving += back[i] == u[i];
    EXPECT_GT(moving, u.size() / 2);
    st.advance(0, 20);
    const auto after = st.displacement();
    for (std::size_t n : prob.boundary.fixed_nodes)
        for (int c = 0; c < 3; ++c) EXPECT_EQ(after[c * prob.grid.node_count() + n], 0.0);
}

// The fused node-centred step (one kernel: element forces, node sums in registers and shared
// memory, update) against the split design (element kernel with reductions + update kernel)
// and the CPU engine, from a random state so that every element, tile seam and z-chunk seam
// carries force. Scenes: damped with a sponge (every update path) and undamped homogeneous;
// 8 mm and 4 mm grids are not multiples of the 31 x 7 node tiles or the 16-plane chunks.
// Tolerances as for the traces: FP64 1e-12 of the state's peak, FP32 1e-5.
// The fused and the split design of one problem, started from the same random state (u random,
// u^{n-1} = u + 1e-2 noise; seeds seed and seed + 1).
struct FusedAndSplit {
    CudaTimeStepper fused, split;
    std::vector<double> u, um;
    FusedAndSplit(const WaveProblem& p, unsigned seed)
        : fused(p, CudaEngineOptions{TcovfemMapping::Staged, MomentStepDesign::Fused}),
          split(p, CudaEngineOptions{TcovfemMapping::Staged, MomentStepDesign::Split}),
          u(random_vector(3 * p.grid.node_count(), seed)),
          um(random_vector(3 * p.grid.node_count(), seed + 1)) {
        for (std::size_t i = 0; i < um.size(); ++i) um[i] = u[i] + 1e-2 * um[i];
        fused.set_state(um, u);
        split.set_state(um, u);
    }

    // Both designs and the CPU stepper advance `steps` steps from the state; the whole states
    // agree (FP64 1e-12 of the peak, FP32 1e-5).
    void expect_equal_after(const WaveProblem& p, int steps) {
        ASSERT_TRUE(fused.fused_step());
        ASSERT_FALSE(split.fused_step());
        fused.advance(0, steps);
        split.advance(0, steps);
        std::vector<double> cpu_u, cpu_um;
        if (p.precision == Precision::Fp64) {
            CpuTimeStepper<double> cpu(p);
            cpu.set_state(um, u);
            for (int n = 0; n < steps; ++n) cpu.step(n);
            cpu_u = cpu.displacement();
            cpu_um = cpu.previous_displacement();
        } else {
            CpuTimeStepper<float> cpu(p);
            cpu.set_state(um, u);
            for (int n = 0; n < steps; ++n) cpu.step(n);
            cpu_u = cpu.displacement();
            cpu_um = cpu.previous_displacement();
        }
        const double tol = p.precision == Precision::Fp64 ? 1e-12 : 1e-5;
        const double peak = max_abs(cpu_u);
        ASSERT_GT(peak, 0.0);
        EXPECT_LT(max_abs_difference(fused.displacement(), cpu_u) / peak, tol);
        EXPECT_LT(max_abs_difference(fused.previous_displacement(), cpu_um) / peak, tol);
        EXPECT_LT(max_abs_difference(split.displacement(), cpu_u) / peak, tol);
        EXPECT_LT(max_abs_difference(fused.displacement(), split.displacement()) / peak, tol);
    }
};

TEST(CudaFusedStep, WholeStateEqualsTheSplitDesignAndTheCpuEngine) {
    REQUIRE_CUDA();
    Scene undamped = asset_scene("homogeneous_block.json", 0.004, 1);
    ASSERT_EQ(undamped.damping.type, "none");
    const std::vector<std::pair<std::string, Scene>> cases = {{"rebar_void_sponge_8mm", rebar_scene(1)},
                                                              {"homogeneous_undamped_4mm", undamped}};
    for (const auto& [name, base] : cases)
        for (Method m : {Method::Vfem, Method::Ovfem})
            for (Precision pr : {Precision::Fp64, Precision::Fp32}) {
                SCOPED_TRACE(name + " " + to_string(m) + " " + to_string(pr));
                Scene s = base;
                s.run.method = m;
                s.run.precision = pr;
                const WaveProblem p = build_wave_problem(s, "test");
                FusedAndSplit(p, 21).expect_equal_after(p, 60);
            }
}

// TCOVFEM's fused step (Tensor Core products in the node-centred sweep) against the split
// design and the CPU emulation, for M = 8, 6 and 4 (both kernel variants: two words of q_M or
// one; M = 6 leaves sign-extension bytes in the top word), damped with a sponge and undamped.
// The y tiles hand rows over (kHandoffRows): at 8 mm ny = 16 (the top row is updated after the
// sweep; the merged last x tile's two y tiles hand over within a block), at 4 mm ny = 25 (four
// y tiles, the last with one element row), at 3 mm ny = 33 (five y tiles, three merged columns
// that hand over between blocks).
// One step from the same state: the element forces are the same integers in all three, so only
// the order of the FP64 node sums differs (1e-13; one moved digit at M = 4 would be ~1e-9).
// Forty steps: the states then differ in their last bits, and M = 4, which rounds at 2^-28 of
// an element's scale, now and then rounds such an input the other way: 1e-7 (M = 8: 1e-12).
TEST(CudaFusedStep, TcovfemWholeStateEqualsTheSplitDesignAndTheCpuEmulation) {
    REQUIRE_CUDA();
    Scene undamped = asset_scene("homogeneous_block.json", 0.004, 1);
    const std::vector<std::pair<std::string, Scene>> cases = {
        {"rebar_void_sponge_8mm", rebar_scene(1)},
        {"homogeneous_undamped_4mm", undamped},
        {"homogeneous_undamped_3mm", asset_scene("homogeneous_block.json", 0.003, 1)}};
    for (const auto& [name, base] : cases)
        for (int stages : {8, 6, 4}) {
            SCOPED_TRACE(name + " M = " + std::to_string(stages));
            Scene s = base;
            s.run.method = Method::Tcovfem;
            s.run.precision = Precision::Fp64;
            s.run.stages = stages;
            const WaveProblem p = build_wave_problem(s, "test");
            FusedAndSplit d(p, 31);
            CudaTimeStepper &fused = d.fused, &split = d.split;
            const std::vector<double>&u = d.u, &um = d.um;
            ASSERT_TRUE(fused.fused_step());
            ASSERT_FALSE(split.fused_step());
            CpuTimeStepper<double> cpu(p);
            cpu.set_state(um, u);
            fused.advance(0, 1);
            split.advance(0, 1);
            cpu.step(0);
            const double peak1 = max_abs(cpu.displacement());
            EXPECT_LT(max_abs_difference(fused.displacement(), cpu.displacement()) / peak1, 1e-13);
            EXPECT_LT(max_abs_difference(split.displacement(), cpu.displacement()) / peak1, 1e-13);
            constexpr int kSteps = 40;
            fused.advance(1, kSteps - 1);
            split.advance(1, kSteps - 1);
            for (int n = 1; n < kSteps; ++n) cpu.step(n);
            // M = 6 rounds at 2^-42 of an element's scale: as for M = 4, a last-bit state difference
            // can move a digit.
            const double tol = stages == 8 ? 1e-12 : 1e-7;
            const double peak = max_abs(cpu.displacement());
            ASSERT_GT(peak, 0.0);
            EXPECT_LT(max_abs_difference(fused.displacement(), cpu.displacement()) / peak, tol);
            EXPECT_LT(max_abs_difference(fused.previous_displacement(), cpu.previous_displacement()) / peak, tol);
            EXPECT_LT(max_abs_difference(fused.displacement(), split.displacement()) / peak, tol);
            if (stages == 4) {
                // M = 4 really keeps 28 bits: far from OVFEM FP64 (which M = 8 matches).
                Scene o = s;
                o.run.method = Method::Ovfem;
                CpuTimeStepper<double> ovfem(build_wave_problem(o, "test"));
                ovfem.set_state(um, u);
                for (int n = 0; n < kSteps; ++n) ovfem.step(n);
                EXPECT_GT(max_abs_difference(fused.displacement(), ovfem.displacement()) / peak, 1e-10);
            }
        }
}

TEST(CudaFusedStep, IsTheDefaultForEveryMethod) {
    REQUIRE_CUDA();
    Scene s = rebar_scene(1);
    for (Method m : {Method::Vfem, Method::Ovfem, Method::Tcovfem}) {
        s.run.method = m;
        const WaveProblem p = build_wave_problem(s, "test");
        EXPECT_TRUE(CudaTimeStepper(p).fused_step()) << to_string(m);
        EXPECT_FALSE(
            CudaTimeStepper(p, CudaEngineOptions{TcovfemMapping::Staged, MomentStepDesign::Split}).fused_step())
            << to_string(m);
    }
}

TEST(CudaEngine, RefusesAModelThatDoesNotFit) {
    REQUIRE_CUDA();
    try {
        check_cuda_model_fits(std::size_t(1) << 40, std::size_t(1) << 40, Precision::Fp64, false, false);
        FAIL() << "a 10^12-element model was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("GiB of GPU memory"), std::string::npos) << e.what();
    }
}

TEST(CudaEngine, CopyBandwidthIsMeasured) {
    REQUIRE_CUDA();
    const double gbs = measure_device_copy_bandwidth_gbs(std::size_t(256) << 20);
    EXPECT_GT(gbs, 100.0);  // any sm_80+ device copies faster than 100 GB/s
}

}  // namespace

// The convolutional PML (boundary/pml_layer.hpp) on the CUDA engine (pml_correction_cuda.cuh)
// against the CPU engine's layer pass. The paper model at 8 mm with a 5-cell PML on five faces
// (top free, the source and the receivers on it) or on all six (a PML ends on a held face: the
// source and the receivers then sit 2 cells deep in the top layer): the steel rebar runs through
// the y layers, a void cuts into the x- layer and its edges and corners, the bottom corners are
// fixed nodes inside the layer, Rayleigh damping (w = keep u - b u-). A Ricker source of 60 kHz
// (8 elements per S wavelength) delayed 20 us, so that its waves reach the layer within 300 steps
// of about 0.8 us.
Scene pml_scene(std::int64_t steps, bool six_faces) {
    Scene s = asset_scene("paper_rebar.json", 0.008, steps);
    s.sources.at(0).wavelet = Wavelet{};
    s.sources.at(0).wavelet.frequency = 60e3;
    s.sources.at(0).wavelet.delay = 20e-6;
    s.shapes.push_back({"void", SphereShape{{0.016, 0.032, 0.200}, 0.030}});
    s.boundary.absorbing.type = "pml";
    s.boundary.absorbing.thickness = 0.040;
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-"};
    if (six_faces) {
        s.boundary.absorbing.faces.push_back("z+");
        s.sources.at(0).position[2] -= 2 * s.grid.spacing;
        for (Receiver& r : s.receivers) r.position[2] -= 2 * s.grid.spacing;
    }
    return s;
}

// Receiver traces of a whole run (the fused step, the default) against the CPU engine:
// FP64 1e-12 of the peak, FP32 1e-5, TCOVFEM M = 8 against OVFEM FP64 at 1e-12.
TEST_P(CudaTraces, WithAPmlEqualTheCpuEngine) {
    REQUIRE_CUDA();
    const TraceCase c = GetParam();
    for (const bool six : {false, true}) {
        SCOPED_TRACE(six ? "PML on six faces" : "PML on five faces");
        const Scene s = pml_scene(300, six);
        const Method cpu_method = c.method == Method::Tcovfem ? Method::Ovfem : c.method;
        expect_traces_equal(run_on(s, Backend::Cpu, cpu_method, c.precision),
                            run_on(s, Backend::Cuda, c.method, c.precision), c.tolerance);
    }
}

// The whole state after 40 steps from a random state (every layer element and node carries a
// wave from the first step, the memory variables start at 0 on both sides): the fused step
// (layer passes into u+ after the kernel) and the split design (into f around the product)
// against the CPU stepper, and against each other; TCOVFEM against the CPU emulation.
TEST(CudaPml, WholeStateEqualsTheSplitDesignAndTheCpuEngine) {
    REQUIRE_CUDA();
    struct Variant {
        Method method;
        Precision precision;
    };
    for (const bool six : {false, true})
        for (const Variant v : {Variant{Method::Vfem, Precision::Fp64}, Variant{Method::Ovfem, Precision::Fp64},
                                Variant{Method::Vfem, Precision::Fp32}, Variant{Method::Ovfem, Precision::Fp32},
                                Variant{Method::Tcovfem, Precision::Fp64}}) {
            SCOPED_TRACE(std::string(six ? "six" : "five") + " faces " + to_string(v.method) + " " +
                         to_string(v.precision));
            Scene s = pml_scene(1, six);
            s.run.method = v.method;
            s.run.precision = v.precision;
            const WaveProblem p = build_wave_problem(s, "test");
            ASSERT_TRUE(p.boundary.has_pml());
            FusedAndSplit(p, 41).expect_equal_after(p, 40);
        }
}

// The layer changes the result (so the equalities above test the layer passes, not only the
// interior): the same random state without the PML ends elsewhere, by far more than the
// tolerance; and a state set again restarts the memory variables (two runs from it agree).
TEST(CudaPml, LayerMattersAndSetStateRestartsItsMemory) {
    REQUIRE_CUDA();
    Scene s = pml_scene(1, true);
    const WaveProblem p = build_wave_problem(s, "test");
    Scene free_faces = s;
    free_faces.boundary.absorbing = AbsorbingSpec{};
    const WaveProblem q = build_wave_problem(free_faces, "test");
    ASSERT_EQ(p.grid.node_count(), q.grid.node_count());
    const std::vector<double> u = random_vector(3 * p.grid.node_count(), 5), um = u;
    CudaTimeStepper with(p), without(q);
    with.set_state(um, u);
    without.set_state(um, u);
    with.advance(0, 30);
    without.advance(0, 30);
    const std::vector<double> first = with.displacement();
    const double peak = max_abs(first);
    ASSERT_GT(peak, 0.0);
    EXPECT_GT(max_abs_difference(first, without.displacement()) / peak, 1e-3);
    with.set_state(um, u);
    with.advance(0, 30);
    EXPECT_LT(max_abs_difference(with.displacement(), first) / peak, 1e-12);  // atomics: last bits
}
