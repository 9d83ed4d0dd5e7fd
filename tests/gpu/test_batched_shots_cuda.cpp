// Batched shots on the GPU (wave/batched_shots_cuda.cu) against the same shots run one at a time
// on the CPU engine (the oracle): OVFEM FP64 with a void, Rayleigh damping and a sponge, VFEM,
// FP32, groups of 32 and of 5 (an odd group and a last group of 2), two sources on one
// node, and members with different numbers of sources and receivers (none at all: a silent
// shot must stay exactly at rest). Labelled `gpu`; skipped without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/device.hpp"
#include "require_cuda.hpp"
#include "scene/scene_io.hpp"
#include "wave/batched_shots.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

Scene model_scene(Method method, Precision precision, bool damped) {
    Scene s;
    const double ds = 1e-3;
    s.grid.size = {37 * ds, 11 * ds, 45 * ds};  // x not a multiple of any tile, z over one block's planes
    s.grid.spacing = ds;
    s.materials = {{"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = "steel";
    s.shapes.push_back({"void", SphereShape{{20e-3, 5e-3, 20e-3}, 3e-3}});
    s.run.method = method;
    s.run.precision = precision;
    s.run.steps = 200;
    s.run.backend = Backend::Cpu;
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 5900.0 / 8e-3;
    w.delay = 1.2 / w.frequency;
    s.sources.push_back({"S", {5e-3, 5e-3, 45e-3}, {0, 0, -1}, 1.0, w});
    s.receivers.push_back({"R", {30e-3, 6e-3, 45e-3}});
    if (damped) {
        s.damping = {"rayleigh", 0.02, 3e5, 9e5};
        s.boundary.absorbing.type = "sponge";
        s.boundary.absorbing.faces = {"x-", "x+", "z-"};
        s.boundary.absorbing.thickness = 4 * ds;
    }
    return s;
}

std::vector<ShotSources> make_shots(const WaveProblem& base, int count) {
    std::vector<ShotSources> shots;
    for (int k = 0; k < count; ++k) {
        ShotSources shot = shot_sources(base);
        shot.sources.front().node = base.grid.node_index(1 + k, 2 + k % 7, base.grid.n[2]);
        shot.sources.front().force = {0.1 * (k % 4), 0.05 * (k % 3), -1.0};
        shot.sources.front().time_shift = 2e-8 * k;
        // A second source on the same node (a probe's neighbouring elements do that).
        shot.sources.push_back(shot.sources.front());
        shot.sources.back().force = {0, 0, -0.5};
        ReceiverPoint r;
        r.name = "E";
        r.node = base.grid.node_index(36 - k, 10 - k % 11, 0);
        shot.receivers.push_back(r);
        shots.push_back(shot);
    }
    return shots;
}

// Shot k has k % 3 sources (none, one, two on different nodes) and 1 + k % 3 receivers, one
// of them on another shot's source node.
std::vector<ShotSources> make_uneven_shots(const WaveProblem& base, int count) {
    std::vector<ShotSources> shots;
    const int top = base.grid.n[2];
    for (int k = 0; k < count; ++k) {
        ShotSources shot = shot_sources(base);
        const SourceTerm first = shot.sources.front();
        shot.sources.clear();
        for (int q = 0; q < k % 3; ++q) {
            SourceTerm src = first;
            src.node = base.grid.node_index(3 + 4 * q + k, 1 + k % 9, top);
            src.force = {0.2 * q, -0.1 * (k % 2), -1.0 + 0.25 * q};
            src.time_shift = 1e-8 * (k + q);
            shot.sources.push_back(src);
        }
        shot.receivers.clear();
        for (int r = 0; r <= k % 3; ++r) {
            ReceiverPoint rec;
            rec.name = "E" + std::to_string(r);
            rec.node = r == 0 ? base.grid.node_index(3 + 4 + (k + 1), 1 + (k + 1) % 9, top)
                              : base.grid.node_index(30 - 3 * r - k, 2 + r, top - 5 * r);
            shot.receivers.push_back(rec);
        }
        shot.scene_receiver_count = shot.receivers.size();
        shots.push_back(shot);
    }
    return shots;
}

void expect_cuda_batched_equals_cpu_single(const Scene& s, int count, std::size_t batch, double tolerance,
                                           bool uneven = false, std::string* note_out = nullptr) {
    REQUIRE_CUDA();
    validate_scene(s, "batched");
    WaveProblem model = build_wave_problem(s, "batched");
    const std::vector<ShotSources> shots = uneven ? make_uneven_shots(model, count) : make_shots(model, count);
    model.backend = Backend::Cuda;
    BatchedShotOptions options;
    options.batch = batch;
    std::string note;
    const std::vector<Result> gpu = run_batched_shots(model, shots, options, {}, &note);
    EXPECT_NE(note.find("stepped in groups"), std::string::npos) << note;
    if (note_out) *note_out = note;
    ASSERT_EQ(gpu.size(), shots.size());
    double worst = 0;
    for (std::size_t k = 0; k < shots.size(); ++k) {
        WaveProblem p = model;
        p.backend = Backend::Cpu;
        p.sources = shots[k].sources;
        p.receivers = shots[k].receivers;
        const Result cpu = run_wave(p, {});
        EXPECT_EQ(gpu[k].backend, "cuda");
        for (auto field : {&Result::displacement, &Result::velocity}) {
            const auto& x = cpu.*field;
            const auto& y = gpu[k].*field;
            ASSERT_EQ(x.size(), y.size());
            double peak = 0, diff = 0;
            for (std::size_t i = 0; i < x.size(); ++i) {
                peak = std::max(peak, std::abs(x[i]));
                diff = std::max(diff, std::abs(x[i] - y[i]));
            }
            if (shots[k].sources.empty()) {
                EXPECT_EQ(peak, 0.0);  // the CPU's silent shot
                EXPECT_EQ(diff, 0.0) << "shot " << k << " has no source but moved on the GPU";
                continue;
            }
            ASSERT_GT(peak, 0.0);
            worst = std::max(worst, diff / peak);
        }
    }
    std::printf("%d shots in groups of %zu on the GPU: largest difference %.3g of the peak\n", count, batch, worst);
    EXPECT_LE(worst, tolerance);
}

}  // namespace

TEST(BatchedShotsCuda, OvfemFp64GroupOf32EqualsCpuSingleShots) {
    expect_cuda_batched_equals_cpu_single(model_scene(Method::Ovfem, Precision::Fp64, false), 32, 32, 1e-12);
}

TEST(BatchedShotsCuda, OvfemFp64DampedSpongeGroupsOf5EqualCpuSingleShots) {
    expect_cuda_batched_equals_cpu_single(model_scene(Method::Ovfem, Precision::Fp64, true), 7, 5, 1e-12);
}

TEST(BatchedShotsCuda, VfemFp64EqualsCpuSingleShots) {
    expect_cuda_batched_equals_cpu_single(model_scene(Method::Vfem, Precision::Fp64, true), 4, 4, 1e-12);
}

TEST(BatchedShotsCuda, OvfemFp32EqualsCpuSingleShots) {
    expect_cuda_batched_equals_cpu_single(model_scene(Method::Ovfem, Precision::Fp32, false), 8, 8, 1e-5);
}

TEST(BatchedShotsCuda, UnevenSourcesAndReceiversPerShotEqualCpuSingleShots) {
    expect_cuda_batched_equals_cpu_single(model_scene(Method::Ovfem, Precision::Fp64, true), 6, 6, 1e-12, true);
}

// 600 steps: three batches of forces up and rows back (256, 256, 88), so both of the loop's
// pinned slots are filled, sent and reused while the device steps the other; members with none,
// one and two sources. The note splits the time loop by CUDA events: the members' step kernels
// took device time, and the parts add up to no more than the loop.
TEST(BatchedShotsCuda, StepsOverSeveralCopyBatchesEqualCpuSingleShots) {
    Scene s = model_scene(Method::Ovfem, Precision::Fp64, true);
    s.run.steps = 600;
    std::string note;
    expect_cuda_batched_equals_cpu_single(s, 5, 3, 1e-12, true, &note);
    if (IsSkipped() || HasFatalFailure()) return;
    const std::size_t at = note.find("time loops ");
    ASSERT_NE(at, std::string::npos) << note;
    double loops = 0, steps = 0, sources = 0, rows = 0, rest = 0;
    ASSERT_EQ(std::sscanf(note.c_str() + at,
                          "time loops %lf s: step kernels %lf s, sources %lf s, recording rows %lf s, copies and "
                          "waits %lf s",
                          &loops, &steps, &sources, &rows, &rest),
              5)
        << note;
    EXPECT_GT(steps, 0.0) << note;
    EXPECT_GE(sources, 0.0) << note;
    EXPECT_GE(rows, 0.0) << note;
    // Printed to 1 ms each: the device's parts lie inside the loop's wall time.
    EXPECT_LE(steps + sources + rows, loops + 0.002) << note;
    EXPECT_NEAR(steps + sources + rows + rest, loops, 0.003) << note;
}
