// The convolutional PML of the spectral voxel elements (wave/sem_pml_correction_cpu.hpp) on the
// CPU engine: what a layer of 10 elements reflects, measured against a box so large that its
// faces send nothing back inside the window, and its stability long after the source has ended.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "reflection_util.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

// The voxel PML test's measurement (test_pml.cpp) on p = 2 elements of 4 mm (2 mm between
// nodes, the voxel test's node spacing): concrete, a point force along (1,1,1) at the centre
// node, Ricker 100 kHz delayed 12 us, the layer's inner edge kInner elements from the centre on
// all six faces, receivers on nodes at whole element offsets (every box puts them on the same
// nodes: the boxes are centred on an element corner), a kWindow window at 0.9 of the stable dt.
constexpr double kDs = 0.004, kWindow = 32e-6;
constexpr int kOrder = 2, kInner = 3;
// The reference box: an echo of its faces starts no earlier than 3 us (the Ricker is below 1e-4
// of its peak before) plus the P-wave path 2 kRef ds - r, r <= 2.5 elements from the centre
// towards the face, at 4 mm per us: after 3 + (2 * 64 - 10) / 4 = 32.5 us, beyond the window.
constexpr int kRef = 16;

struct Offset {
    const char* name;
    double x, y, z;  // elements
};
const Offset kReceivers[] = {{"normal", 2.5, 0, 0}, {"oblique", 2, 0, 1.5}, {"edge", 2, 2, 0},
                             {"corner", 2, 2, 2},   {"centre", 0, 0, 0},    {"inner", 1, -1, 0.5}};

Scene centred_box(int half) {
    Scene s = block_scene(2 * half, 2 * half, 2 * half, kDs);
    s.grid.origin = {-half * kDs, -half * kDs, -half * kDs};
    s.run.method = Method::Sem;
    s.run.order = kOrder;
    s.run.dt = 0;
    s.run.steps = 0;
    s.run.duration = kWindow;
    s.sources.push_back({"S", {0, 0, 0}, {1, 1, 1}, 1.0, ricker(100e3, 12e-6)});
    for (const Offset& o : kReceivers) s.receivers.push_back({o.name, {o.x * kDs, o.y * kDs, o.z * kDs}});
    return s;
}

Result run_box(int layer_cells, const std::string& type) {
    Scene s = centred_box(kInner + layer_cells);
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-", "z+"};
    s.boundary.absorbing.thickness = layer_cells * kDs;
    s.boundary.absorbing.type = type;
    const WaveProblem p = build_wave_problem(s, "sem pml test");
    EXPECT_EQ(p.boundary.has_pml(), type == "pml");
    return run_wave(p, {});
}

// A PML of 10 elements: at most -40 dB at every receiver (the normal and the corner included),
// and the sponge of the same thickness for contrast at least 20 dB worse.
TEST(SemPmlReflection, TenElementsAtMostMinus40DbEverywhereAndTheSpongeFarWorse) {
    const Result ref = run_wave(build_wave_problem(centred_box(kRef), "ref"), {});
    const std::vector<double> pml = reflection_db(run_box(10, "pml"), ref);
    std::cout << "sem p = 2 PML 10 elements: " << reflection_report(ref, pml) << "\n";
    for (std::size_t r = 0; r < pml.size(); ++r) EXPECT_LE(pml[r], -40) << kReceivers[r].name;
    const std::vector<double> sponge = reflection_db(run_box(10, "sponge"), ref);
    std::cout << "sem p = 2 sponge 10 elements: " << reflection_report(ref, sponge) << "\n";
    for (std::size_t r = 0; r < pml.size(); ++r) EXPECT_GE(sponge[r], pml[r] + 20) << kReceivers[r].name;
}

