// Recording rows (wave/probe_recording.hpp): the batched runners reduce a shot's receivers to the
// receivers its Result keeps and one row per probe element on the step, instead of bringing back
// every face node. The reduction against a plain weighted mean written here, and the batched CPU
// run's element signals against the same mean taken of a single run's face-node velocities.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/batched_shots.hpp"
#include "wave/probe_recording.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

// Two probes over 9 receivers of which 2 are the scene's: elements of 1, 3 and 4 nodes (nodes
// shared between elements), and one element with no nodes (outside the active aperture).
std::vector<ProbeChannels> sample_probes() {
    ProbeChannels a;
    a.name = "A";
    a.array = true;
    a.direction = {0, 0, -1};
    a.elements = {{{2, 0.25}, {3, 0.5}, {4, 0.25}}, {}, {{4, 0.1}, {5, 0.2}, {6, 0.3}, {7, 0.4}}};
    ProbeChannels b;
    b.name = "B";
    b.direction = {0.6, 0.0, 0.8};
    b.elements = {{{8, 1.0}}};
    return {a, b};
}

}  // namespace

TEST(RecordingRows, KeptReceiversThenEachElementsPlainWeightedMean) {
    const std::vector<ProbeChannels> probes = sample_probes();
    const std::size_t receivers = 9, scene = 2;
    const RecordingRows rows = recording_rows(receivers, probes, scene);
    ASSERT_EQ(rows.kept_receivers, scene);
    ASSERT_EQ(rows.size(), scene + 3 + 1);
    EXPECT_EQ(rows.term_count(), scene + 3 + 4 + 1);

    const std::vector<double> x = test::random_vector(receivers * 3, 7);  // [receiver * 3 + c]
    std::vector<double> out(rows.size() * 3, -1.0);
    reduce_recording_rows(
        rows, [&](std::size_t r) { return x.data() + r * 3; }, out.data());
    // The scene's receivers pass unchanged.
    for (std::size_t r = 0; r < scene; ++r)
        for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(out[r * 3 + c], x[r * 3 + c]);
    // Each element: sum of weight * value over its nodes, written out by hand.
    const double expected[4][3] = {
        {0.25 * x[6] + 0.5 * x[9] + 0.25 * x[12], 0.25 * x[7] + 0.5 * x[10] + 0.25 * x[13],
         0.25 * x[8] + 0.5 * x[11] + 0.25 * x[14]},
        {0, 0, 0},
        {0.1 * x[12] + 0.2 * x[15] + 0.3 * x[18] + 0.4 * x[21], 0.1 * x[13] + 0.2 * x[16] + 0.3 * x[19] + 0.4 * x[22],
         0.1 * x[14] + 0.2 * x[17] + 0.3 * x[20] + 0.4 * x[23]},
        {x[24], x[25], x[26]}};
    for (std::size_t e = 0; e < 4; ++e)
        for (std::size_t c = 0; c < 3; ++c)
            EXPECT_NEAR(out[(scene + e) * 3 + c], expected[e][c], 1e-15) << "element row " << e << " component " << c;

    // Without probes every receiver is kept (record_probes then leaves them all).
    const RecordingRows plain = recording_rows(receivers, {}, scene);
    EXPECT_EQ(plain.kept_receivers, receivers);
    EXPECT_EQ(plain.size(), receivers);
}

TEST(RecordingRows, ProbeRecordsProjectTheElementVelocityOnTheDirection) {
    const std::vector<ProbeChannels> probes = sample_probes();
    const std::size_t nt = 5, elements = 4;
    const std::vector<double> v = test::random_vector(elements * nt * 3, 11);
    const std::vector<ProbeRecord> records = probe_records(probes, v.data(), nt);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].name, "A");
    EXPECT_TRUE(records[0].array);
    ASSERT_EQ(records[0].element_signals.size(), 3 * nt);
    ASSERT_EQ(records[1].element_signals.size(), nt);
    for (std::size_t t = 0; t < nt; ++t) {
        for (std::size_t e = 0; e < 3; ++e)
            EXPECT_DOUBLE_EQ(records[0].element_signals[e * nt + t], -v[(e * nt + t) * 3 + 2]);
        EXPECT_NEAR(records[1].element_signals[t], 0.6 * v[(3 * nt + t) * 3] + 0.8 * v[(3 * nt + t) * 3 + 2], 1e-15);
    }
}

