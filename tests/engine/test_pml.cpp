// The convolutional PML (engine/boundary/pml_layer.hpp) on the CPU engine: what it reflects,
// measured against a box so large that its faces send nothing back inside the window; its
// stability long after the source has ended; its algebra's reduction to the interior element.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <iostream>
#include <map>
#include <string>

#include "boundary/pml_layer.hpp"
#include "reflection_util.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
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

// The PML at every receiver at or below `limit` dB; with `sponge`, the sponge of the same
// thickness for contrast (the issue measured it 10-45 % of the signal): at least 20 dB worse.
void expect_absorbs(Method method, int cells, double limit, bool sponge) {
    const Result& ref = reference(method);
    const std::vector<double> pml = reflection_db(run_box(cells, "pml", method), ref);
    std::cout << to_string(method) << " PML " << cells << " cells: " << reflection_report(ref, pml) << "\n";
    for (std::size_t r = 0; r < pml.size(); ++r) EXPECT_LE(pml[r], limit) << kReceivers[r].name;
    if (!sponge) return;
    const std::vector<double> sp = reflection_db(run_box(cells, "sponge", method), ref);
    std::cout << to_string(method) << " sponge " << cells << " cells: " << reflection_report(ref, sp) << "\n";
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

// A small model with a PML on every face, a steel bar through the layer and a void in its
// corner. The energy monitored is the model's discrete elastic-wave energy at half steps,
//     E = 1/2 v^T M v + 1/2 u+^T K u,   v = (u+ - u) / dt,
// M the nodal masses and K the stiffness (no stretch): the central-difference scheme conserves
// it exactly on a model without a layer, so once the source has ended only the layer can change
// it, and a layer that absorbs must take it out. Checked every 500 steps for 50,000 steps (20,000
// with a free face) after the source: never above its earlier peak, each 5,000 steps' peak below the one before (a
// growing mode would rise over thousands of steps), and at the end far below where it started.
Scene stability_scene(Method method, Precision precision) {
    Scene s = block_scene(7, 7, 7, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{0, 0.006, 0.006}, {0.014, 0.008, 0.008}}});     // through x- and x+
    s.shapes.push_back({"void", BoxShape{{0.010, 0.010, 0.010}, {0.014, 0.014, 0.014}}});  // the x+ y+ z+ corner
    s.run.method = method;
    s.run.precision = precision;
    s.sources.push_back({"S", {0.006, 0.008, 0.006}, {1, 1, 1}, 1.0, ricker(150e3, 8e-6)});
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-", "z+"};
    s.boundary.absorbing.thickness = 2 * kDs;
    return s;
}

template <class Real>
std::vector<double> energy_after_source(const WaveProblem& p, std::int64_t source_steps, std::int64_t after,
                                        std::int64_t every) {
    CpuTimeStepper<Real> st(p);
    const std::vector<double>& m = st.node_mass();
    const std::size_t nn = st.node_count();
    std::vector<double> out;
    for (std::int64_t n = 0; n < source_steps + after; ++n) {
        st.step(n);
        if (n + 1 < source_steps || (n + 1 - source_steps) % every != 0) continue;
        const std::vector<double> u = st.previous_displacement(), up = st.displacement();  // u^n, u^{n+1}
        const std::vector<double> ku = st.stiffness_times(u);
        double e = 0;
        for (std::size_t i = 0; i < 3 * nn; ++i) {
            const double v = (up[i] - u[i]) / p.dt;
            e += 0.5 * m[i % nn] * v * v + 0.5 * up[i] * ku[i];
        }
        out.push_back(e);
    }
    return out;
}