// A small model with a PML on every face, a steel bar through the layer and a void in its
// corner. The energy monitored is the model's discrete elastic-wave energy at half steps,
//     E = 1/2 v^T M v + 1/2 u+^T K u,   v = (u+ - u) / dt,
// M the GLL masses and K the stiffness (no stretch): central differences conserve it exactly
// without a layer, so once the source has ended only the layer can change it, and a layer that
// absorbs must take it out. Checked every `every` steps: never above its earlier peak, each ten
// checkpoints' peak below the ten before (a growing mode would rise over thousands of steps), and
// at the end far below where it started.
template <class Real>
void expect_no_growth(Precision precision, int order, int elements, int layer, std::int64_t after, std::int64_t every) {
    const double side = elements * kDs;
    Scene s = block_scene(elements, elements, elements, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{0, 0.4 * side, 0.4 * side}, {side, 0.6 * side, 0.6 * side}}});  // x- to x+
    s.shapes.push_back({"void", BoxShape{{side - 2 * kDs, side - 2 * kDs, side - 2 * kDs}, {side, side, side}}});
    s.run.method = Method::Sem;
    s.run.order = order;
    s.run.precision = precision;
    s.sources.push_back({"S", {0.4 * side, 0.5 * side, 0.4 * side}, {1, 1, 1}, 1.0, ricker(100e3, 12e-6)});
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-", "z+"};
    s.boundary.absorbing.thickness = layer * kDs;
    // A model this small steps fastest on one thread (no fork and join a step).
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const WaveProblem p = build_wave_problem(s, "stability");
    ASSERT_TRUE(p.boundary.has_pml());
    // The Ricker is below 1e-12 of its peak 2 delays after it starts.
    const std::int64_t source_steps = std::int64_t(std::ceil(2 * 12e-6 / p.dt));
    SemTimeStepperCpu<Real> st(p);
    const std::vector<double>& m = st.node_mass();
    const std::size_t nn = st.node_count();
    std::vector<double> e;
    for (std::int64_t n = 0; n < source_steps + after; ++n) {
        st.step(n);
        if (n + 1 < source_steps || (n + 1 - source_steps) % every != 0) continue;
        const std::vector<double> u = st.previous_displacement(), up = st.displacement();  // u^n, u^{n+1}
        const std::vector<double> ku = st.stiffness_times(u);
        double sum = 0;
        for (std::size_t i = 0; i < 3 * nn; ++i) {
            const double v = (up[i] - u[i]) / p.dt;
            sum += 0.5 * m[i % nn] * v * v + 0.5 * up[i] * ku[i];
        }
        e.push_back(sum);
    }
    omp_set_num_threads(threads);
    ASSERT_EQ(e.size(), std::size_t(after / every + 1));
    ASSERT_GT(e[0], 0);
    // FP32 ends on a floor of rounding far below e[0], where the energy wanders; anything growing
    // would cross 1e-40 e[0] on its way up.
    const double floor = precision == Precision::Fp64 ? 0.0 : 1e-40 * e[0];
    double peak = e[0];
    for (std::size_t i = 1; i < e.size(); ++i) {
        if (e[i] > floor) {
            EXPECT_LE(e[i], peak) << "checkpoint " << i * std::size_t(every) << " steps after the source";
        }
        peak = std::max(peak, e[i]);
    }
    double window_before = e[0];
    for (std::size_t w = 1; w + 10 <= e.size(); w += 10) {
        const double window = *std::max_element(e.begin() + std::ptrdiff_t(w), e.begin() + std::ptrdiff_t(w + 10));
        if (window > floor) {
            EXPECT_LT(window, window_before) << "window from " << w * std::size_t(every) << " steps";
        }
        window_before = window;
    }
    EXPECT_LT(e.back(), 1e-6 * e[0]);
}

// 5^3 elements with a 2-element layer (p = 2), 4^3 with a 1-element layer (p = 4: 4 node cells).
TEST(SemPmlStability, P2Fp64EnergyNeverGrows) { expect_no_growth<double>(Precision::Fp64, 2, 5, 2, 10000, 100); }
TEST(SemPmlStability, P2Fp32EnergyNeverGrows) { expect_no_growth<float>(Precision::Fp32, 2, 5, 2, 10000, 100); }
TEST(SemPmlStability, P4Fp64EnergyNeverGrows) { expect_no_growth<double>(Precision::Fp64, 4, 4, 1, 5000, 50); }

}  // namespace
