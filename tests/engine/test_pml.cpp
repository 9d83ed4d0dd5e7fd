// The convolutional PML (engine/boundary/pml_layer.hpp) on the CPU engine: what it reflects,
// measured against a box so large that its faces send nothing back inside the window; its
// stability long after the source has ended; its algebra's reduction to the interior element.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <string>

#include "boundary/pml_layer.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "wave/pml_element_kernel.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

// The measurement scaled down: concrete, ds = 2 mm, a point force along (1,1,1) at the
// centre node, Ricker 100 kHz delayed 15 us (12 elements per S wavelength at its peak, as in the
// issue), the layer's inner edge kInner elements from the centre on all six faces (the issue's
// 30 scaled by 8/30), receivers at the offsets scaled the same way (whole elements, so
// every box puts them on the same nodes), dt 0.25 us, a 40 us window (the S wave and its echo
// from the layer's corner have passed the corner receiver by then).
constexpr double kDs = 0.002, kDt = 0.25e-6;
constexpr int kInner = 8, kSteps = 160;
// The reference box: an echo of its faces starts no earlier than 5 us (the Ricker is below 1e-4
// of its peak before) plus the P-wave path 2 kRef - r, r <= 7 elements from the centre towards
// the face, at 2 elements per us: after 5 + (2 * 40 - 7) / 2 = 41.5 us, beyond the window.
constexpr int kRef = 40;

struct Offset {
    const char* name;
    int x, y, z;
};
const Offset kReceivers[] = {{"normal", 7, 0, 0}, {"oblique", 6, 0, 3}, {"oblique45", 5, 0, 5}, {"grazing", 7, 0, 6},
                             {"edge", 6, 6, 0},   {"corner", 6, 6, 6},  {"centre", 0, 0, 0},    {"inner", 3, -3, 1}};

Scene centred_box(int half, Method method) {
    Scene s = block_scene(2 * half, 2 * half, 2 * half, kDs);
    s.grid.origin = {-half * kDs, -half * kDs, -half * kDs};
    s.run.method = method;
    s.run.dt = kDt;
    s.run.steps = kSteps;
    s.sources.push_back({"S", {0, 0, 0}, {1, 1, 1}, 1.0, ricker(100e3, 15e-6)});
    for (const Offset& o : kReceivers) s.receivers.push_back({o.name, {o.x * kDs, o.y * kDs, o.z * kDs}});
    return s;
}

Result run_box(int layer_cells, const std::string& type, Method method, Precision precision = Precision::Fp64) {
    Scene s = centred_box(kInner + layer_cells, method);
    s.run.precision = precision;
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-", "z+"};
    s.boundary.absorbing.thickness = layer_cells * kDs;
    s.boundary.absorbing.type = type;
    return run_wave(build_wave_problem(s, "pml test"), {});
}

const Result& reference(Method method) {
    static std::map<Method, Result> cache;
    auto it = cache.find(method);
    if (it == cache.end())
        it = cache.emplace(method, run_wave(build_wave_problem(centred_box(kRef, method), "ref"), {})).first;
    return it->second;
}

// 20 log10(||u_box - u_ref|| / ||u_ref||) over the window, all components, per receiver.
std::vector<double> reflection_db(const Result& box, const Result& ref) {
    const std::size_t nt = std::size_t(kSteps);
    std::vector<double> db;
    for (std::size_t r = 0; r < std::size(kReceivers); ++r) {
        double diff = 0, norm = 0;
        for (std::size_t v = r * nt * 3; v < (r + 1) * nt * 3; ++v) {
            diff += (box.displacement[v] - ref.displacement[v]) * (box.displacement[v] - ref.displacement[v]);
            norm += ref.displacement[v] * ref.displacement[v];
        }
        db.push_back(10 * std::log10(diff / norm));
    }
    return db;
}

std::string report(const std::vector<double>& db) {
    std::string s;
    for (std::size_t r = 0; r < db.size(); ++r)
        s += std::string(kReceivers[r].name) + " " + std::to_string(db[r]).substr(0, 6) + " dB  ";
    return s;
}

// The PML at every receiver at or below `limit` dB; with `sponge`, the sponge of the same
// thickness for contrast (the issue measured it 10-45 % of the signal): at least 20 dB worse.
void expect_absorbs(Method method, int cells, double limit, bool sponge) {
    const Result& ref = reference(method);
    const std::vector<double> pml = reflection_db(run_box(cells, "pml", method), ref);
    std::cout << to_string(method) << " PML " << cells << " cells: " << report(pml) << "\n";
    for (std::size_t r = 0; r < pml.size(); ++r) EXPECT_LE(pml[r], limit) << kReceivers[r].name;
    if (!sponge) return;
    const std::vector<double> sp = reflection_db(run_box(cells, "sponge", method), ref);
    std::cout << to_string(method) << " sponge " << cells << " cells: " << report(sp) << "\n";
    for (std::size_t r = 0; r < pml.size(); ++r) EXPECT_GE(sp[r], pml[r] + 20) << kReceivers[r].name;
}

TEST(PmlReflection, TenCellsOvfemAtMostMinus40DbEverywhereAndTheSpongeFarWorse) {
    expect_absorbs(Method::Ovfem, 10, -40, true);
}
TEST(PmlReflection, TenCellsVfemAtMostMinus40DbEverywhereAndTheSpongeFarWorse) {
    expect_absorbs(Method::Vfem, 10, -40, true);
}
TEST(PmlReflection, TwentyCellsOvfemAtMostMinus50Db) { expect_absorbs(Method::Ovfem, 20, -50, false); }
TEST(PmlReflection, TwentyCellsVfemAtMostMinus50Db) { expect_absorbs(Method::Vfem, 20, -50, false); }

}  // namespace
