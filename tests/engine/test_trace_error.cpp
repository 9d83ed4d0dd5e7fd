// Seed 000 eq. 18 against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "core/errors.hpp"
#include "wave/trace_error.hpp"

using namespace voxwave;

namespace {

Result traces(const std::vector<std::string>& names, double dt, std::size_t nt,
              const std::function<double(std::size_t r, double t, int c)>& f) {
    Result r;
    r.receiver_names = names;
    r.receiver_positions.assign(names.size(), {0, 0, 0});
    r.dt = dt;
    for (std::size_t j = 0; j < nt; ++j) r.time.push_back(double(j) * dt);
    r.displacement.assign(names.size() * nt * 3, 0);
    for (std::size_t i = 0; i < names.size(); ++i)
        for (std::size_t j = 0; j < nt; ++j)
            for (int c = 0; c < 3; ++c) r.u(i, j, c) = f(i, r.time[j], c);
    return r;
}

}  // namespace

TEST(TraceError, ScaledCopyGivesTheSquaredScaleErrorPerChannel) {
    // Channel z of A carries a sine, channel x of B a ramp; the others are silent (skipped).
    auto ref_f = [](std::size_t r, double t, int c) {
        if (r == 0 && c == 2) return std::sin(1e5 * t);
        if (r == 1 && c == 0) return t * 1e4;
        return 0.0;
    };
    const Result ref = traces({"A", "B"}, 1e-6, 200, ref_f);
    // Observed: A's z is 1.1 x the reference (error 0.01), B's x is exact: mean over 2 channels.
    const Result obs = traces({"A", "B"}, 1e-6, 200, [&](std::size_t r, double t, int c) {
        return (r == 0 && c == 2 ? 1.1 : 1.0) * ref_f(r, t, c);
    });
    EXPECT_NEAR(paper_trace_error(obs, ref), 0.01 / 2, 1e-14);
    EXPECT_EQ(paper_trace_error(ref, ref), 0.0);
}

TEST(TraceError, MatchesReceiversByNameAndInterpolatesAnotherTimeStep) {
    // The reference at dt = 1 us, linear in time: interpolation is exact, so an observed run at
    // dt = 0.3 us sampling the same line has zero error even with the receivers listed in another order.
    auto line = [](std::size_t, double t, int c) { return c == 1 ? 3.0 + 2e5 * t : 0.0; };
    const Result ref = traces({"P", "Q"}, 1e-6, 50, line);
    const Result obs = traces({"Q", "P", "extra"}, 0.3e-6, 100, line);
    EXPECT_NEAR(paper_trace_error(obs, ref), 0.0, 1e-28);
    // A constant offset of 1 on channel y of Q only: sum(1) / sum(ref^2) over the overlap, / 2 channels.
    const Result off = traces({"Q", "P"}, 0.3e-6, 100, [&](std::size_t r, double t, int c) {
        return line(r, t, c) + (r == 0 && c == 1 ? 1.0 : 0.0);
    });
    double den = 0;
    int n = 0;
    for (std::size_t j = 0; j < 100 && j * 0.3e-6 <= 49e-6 * (1 + 1e-12); ++j, ++n) {
        const double u = 3.0 + 2e5 * (double(j) * 0.3e-6);
        den += u * u;
    }
    EXPECT_NEAR(paper_trace_error(off, ref), (n / den) / 2, 1e-12);
}

TEST(TraceError, RefusesRunsWithNothingToCompare) {
    const Result a = traces({"A"}, 1e-6, 10, [](std::size_t, double, int) { return 1.0; });
    const Result b = traces({"B"}, 1e-6, 10, [](std::size_t, double, int) { return 1.0; });
    EXPECT_THROW(paper_trace_error(a, b), InputError);
    const Result silent = traces({"A"}, 1e-6, 10, [](std::size_t, double, int) { return 0.0; });
    EXPECT_THROW(paper_trace_error(a, silent), InputError);
}