void expect_no_growth(const Scene& scene, std::int64_t after) {
    const Precision precision = scene.run.precision;
    // A model this small steps fastest on one thread (no fork and join a step).
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const WaveProblem p = build_wave_problem(scene, "stability");
    // The Ricker is below 1e-12 of its peak 2 delays after it starts.
    const std::int64_t source_steps = std::int64_t(std::ceil(2 * 8e-6 / p.dt)), every = 500;
    const std::vector<double> e = precision == Precision::Fp64
                                      ? energy_after_source<double>(p, source_steps, after, every)
                                      : energy_after_source<float>(p, source_steps, after, every);
    ASSERT_EQ(e.size(), std::size_t(after / every + 1));
    ASSERT_GT(e[0], 0);
    // FP32 ends on a floor of rounding near 1e-54 e[0] (displacements at its smallest normal
    // numbers), where the energy wanders; anything growing would cross 1e-40 e[0] on its way up.
    const double floor = precision == Precision::Fp64 ? 0.0 : 1e-40 * e[0];
    // Energy moves between the layer's fields and the model's, so from one checkpoint to the next
    // it may rise a little; it must never rise above what it had before, and its peak over each
    // 5,000 steps must be below the peak of the 5,000 before.
    double peak = e[0];
    for (std::size_t i = 1; i < e.size(); ++i) {
        if (e[i] > floor) EXPECT_LE(e[i], peak) << "checkpoint " << i * std::size_t(every) << " steps after the source";
        peak = std::max(peak, e[i]);
    }
    double window_before = e[0];
    for (std::size_t w = 1; w + 10 <= e.size(); w += 10) {
        const double window = *std::max_element(e.begin() + std::ptrdiff_t(w), e.begin() + std::ptrdiff_t(w + 10));
        if (window > floor) EXPECT_LT(window, window_before) << "window from " << w * std::size_t(every) << " steps";
        window_before = window;
    }
    EXPECT_LT(e.back(), 1e-6 * e[0]);
    omp_set_num_threads(threads);
}

TEST(PmlStability, OvfemFp64) { expect_no_growth(stability_scene(Method::Ovfem, Precision::Fp64), 50000); }
TEST(PmlStability, OvfemFp32) { expect_no_growth(stability_scene(Method::Ovfem, Precision::Fp32), 50000); }
TEST(PmlStability, VfemFp64) { expect_no_growth(stability_scene(Method::Vfem, Precision::Fp64), 50000); }
TEST(PmlStability, VfemFp32) { expect_no_growth(stability_scene(Method::Vfem, Precision::Fp32), 50000); }
TEST(PmlStability, Tcovfem) { expect_no_growth(stability_scene(Method::Tcovfem, Precision::Fp64), 50000); }

// The top face free and crossing the four side layers (the bench: five faces, top free):
// the free surface runs through the layers to their held outer faces.
TEST(PmlStability, FiveFacesTopFreeOvfemFp64) {
    Scene s = block_scene(10, 10, 10, kDs);
    s.sources.push_back({"S", {0.010, 0.010, 0.020}, {1, 1, 1}, 1.0, ricker(150e3, 8e-6)});
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-"};
    s.boundary.absorbing.thickness = 3 * kDs;
    expect_no_growth(s, 20000);
}

// The layer pass's conditioning: 40 steps from a random state (um, u) and from (um, u2), u2 = u
// with every third entry times (1 + 1e-15), on a 5-cell PML on six faces (its edges and corners
// have two or three equal poles) with a void in a corner. The scheme is linear, so the two end
// states differ by the 40-step response to u2 - u alone, which is computed here too (from
// (0, u2 - u)): about 1e-15 of the peak. A well-conditioned FP64 pass adds only rounding of
// the same order, so the difference must stay within 100 times that response; filters in partial fractions with poles
// moved 1e-3 apart amplified it to 1e-9.
TEST(PmlConditioning, RoundingOfTheStateIsNotAmplifiedInTheLayer) {
    Scene s = block_scene(14, 14, 14, kDs);
    s.run.method = Method::Ovfem;
    s.shapes.push_back({"void", SphereShape{{0.0, 0.0, 0.0}, 0.008}});
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-", "z+"};
    s.boundary.absorbing.thickness = 5 * kDs;
    const WaveProblem p = build_wave_problem(s, "conditioning");
    ASSERT_TRUE(p.boundary.has_pml());
    const std::size_t n = 3 * p.grid.node_count();
    const std::vector<double> u = voxwave::test::random_vector(n, 5);
    std::vector<double> um = voxwave::test::random_vector(n, 6), u2 = u, du(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) um[i] = u[i] + 1e-2 * um[i];
    for (std::size_t i = 0; i < n; i += 3) u2[i] = u[i] * (1 + 1e-15);
    for (std::size_t i = 0; i < n; ++i) du[i] = u2[i] - u[i];
    auto run = [&](const std::vector<double>& a, const std::vector<double>& b) {
        CpuTimeStepper<double> st(p);
        st.set_state(a, b);
        for (std::int64_t k = 0; k < 40; ++k) st.step(k);
        return st.displacement();
    };
    const std::vector<double> x1 = run(um, u), x2 = run(um, u2), dx = run(std::vector<double>(n, 0.0), du);
    double peak = 0, diff = 0, response = 0;
    for (std::size_t i = 0; i < n; ++i) {
        peak = std::max(peak, std::abs(x1[i]));
        diff = std::max(diff, std::abs(x2[i] - x1[i]));
        response = std::max(response, std::abs(dx[i]));
    }
    ASSERT_GT(peak, 0);
    std::cout << "difference " << diff / peak << " of the peak, exact response " << response / peak << "\n";
    EXPECT_GT(response, 0);
    EXPECT_LE(diff, 100 * response);
}