// Two shots of an array probe on a steel block stepped together on the CPU: each element's signal
// equals the weighted mean of its face nodes' velocity along the normal, taken here of a single
// run that keeps every face node as a plain receiver.
TEST(RecordingRows, BatchedElementSignalsEqualThePlainMeanOfASingleRunsFaceNodes) {
    Scene s = voxwave::testing::array_on_steel_block(4, 0.8e-3, 0.6e-3);
    s.receivers.push_back({"R", {26 * s.grid.spacing, 2 * s.grid.spacing, 24 * s.grid.spacing}});
    validate_scene(s, "rows");
    const WaveProblem base = build_wave_problem(s, "rows");
    ASSERT_EQ(base.probes.size(), 1u);
    ASSERT_EQ(base.scene_receiver_count, 1u);
    // Shot 1: the same probe with its sources turned, so the two members differ.
    std::vector<ShotSources> shots = {shot_sources(base), shot_sources(base)};
    for (SourceTerm& src : shots[1].sources) src.force = {0.5 * src.force[2], 0, -src.force[2]};

    BatchedShotOptions options;
    options.batch = 2;
    std::string note;
    const std::vector<Result> batched = run_batched_shots(base, shots, options, {}, &note);
    EXPECT_NE(note.find("2 shots stepped in groups of 2"), std::string::npos) << note;
    ASSERT_EQ(batched.size(), 2u);
    const ProbeChannels& ch = base.probes.front();
    const std::size_t nt = std::size_t(base.steps);
    for (std::size_t k = 0; k < shots.size(); ++k) {
        SCOPED_TRACE("shot " + std::to_string(k));
        WaveProblem single = base;
        single.sources = shots[k].sources;
        single.probes.clear();  // every face node stays a receiver of the result
        const Result r = run_wave(single, {});
        ASSERT_EQ(r.receiver_count(), base.receivers.size());
        ASSERT_EQ(batched[k].probes.size(), 1u);
        const std::vector<double>& got = batched[k].probes.front().element_signals;
        ASSERT_EQ(got.size(), ch.elements.size() * nt);
        double peak = 0, diff = 0;
        for (std::size_t e = 0; e < ch.elements.size(); ++e)
            for (std::size_t t = 0; t < nt; ++t) {
                double mean = 0;
                for (const auto& [receiver, weight] : ch.elements[e])
                    for (std::size_t c = 0; c < 3; ++c)
                        mean += weight * r.velocity[(receiver * nt + t) * 3 + c] * ch.direction[c];
                peak = std::max(peak, std::abs(mean));
                diff = std::max(diff, std::abs(mean - got[e * nt + t]));
            }
        ASSERT_GT(peak, 0.0);
        EXPECT_LE(diff, 1e-12 * peak);
        // The scene's receiver is kept, its traces the single run's.
        ASSERT_EQ(batched[k].receiver_names, std::vector<std::string>{"R"});
        for (auto field : {&Result::displacement, &Result::velocity}) {
            const std::vector<double>& want = r.*field;
            const std::vector<double>& have = batched[k].*field;
            ASSERT_EQ(have.size(), nt * 3);
            double rpeak = 0, rdiff = 0;
            for (std::size_t i = 0; i < nt * 3; ++i) {
                rpeak = std::max(rpeak, std::abs(want[i]));
                rdiff = std::max(rdiff, std::abs(want[i] - have[i]));
            }
            ASSERT_GT(rpeak, 0.0);
            EXPECT_LE(rdiff, 1e-12 * rpeak);
        }
    }
}