TEST(ReflectionDb, IsTheRelativeNormOfTheDifferencePerReceiverInDecibels) {
    // Receiver A: x carries a sine, y a cosine; the box adds 1e-3 of the sine to x and 2e-3 of the
    // cosine to z. Over whole periods sum sin^2 = sum cos^2 = nt / 2, so
    // ||diff||^2 / ||ref||^2 = (1e-6 + 4e-6) (nt / 2) / (2 nt / 2) = 2.5e-6: -56.02 dB.
    // Receiver B: constant 2 on z, the box 0.5 larger on every component: 3 (0.25) / 4, -7.27 dB.
    const std::size_t nt = 400;
    const double dt = 1e-6, w = 2 * std::numbers::pi / (100 * dt);  // 4 whole periods
    auto ref_f = [&](std::size_t r, double t, int c) {
        if (r == 0) return c == 0 ? std::sin(w * t) : c == 1 ? std::cos(w * t) : 0.0;
        return c == 2 ? 2.0 : 0.0;
    };
    const Result ref = traces({"A", "B"}, dt, nt, ref_f);
    const Result box = traces({"A", "B"}, dt, nt, [&](std::size_t r, double t, int c) {
        if (r == 0) return ref_f(r, t, c) + (c == 0 ? 1e-3 * std::sin(w * t) : c == 2 ? 2e-3 * std::cos(w * t) : 0.0);
        return ref_f(r, t, c) + 0.5;
    });
    const std::vector<double> db = receiver_reflection_db(box, ref);
    ASSERT_EQ(db.size(), 2u);
    EXPECT_NEAR(db[0], 10 * std::log10(2.5e-6), 1e-9);
    EXPECT_NEAR(db[1], 10 * std::log10(0.75 / 4), 1e-12);
    // An exact copy sends nothing back.
    EXPECT_EQ(receiver_reflection_db(ref, ref)[0], -INFINITY);
    // Receivers matched by name: the box listing them the other way round gives the same values.
    const Result swapped = traces({"B", "A"}, dt, nt, [&](std::size_t r, double t, int c) {
        if (r == 1) return ref_f(0, t, c) + (c == 0 ? 1e-3 * std::sin(w * t) : c == 2 ? 2e-3 * std::cos(w * t) : 0.0);
        return ref_f(1, t, c) + 0.5;
    });
    const std::vector<double> db_swapped = receiver_reflection_db(swapped, ref);
    EXPECT_NEAR(db_swapped[0], db[0], 1e-12);
    EXPECT_NEAR(db_swapped[1], db[1], 1e-12);
}

TEST(ReflectionDb, RefusesRunsThatDoNotSampleTheSameNodesAtTheSameTimes) {
    auto f = [](std::size_t, double t, int c) { return c == 0 ? std::sin(1e5 * t) : 0.0; };
    const Result ref = traces({"A"}, 1e-6, 100, f);
    auto refuses = [&](const Result& box, const std::string& what) {
        try {
            receiver_reflection_db(box, ref);
            ADD_FAILURE() << "accepted: " << what;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refuses(traces({"A"}, 1e-6, 99, f), "the same sample times");
    refuses(traces({"A"}, 0.5e-6, 100, f), "the same sample times");
    refuses(traces({"other"}, 1e-6, 100, f), "receiver 'A' is not in the run with the boundary");
    Result moved = traces({"A"}, 1e-6, 100, f);
    moved.spacing = 1e-3;
    moved.receiver_positions[0][1] = 1e-3;
    refuses(moved, "samples different nodes");
    const Result silent = traces({"A"}, 1e-6, 100, [](std::size_t, double, int) { return 0.0; });
    try {
        receiver_reflection_db(ref, silent);
        ADD_FAILURE() << "a silent reference accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("no signal in the reference run"), std::string::npos) << e.what();
    }
}