TEST(PmlTables, FiltersAndNodeMassesAreTheStretchRatios) {
    VoxelGrid g;
    g.n = {6, 6, 6};
    g.spacing = kDs;
    g.ids.assign(g.element_count(), 1);
    BoundaryConditions bc;
    for (int f : {0, 3, 5}) {
        bc.faces[std::size_t(f)].absorbing = AbsorbingType::Pml;
        bc.faces[std::size_t(f)].thickness = 3 * kDs;
        bc.faces[std::size_t(f)].reflection = 1e-3;
        bc.faces[std::size_t(f)].kappa_max = 2;
        bc.faces[std::size_t(f)].frequency = 1e5;
    }
    const PmlLayer layer = pml_layer(bc, g, 4000);
    std::vector<double> mass(g.node_count(), 1.0);
    const PmlTables t = pml_tables(layer, g, mass, 1e-7);
    double worst = 0;
    for (std::size_t q = 0; q < t.element.size(); ++q) {
        const std::size_t e = t.element[q];
        const int i = int(e % 6), j = int((e / 6) % 6), k = int(e / 36);
        std::array<std::complex<double>, 3> s;
        const int idx[3] = {i, j, k};
        for (int w : {1, 3, 10}) {
            const std::complex<double> z(0, 2 * M_PI * 1e5 * w / 3);
            for (int a = 0; a < 3; ++a) {
                const PmlProfile& p = layer.element[std::size_t(a)];
                s[std::size_t(a)] = p.empty() ? 1.0
                                              : p.kappa[std::size_t(idx[a])] +
                                                    p.d[std::size_t(idx[a])] / (p.alpha[std::size_t(idx[a])] + z);
            }
            for (int jj = 0; jj < 3; ++jj)
                for (int l = jj; l < 3; ++l) {
                    const std::complex<double> want = s[0] * s[1] * s[2] / (s[std::size_t(jj)] * s[std::size_t(l)]);
                    const int f = pml_filter(jj, l);
                    // The Newton form: 1 + c0 + sum_k a_k / ((z + p_1) ... (z + p_k)).
                    std::complex<double> got = 1.0 + t.filter_const[q * 6 + std::size_t(f)], chain = 1.0;
                    for (std::size_t p = t.element_first_pole[q]; p < t.element_first_pole[q + 1]; ++p) {
                        chain /= z + t.element_poles.p[p];
                        got += t.filter_newton[p * 6 + std::size_t(f)] * chain;
                    }
                    worst = std::max(worst, std::abs(got - want) / std::abs(want));
                }
        }
    }
    // The nodes' stretched mass: the mean of S = s_x s_y s_z of the elements around each node.
    double worst_mass = 0;
    for (std::size_t q = 0; q < t.node.size(); ++q) {
        const std::size_t n = t.node[q];
        const int i = int(n % 7), j = int((n / 7) % 7), k = int(n / 49);
        for (int w : {1, 3, 10}) {
            const std::complex<double> z(0, 2 * M_PI * 1e5 * w / 3);
            std::complex<double> want = 0.0;
            int count = 0;
            for (int c = k - 1; c <= k; ++c)
                for (int b = j - 1; b <= j; ++b)
                    for (int a = i - 1; a <= i; ++a) {
                        if (a < 0 || b < 0 || c < 0 || a > 5 || b > 5 || c > 5) continue;
                        const int idx[3] = {a, b, c};
                        std::complex<double> S = 1.0;
                        for (int ax = 0; ax < 3; ++ax) {
                            const PmlProfile& p = layer.element[std::size_t(ax)];
                            if (!p.empty())
                                S *= p.kappa[std::size_t(idx[ax])] +
                                     p.d[std::size_t(idx[ax])] / (p.alpha[std::size_t(idx[ax])] + z);
                        }
                        want += S;
                        ++count;
                    }
            want /= double(count);
            std::complex<double> got = t.node_scale[q], chain = 1.0;
            for (std::size_t p = t.node_first_pole[q]; p < t.node_first_pole[q + 1]; ++p) {
                chain /= z + t.node_poles.p[p];
                got += t.node_newton[p] * chain;
            }
            worst_mass = std::max(worst_mass, std::abs(got - want) / std::abs(want));
        }
    }
    // The poles are the exact ones (none moved apart): only rounding remains.
    std::cout << "worst relative filter error " << worst << ", mass " << worst_mass << "\n";
    EXPECT_LT(worst, 1e-10);
    EXPECT_GT(t.node.size(), 0u);
    EXPECT_LT(worst_mass, 1e-10);
}
}  // namespace

