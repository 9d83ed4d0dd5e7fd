// The fused CUDA step's cost-balanced schedule (fused_schedule.hpp), checked on the CPU: the
// m-tile counts against a brute-force replay of the kernel's thread mapping, and the block
// ranges against their definition (cover everything once, equal cost to one column-plane).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/errors.hpp"
#include "wave/fused_schedule.hpp"

using namespace voxwave;

namespace {

// The kernel's mapping, thread by thread (fused_step.cuh): block column (cx, cy) has threads
// (tx, ty) in 32 x tile_y; thread (tx, ty) computes element (cx 30 - 1 + tx, cy (tile_y - 2) - 1 +
// ty) when tx < 31, ty < tile_y - 1 and the element is in the model; its m-tile is tx / 16 and
// the m-tile is live when one of its elements has a nonzero id.
std::vector<std::uint8_t> live_by_threads(const FusedTiling& t, const std::vector<std::uint8_t>& ids) {
    std::vector<std::uint8_t> live(std::size_t(t.columns()) * std::size_t(t.nz), 0);
    for (int k = 0; k < t.nz; ++k)
        for (int cy = 0; cy < t.tiles_y(); ++cy)
            for (int cx = 0; cx < t.tiles_x(); ++cx) {
                int count = 0;
                for (int ty = 0; ty < t.tile_y; ++ty) {
                    bool mtile[2] = {false, false};
                    for (int tx = 0; tx < 32; ++tx) {
                        const int ei = cx * 30 - 1 + tx, ej = cy * (t.tile_y - 2) - 1 + ty;
                        const bool computes =
                            tx < 31 && ty < t.tile_y - 1 && ei >= 0 && ei < t.nx && ej >= 0 && ej < t.ny;
                        if (computes && ids[(std::size_t(k) * t.ny + ej) * t.nx + ei] != 0) mtile[tx / 16] = true;
                    }
                    count += mtile[0] + mtile[1];
                }
                live[std::size_t(cy * t.tiles_x() + cx) * t.nz + k] = std::uint8_t(count);
            }
    return live;
}

}  // namespace

TEST(FusedSchedule, LiveMtilesMatchTheKernelsThreadMapping) {
    // Sizes that leave partial tiles in x and y (and one exact fit), some void.
    for (const auto& [nx, ny, nz, tile_y] : {std::array<int, 4>{40, 13, 3, 8}, std::array<int, 4>{29, 6, 2, 8},
                                             std::array<int, 4>{75, 20, 4, 16}, std::array<int, 4>{1, 1, 1, 8}}) {
        const FusedTiling t{nx, ny, nz, tile_y};
        std::mt19937 rng(unsigned(nx * 131 + ny));
        std::vector<std::uint8_t> ids(std::size_t(nx) * ny * nz);
        for (auto& id : ids) id = std::uint8_t(rng() % 4 == 0 ? 0 : 1 + rng() % 3);
        // A void block: m-tiles whose elements are all void must count as empty.
        for (int k = 0; k < nz; ++k)
            for (int j = 0; j < ny / 2; ++j)
                for (int i = 0; i < std::min(nx, 17); ++i) ids[(std::size_t(k) * ny + j) * nx + i] = 0;
        EXPECT_EQ(fused_live_mtiles(t, ids), live_by_threads(t, ids)) << nx << " x " << ny << " x " << nz;
    }
}

