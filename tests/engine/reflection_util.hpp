// The absorbing-boundary tests' measure: what a layer sends back, as the difference between a run
// in a box with the layer and a run in a box so large that its faces return nothing inside the
// window (the same method, grid, time step and receiver nodes).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "scene/result.hpp"

namespace voxwave::testing {

// 20 log10(||u_box - u_ref|| / ||u_ref||) over the window, all components, per receiver; both runs
// must sample the same nodes at the same times.
inline std::vector<double> reflection_db(const Result& box, const Result& ref) {
    EXPECT_EQ(box.time, ref.time);
    EXPECT_EQ(box.receiver_positions.size(), ref.receiver_positions.size());
    for (std::size_t r = 0; r < ref.receiver_positions.size() && r < box.receiver_positions.size(); ++r)
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(box.receiver_positions[r][std::size_t(c)], ref.receiver_positions[r][std::size_t(c)], 1e-12);
    const std::size_t nt = ref.time.size();
    std::vector<double> db;
    for (std::size_t r = 0; r < ref.receiver_positions.size(); ++r) {
        double diff = 0, norm = 0;
        for (std::size_t v = r * nt * 3; v < (r + 1) * nt * 3; ++v) {
            diff += (box.displacement[v] - ref.displacement[v]) * (box.displacement[v] - ref.displacement[v]);
            norm += ref.displacement[v] * ref.displacement[v];
        }
        db.push_back(10 * std::log10(diff / norm));
    }
    return db;
}

// "name dB" for each receiver of `ref`, for the tests' log.
inline std::string reflection_report(const Result& ref, const std::vector<double>& db) {
    std::string s;
    for (std::size_t r = 0; r < db.size(); ++r)
        s += ref.receiver_names[r] + " " + std::to_string(db[r]).substr(0, 6) + " dB  ";
    return s;
}

}  // namespace voxwave::testing
