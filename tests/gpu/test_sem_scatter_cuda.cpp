// The element-parallel CUDA SEM step (the scatter, sem_scatter_kernel.cuh) against the CPU engine
// (the oracle): K v, and runs with the source firing (receiver traces before every step, the
// whole state after), p = 2..4, FP64 to 1e-12 and FP32 to 1e-5, on a model with two materials,
// voids, Rayleigh damping and either a PML on two faces (the layer's passes on the scatter's u+)
// or a sponge (per-node update factors; the source delayed as a probe element's), and undamped
// without either (w = u, one h); that the automatic schedule, the scatter on such a small model,
// gives the forced column sweep's traces and state to 1e-12; and that steps in chunks, whose last
// node update the fused scatter defers, give the CPU's traces, samples and states. Labelled
// `gpu`; without a CUDA device every case reports itself skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "require_cuda.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/wave_problem.hpp"

using namespace voxwave;
using voxwave::test::random_vector;

namespace {

constexpr double kDs = 0.004;
constexpr int kSteps = 200;

enum class Edge { Pml, Sponge, None };

// 9 x 7 x 8 elements of concrete, a steel bar, a void sphere and a void corner column; the edge
// (a PML on x+ and z-, a sponge on x- and y+, or nothing) and Rayleigh damping but for None.
WaveProblem scatter_problem(int order, Precision precision, Edge edge) {
    Scene s;
    s.grid.size = {9 * kDs, 7 * kDs, 8 * kDs};
    s.grid.spacing = kDs;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}, {"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = "concrete";
    s.shapes.push_back({"steel", BoxShape{{2 * kDs, 0.0, 3 * kDs}, {5 * kDs, 7 * kDs, 4 * kDs}}});
    s.shapes.push_back({"void", SphereShape{{6 * kDs, 4 * kDs, 5 * kDs}, 1.5 * kDs}});
    s.shapes.push_back({"void", BoxShape{{0.0, 6 * kDs, 0.0}, {kDs, 7 * kDs, 8 * kDs}}});
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 150e3;
    w.delay = 8e-6;
    s.sources.push_back({"S", {3 * kDs, 3 * kDs, 5 * kDs}, {0.2, 0.3, 1.0}, 1.0, w});
    s.receivers.push_back({"R1", {7 * kDs, 2 * kDs, 2 * kDs}});
    s.receivers.push_back({"R2", {4 * kDs, 5 * kDs, 7 * kDs}});
    if (edge != Edge::None) {
        s.boundary.absorbing.faces =
            edge == Edge::Pml ? std::vector<std::string>{"x+", "z-"} : std::vector<std::string>{"x-", "y+"};
        s.boundary.absorbing.thickness = 2 * kDs;
        s.boundary.absorbing.type = edge == Edge::Pml ? "pml" : "sponge";
        s.damping = {"rayleigh", 0.01, 100e3, 200e3};
    }
    s.run.method = Method::Sem;
    s.run.order = order;
    s.run.precision = precision;
    s.run.backend = Backend::Cuda;
    s.run.steps = kSteps;
    validate_scene(s, "sem scatter");
    return build_wave_problem(s, "sem scatter");
}

using test::expect_near_all;

// The CPU engine's receiver displacements before each of `steps` steps from step 0 (advance's
// layout) and its state after them.
template <class Real>
void cpu_run(const WaveProblem& p, int steps, std::vector<double>& traces, std::vector<double>& u) {
    SemTimeStepperCpu<Real> cpu(p);
    traces.clear();
    for (int n = 0; n < steps; ++n) {
        for (const auto& r : p.receivers)
            for (int c = 0; c < 3; ++c) traces.push_back(cpu.displacement_at(r.node, c));
        cpu.step(n);
    }
    u = cpu.displacement();
}

class SemScatterCuda : public ::testing::TestWithParam<int> {};

TEST_P(SemScatterCuda, ProductTracesAndStateEqualCpu) {
    REQUIRE_CUDA();
    for (Edge edge : {Edge::Pml, Edge::Sponge, Edge::None})
        for (Precision pr : {Precision::Fp64, Precision::Fp32}) {
            SCOPED_TRACE(::testing::Message()
                         << (edge == Edge::Pml ? "pml" : (edge == Edge::Sponge ? "sponge" : "free"))
                         << (pr == Precision::Fp64 ? ", fp64" : ", fp32"));
            WaveProblem p = scatter_problem(GetParam(), pr, edge);
            // A probe element's delay (SourceTerm::time_shift): the force is F w(t - shift).
            if (edge == Edge::Sponge) p.sources.front().time_shift = 3e-6;
            ASSERT_EQ(p.boundary.has_pml(), edge == Edge::Pml);
            ASSERT_EQ(p.rayleigh.beta > 0, edge != Edge::None);
            const double tol = pr == Precision::Fp64 ? 1e-12 : 1e-5;
            std::vector<double> want_traces, want_u, ku;
            const std::vector<double> v = random_vector(3 * p.node_count(), 3);
            if (pr == Precision::Fp64) {
                cpu_run<double>(p, kSteps, want_traces, want_u);
                ku = SemTimeStepperCpu<double>(p).stiffness_times(v);
            } else {
                cpu_run<float>(p, kSteps, want_traces, want_u);
                ku = SemTimeStepperCpu<float>(p).stiffness_times(v);
            }
            SemCudaTimeStepper gpu(p, -1, 0, SemCudaSchedule::Scatter);
            ASSERT_EQ(gpu.schedule(), SemCudaSchedule::Scatter);
            expect_near_all(gpu.stiffness_times(v), ku, tol, "K v");
            std::vector<double> traces;
            gpu.advance(0, kSteps, &traces);
            expect_near_all(traces, want_traces, tol, "traces");
            expect_near_all(gpu.displacement(), want_u, tol, "u");
        }
}

TEST_P(SemScatterCuda, AutomaticScheduleEqualsTheForcedSweep) {
    // 504 elements: the scatter on any device of 8 SMs or more (sem_scatter_elements_per_sm an SM at
    // p = 3, 4 is 64), and the sweep forced.
    REQUIRE_CUDA();
    const WaveProblem p = scatter_problem(GetParam(), Precision::Fp64, Edge::Pml);
    SemCudaTimeStepper automatic(p), sweep(p, -1, 0, SemCudaSchedule::Sweep);
    EXPECT_EQ(automatic.schedule(), SemCudaSchedule::Scatter);
    EXPECT_EQ(sweep.schedule(), SemCudaSchedule::Sweep);
    std::vector<double> ta, ts;
    automatic.advance(0, kSteps, &ta);
    sweep.advance(0, kSteps, &ts);
    expect_near_all(ta, ts, 1e-12, "traces");
    expect_near_all(automatic.displacement(), sweep.displacement(), 1e-12, "u");
    expect_near_all(automatic.previous_displacement(), sweep.previous_displacement(), 1e-12, "u-");
}

TEST_P(SemScatterCuda, ChunkedStepsAndTheirLastSamplesEqualCpu) {
    // The fused scatter leaves each advance's last node update pending: the next advance continues
    // from it, the samples after a chunk and receiver_displacements form u+ at the receivers, and
    // reading or setting the state does the update first. Chunks of 1, 2, 7, 40 and 150 steps
    // (with the sponge's per-node factors and a delayed source, and free without damping) against
    // the CPU engine stepped once through: the traces, the samples after each chunk, and u and u-
    // read in the middle of the run and after it; then a state set while the last update is pending.
    REQUIRE_CUDA();
    for (Edge edge : {Edge::Sponge, Edge::None}) {
        SCOPED_TRACE(edge == Edge::Sponge ? "sponge" : "free");
        WaveProblem p = scatter_problem(GetParam(), Precision::Fp64, edge);
        if (edge == Edge::Sponge) p.sources.front().time_shift = 3e-6;
        const std::vector<int> chunks{1, 2, 7, 40, 150};
        const int read_at = 10;  // the state read after the third chunk
        SemTimeStepperCpu<double> cpu(p);
        std::vector<double> want_traces, want_u_mid, want_up_mid;
        std::vector<std::vector<double>> want_rows;  // u at the receivers at each step 0..kSteps
        for (int n = 0; n <= kSteps; ++n) {
            std::vector<double> row;
            for (const auto& r : p.receivers)
                for (int c = 0; c < 3; ++c) row.push_back(cpu.displacement_at(r.node, c));
            want_rows.push_back(row);
            if (n < kSteps) want_traces.insert(want_traces.end(), row.begin(), row.end());
            if (n == read_at) {
                want_u_mid = cpu.displacement();
                want_up_mid = cpu.previous_displacement();
            }
            if (n < kSteps) cpu.step(n);
        }
        // The receivers are still at rest after the first chunks: their samples to 1e-12 of the
        // traces' largest value.
        const double trace_scale = test::max_abs(want_traces);
        ASSERT_GT(trace_scale, 0);
        SemCudaTimeStepper gpu(p, -1, 0, SemCudaSchedule::Scatter);
        std::vector<double> traces, chunk, after;
        int n0 = 0;
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            gpu.advance(n0, chunks[i], &chunk, &after);
            n0 += chunks[i];
            traces.insert(traces.end(), chunk.begin(), chunk.end());
            ASSERT_EQ(chunk.size(), std::size_t(chunks[i]) * want_rows[0].size());
            test::expect_near_all_scaled(after, want_rows[std::size_t(n0)], 1e-12, trace_scale,
                                         "samples after a chunk");
            test::expect_near_all_scaled(gpu.receiver_displacements(), want_rows[std::size_t(n0)], 1e-12, trace_scale,
                                         "receiver_displacements after a chunk");
            if (n0 == read_at) {
                expect_near_all(gpu.displacement(), want_u_mid, 1e-12, "u in the middle of the run");
                expect_near_all(gpu.previous_displacement(), want_up_mid, 1e-12, "u- in the middle of the run");
            }
        }
        ASSERT_EQ(n0, kSteps);
        expect_near_all(traces, want_traces, 1e-12, "traces");
        expect_near_all(gpu.displacement(), cpu.displacement(), 1e-12, "u");
        expect_near_all(gpu.previous_displacement(), cpu.previous_displacement(), 1e-12, "u-");
        // A state set over a pending update (every force buffer zero again): ten steps from the
        // middle state equal the CPU's from it.
        gpu.advance(kSteps, 3);
        gpu.set_state(want_up_mid, want_u_mid);
        cpu.set_state(want_up_mid, want_u_mid);
        std::vector<double> again, again_after, want_again;
        gpu.advance(read_at, 10, &again, &again_after);
        for (int n = read_at; n < read_at + 10; ++n) {
            for (const auto& r : p.receivers)
                for (int c = 0; c < 3; ++c) want_again.push_back(cpu.displacement_at(r.node, c));
            cpu.step(n);
        }
        expect_near_all(again, want_again, 1e-12, "traces from a state set");
        expect_near_all(gpu.displacement(), cpu.displacement(), 1e-12, "u from a state set");
    }
}

INSTANTIATE_TEST_SUITE_P(Orders, SemScatterCuda, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

}  // namespace