TEST(FusedSchedule, PaperModelTilesAt2mm) {
    // The paper model at 2 mm (162 x 64 x 192, no void): 6 x 11 tile columns. A full column has
    // 7 computing rows of 2 m-tiles; the last x tile (elements 149..161) only its first m-tile;
    // the last y tile (element rows 59..65) 5 rows inside the model.
    const FusedTiling t{162, 64, 2, 8};
    ASSERT_EQ(t.tiles_x(), 6);
    ASSERT_EQ(t.tiles_y(), 11);
    const std::vector<std::uint8_t> live = fused_live_mtiles(t, std::vector<std::uint8_t>(162 * 64 * 2, 1));
    auto at = [&](int cx, int cy) { return int(live[std::size_t(cy * 6 + cx) * 2 + 1]); };
    EXPECT_EQ(at(0, 0), 12);  // row 0 is element row -1, outside: 6 rows of 2
    EXPECT_EQ(at(2, 5), 14);
    EXPECT_EQ(at(5, 5), 7);
    EXPECT_EQ(at(2, 10), 10);
    EXPECT_EQ(at(5, 10), 5);
}

TEST(FusedSchedule, BlocksCoverEveryColumnPlaneOnceAtEqualCost) {
    const FusedTiling t{162, 64, 40, 8};
    std::vector<std::uint8_t> ids(std::size_t(162) * 64 * 40, 3);
    for (std::size_t e = 0; e < ids.size(); e += 7) ids[e] = 0;
    const std::vector<std::uint8_t> live = fused_live_mtiles(t, ids);
    const FusedCostModel cost{1280.0, 565.0};
    const int blocks = 264;
    const std::vector<int> s = fused_cost_balanced_starts(t, live, cost, blocks);
    ASSERT_EQ(s.size(), std::size_t(blocks) + 1);
    EXPECT_EQ(s.front(), 0);
    EXPECT_EQ(s.back(), int(t.columns() * t.nz));
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
    double total = 0, largest = 0;
    for (std::uint8_t m : live) {
        total += cost.base + cost.per_mtile * m;
        largest = std::max(largest, cost.base + cost.per_mtile * m);
    }
    for (int b = 0; b < blocks; ++b) {
        double c = 0;
        for (int i = s[b]; i < s[b + 1]; ++i) c += cost.base + cost.per_mtile * live[std::size_t(i)];
        EXPECT_NEAR(c, total / blocks, largest) << "block " << b;
    }
    // Uniform cost that divides evenly: equal ranges exactly.
    const std::vector<std::uint8_t> flat(std::size_t(t.columns()) * t.nz, 2);
    const std::vector<int> even = fused_cost_balanced_starts(t, flat, cost, 66);
    for (int b = 0; b <= 66; ++b) EXPECT_EQ(even[b], b * 40) << b;
}

TEST(FusedSchedule, CostKnobParsesOrNamesItself) {
    const FusedCostModel fallback{3, 4};
    ::unsetenv("VOXWAVE_FUSED_COST");
    EXPECT_EQ(fused_cost_model_from_env(fallback).base, 3);
    ::setenv("VOXWAVE_FUSED_COST", "1280:565.5", 1);
    const FusedCostModel m = fused_cost_model_from_env(fallback);
    EXPECT_EQ(m.base, 1280);
    EXPECT_EQ(m.per_mtile, 565.5);
    for (const char* bad : {"12", "1:2:3", "a:1", "-1:5", "0:0", "1:inf"}) {
        ::setenv("VOXWAVE_FUSED_COST", bad, 1);
        try {
            fused_cost_model_from_env(fallback);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(e.field(), "VOXWAVE_FUSED_COST") << bad;
        }
    }
    ::unsetenv("VOXWAVE_FUSED_COST");
}

TEST(FusedSchedule, RejectsInconsistentInput) {
    const FusedTiling t{10, 10, 2, 8};
    EXPECT_THROW(fused_live_mtiles(t, std::vector<std::uint8_t>(199, 1)), RuntimeError);
    const std::vector<std::uint8_t> live = fused_live_mtiles(t, std::vector<std::uint8_t>(200, 1));
    EXPECT_THROW(fused_cost_balanced_starts(t, live, FusedCostModel{}, 0), RuntimeError);
    EXPECT_THROW(fused_cost_balanced_starts(t, std::vector<std::uint8_t>(3, 1), FusedCostModel{}, 4), RuntimeError);
}