namespace {
// The tables by class (pml_element_classes) give every element exactly its own poles and
// coefficients, and there are no more classes than combinations of depths along the axes.
TEST(PmlTables, ClassesHoldEachElementsOwnRowAndAreFew) {
    VoxelGrid g;
    g.n = {8, 7, 6};
    g.spacing = kDs;
    g.ids.assign(g.element_count(), 1);
    BoundaryConditions bc;
    for (int f : {0, 1, 2, 4}) {  // x-, x+ (the same depths from both sides), y-, z-
        bc.faces[std::size_t(f)].absorbing = AbsorbingType::Pml;
        bc.faces[std::size_t(f)].thickness = 3 * kDs;
        bc.faces[std::size_t(f)].reflection = 1e-3;
        bc.faces[std::size_t(f)].kappa_max = 2;
        bc.faces[std::size_t(f)].frequency = 1e5;
    }
    const PmlTables t = pml_tables(pml_layer(bc, g, 4000), g, std::vector<double>(g.node_count(), 1.0), 1e-7);
    const PmlElementClasses c = pml_element_classes(t);
    ASSERT_EQ(c.of_element.size(), t.element.size());
    ASSERT_GT(t.element.size(), 0u);
    // Depths: x none or 0..2 (4), y 4, z 4, less the interior (no layer).
    EXPECT_LE(c.size(), std::size_t(4 * 4 * 4 - 1));
    EXPECT_LT(c.size(), t.element.size() / 2);
    for (std::size_t q = 0; q < t.element.size(); ++q) {
        const std::size_t k = c.of_element[q], p0 = t.element_first_pole[q];
        const std::size_t poles = t.element_first_pole[q + 1] - p0;
        ASSERT_EQ(c.first_pole[k + 1] - c.first_pole[k], poles) << q;
        for (int f = 0; f < kPmlFilters; ++f)
            EXPECT_EQ(c.filter_const[k * kPmlFilters + std::size_t(f)],
                      t.filter_const[q * kPmlFilters + std::size_t(f)]);
        for (std::size_t i = 0; i < poles; ++i) {
            const std::size_t cp = c.first_pole[k] + i, p = p0 + i;
            EXPECT_EQ(c.poles.p[cp], t.element_poles.p[p]);
            EXPECT_EQ(c.poles.decay[cp], t.element_poles.decay[p]);
            EXPECT_EQ(c.poles.w_old[cp], t.element_poles.w_old[p]);
            EXPECT_EQ(c.poles.w_new[cp], t.element_poles.w_new[p]);
            for (int f = 0; f < kPmlFilters; ++f)
                EXPECT_EQ(c.filter_newton[cp * kPmlFilters + std::size_t(f)],
                          t.filter_newton[p * kPmlFilters + std::size_t(f)]);
        }
    }
}
}  // namespace
