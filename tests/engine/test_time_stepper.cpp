// Grid-level stiffness and central-difference integration on the CPU: patch test, energy
// conservation, damping, constraints, CFL refusal, FP32 vs FP64, thread-count independence.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "assembly_util.hpp"
#include "core/errors.hpp"
#include "scene_builders.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/voxel_element_matrix.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

std::vector<double> linear_field(const VoxelGrid& g, const double A[3][3]) {
    const std::size_t nn = g.node_count();
    std::vector<double> u(3 * nn);
    for (int k = 0; k <= g.n[2]; ++k)
        for (int j = 0; j <= g.n[1]; ++j)
            for (int i = 0; i <= g.n[0]; ++i) {
                const auto x = g.node_position(i, j, k);
                for (int c = 0; c < 3; ++c)
                    u[c * nn + g.node_index(i, j, k)] = A[c][0] * x[0] + A[c][1] * x[1] + A[c][2] * x[2] + 1e-6 * c;
            }
    return u;
}

// Smooth random-ish initial displacement (a few low Fourier modes), zero initial velocity.
std::vector<double> smooth_field(const VoxelGrid& g, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> U(-1, 1);
    double a[3][4];
    for (auto& row : a)
        for (double& v : row) v = U(rng);
    const std::size_t nn = g.node_count();
    std::vector<double> u(3 * nn);
    const auto L = g.extent();
    for (int k = 0; k <= g.n[2]; ++k)
        for (int j = 0; j <= g.n[1]; ++j)
            for (int i = 0; i <= g.n[0]; ++i) {
                const auto x = g.node_position(i, j, k);
                for (int c = 0; c < 3; ++c)
                    u[c * nn + g.node_index(i, j, k)] =
                        1e-6 * (a[c][0] * std::sin(M_PI * x[0] / L[0]) * std::cos(2 * M_PI * x[1] / L[1]) +
                                a[c][1] * std::cos(M_PI * x[2] / L[2]) + a[c][2] * x[0] * x[1] / (L[0] * L[1]) +
                                a[c][3] * std::sin(3 * M_PI * x[2] / L[2]));
            }
    return u;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

// E^{n+1/2} = 1/2 v^t M v + 1/2 u_{n+1}^t K u_n with v = (u_{n+1} - u_n) / dt: the energy the
// undamped central-difference scheme conserves exactly.
double discrete_energy(const CpuTimeStepper<double>& st, double dt, const std::vector<double>& un,
                       const std::vector<double>& un1) {
    const auto& m = st.node_mass();
    const std::size_t nn = st.node_count();
    double kin = 0;
    for (std::size_t i = 0; i < 3 * nn; ++i) {
        const double v = (un1[i] - un[i]) / dt;
        kin += 0.5 * m[i % nn] * v * v;
    }
    return kin + 0.5 * dot(un1, st.stiffness_times(un));
}

class GridTest : public ::testing::TestWithParam<Method> {};

TEST_P(GridTest, PatchTestLinearFieldGivesZeroInteriorForces) {
    Scene s = block_scene(3, 3, 3, 0.002);
    s.run.method = GetParam();
    const WaveProblem p = build_wave_problem(s, "patch");
    CpuTimeStepper<double> st(p);
    const double A[3][3] = {{1e-4, 3e-5, -2e-5}, {-1e-5, 2e-4, 4e-5}, {5e-5, -3e-5, -1e-4}};
    const auto& g = p.grid;
    const auto f = st.stiffness_times(linear_field(g, A));
    const std::size_t nn = g.node_count();
    double fmax = 0;
    for (double v : f) fmax = std::max(fmax, std::abs(v));
    ASSERT_GT(fmax, 0);
    for (int k = 1; k < 3; ++k)
        for (int j = 1; j < 3; ++j)
            for (int i = 1; i < 3; ++i)
                for (int c = 0; c < 3; ++c) EXPECT_LT(std::abs(f[c * nn + g.node_index(i, j, k)]), 1e-12 * fmax);
    // The boundary forces are the tractions of the uniform stress: on the x+ face they sum to
    // sigma e_x * area.
    const Material m = concrete();
    const double lam = m.lame_lambda(), mu = m.shear_modulus();
    const double tr = A[0][0] + A[1][1] + A[2][2];
    const double area = (3 * 0.002) * (3 * 0.002);
    for (int c = 0; c < 3; ++c) {
        double sum = 0;
        for (int k = 0; k <= 3; ++k)
            for (int j = 0; j <= 3; ++j) sum += f[c * nn + g.node_index(3, j, k)];
        const double sigma = (c == 0 ? lam * tr : 0.0) + mu * (A[c][0] + A[0][c]);
        EXPECT_NEAR(sum, sigma * area, 1e-9 * std::abs(lam * tr * area));
    }
}

TEST_P(GridTest, StiffnessProductEqualsAssembledElementMatrices) {
    // Heterogeneous 4x3x2 grid with a void element: the fast row kernel must equal a plain
    // assembly of 24x24 element matrices.
    Scene s = block_scene(4, 3, 2, 0.003);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{0.003, 0.0, 0.0}, {0.006, 0.009, 0.003}}});
    s.shapes.push_back({"void", BoxShape{{0.009, 0.006, 0.003}, {0.012, 0.009, 0.006}}});
    s.run.method = GetParam();
    const WaveProblem p = build_wave_problem(s, "assembly");
    const auto& g = p.grid;
    CpuTimeStepper<double> st(p);
    const std::size_t nn = g.node_count();
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-1, 1);
    std::vector<double> u(3 * nn);
    for (double& v : u) v = U(rng);
    const auto f = st.stiffness_times(u);
    const std::vector<double> ref = assembled_product(g, p.materials, p.element_method(), u);
    int void_count = 0, steel_count = 0;
    for (MaterialId id : g.ids) {
        void_count += id == 0;
        steel_count += id == 2;
    }
    EXPECT_EQ(void_count, 1);
    EXPECT_EQ(steel_count, 3);
    double scale = 0;
    for (double v : ref) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(f[i], ref[i], 1e-13 * scale);
}

TEST_P(GridTest, DiscreteEnergyConservedOver10000Steps) {
    // Undamped central difference conserves E^{n+1/2} = 1/2 v^t M v + 1/2 u_{n+1}^t K u_n,
    // v = (u_{n+1} - u_n) / dt, exactly in exact arithmetic; round-off over 10^4 steps stays
    // orders below the 1e-6 bound. Heterogeneous model with a void, free surfaces and fixed
    // corner nodes.
    Scene s = block_scene(5, 4, 4, 0.002);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", SphereShape{{0.005, 0.004, 0.004}, 0.0025}});
    s.shapes.push_back({"void", BoxShape{{0.0, 0.0, 0.006}, {0.002, 0.002, 0.008}}});
    s.boundary.fixed_points = {{0, 0, 0}, {0.01, 0, 0}};
    s.run.method = GetParam();
    const WaveProblem p = build_wave_problem(s, "energy");
    CpuTimeStepper<double> st(p);
    const auto u0 = smooth_field(p.grid, 3);
    st.set_state(u0, u0);
    std::vector<double> prev = st.displacement();
    st.step(0);
    std::vector<double> cur = st.displacement();
    const double e0 = discrete_energy(st, p.dt, prev, cur);
    ASSERT_GT(e0, 0);
    double worst = 0;
    for (int n = 1; n < 10000; ++n) {
        prev.swap(cur);
        st.step(n);
        cur = st.displacement();
        if (n % 100 == 0 || n == 9999)
            worst = std::max(worst, std::abs(discrete_energy(st, p.dt, prev, cur) - e0) / e0);
    }
    EXPECT_LT(worst, 1e-6);
    // The motion is real: the displacement field after 10^4 steps differs from the start.
    EXPECT_GT(std::abs(dot(cur, cur) - dot(u0, u0)), 1e-6 * dot(u0, u0));
}

TEST_P(GridTest, RayleighDampingOnlyRemovesEnergy) {
    Scene s = block_scene(4, 4, 4, 0.002);
    s.damping = {"rayleigh", 0.05, 100e3, 125e3};
    s.run.method = GetParam();
    const WaveProblem p = build_wave_problem(s, "damped");
    CpuTimeStepper<double> st(p);
    const auto u0 = smooth_field(p.grid, 5);
    st.set_state(u0, u0);
    std::vector<double> prev = st.displacement();
    st.step(0);
    std::vector<double> cur = st.displacement();
    const double e0 = discrete_energy(st, p.dt, prev, cur);
    double last = e0;
    for (int n = 1; n < 3000; ++n) {
        prev.swap(cur);
        st.step(n);
        cur = st.displacement();
        // The lagged stiffness-damping term makes the discrete energy decay overall, not
        // strictly step by step (tiny 1e-5 relative upticks occur), so check it never exceeds
        // the start and ends far below it.
        const double e = discrete_energy(st, p.dt, prev, cur);
        EXPECT_LE(e, e0 * (1 + 1e-12)) << "step " << n;
        last = e;
    }
    // 3000 steps of ~0.36 us = 1.1 ms with xi = 5 % at 100-125 kHz (omega xi ~ 3.5e4 1/s for
    // those modes, more for the higher ones) removes nearly all of it.
    EXPECT_LT(last, 0.01 * e0);
}

// TCOVFEM (CPU emulation of the INT8 product, M = 8) must pass the same grid-level checks.
INSTANTIATE_TEST_SUITE_P(AllMethods, GridTest, ::testing::Values(Method::Vfem, Method::Ovfem, Method::Tcovfem),
                         [](const auto& param_info) { return std::string(to_string(param_info.param)); });

TEST(WaveProblem, RefusesTimeStepAboveTheStableLimit) {
    Scene s = block_scene(4, 4, 4, 0.002, steel());
    s.run.method = Method::Ovfem;
    const WaveProblem p = build_wave_problem(s, "cfl");
    // Auto dt is 0.9 of the limit; the limit scales with ds / vp.
    EXPECT_NEAR(p.dt, 0.9 * p.dt_stable, 1e-20);
    EXPECT_GT(p.dt_stable, 0.3 * 0.002 / steel().vp);
    EXPECT_LT(p.dt_stable, 0.002 / steel().vp);
    s.run.dt = p.dt_stable * 1.01;
    try {
        build_wave_problem(s, "cfl.json");
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "cfl.json");
        EXPECT_EQ(e.field(), "run.dt");
        EXPECT_NE(std::string(e.what()).find("stable limit"), std::string::npos);
    }
    s.run.dt = p.dt_stable * 0.99;
    EXPECT_NO_THROW(build_wave_problem(s, "cfl.json"));
}

TEST(WaveProblem, StableLimitKeepsRunsBounded) {
    // The limit comes from the largest element eigenvalue (Irons: it bounds the assembled
    // omega_max), so it is safe for any model; for an infinite uniform grid it is 17-18 % below
    // the Bloch limit (omega_max 4.06e6 vs the element bound 4.90e6 rad/s for OVFEM concrete at
    // 2 mm). At 0.99 of it a random kick stays bounded; at 1.3 of it (beyond the Bloch limit too)
    // the highest modes grow without bound, which is what refusing such a dt prevents.
    for (double factor : {0.99, 1.3}) {
        Scene s = block_scene(6, 6, 6, 0.002);
        s.run.method = Method::Ovfem;
        WaveProblem p = build_wave_problem(s, "cfl");
        p.dt = factor * p.dt_stable;
        CpuTimeStepper<double> st(p);
        std::vector<double> u(3 * st.node_count());
        std::mt19937 rng(1);
        std::uniform_real_distribution<double> U(-1e-9, 1e-9);
        for (double& v : u) v = U(rng);
        st.set_state(u, u);
        for (int n = 0; n < 4000; ++n) st.step(n);
        const auto un = st.displacement();
        const double amp = std::sqrt(dot(un, un) / double(un.size()));
        if (factor < 1)
            EXPECT_LT(amp, 1e-8);
        else
            EXPECT_FALSE(amp < 1e-3) << amp;  // grown past 1e-3 or overflowed to inf/nan
    }
}

TEST(WaveRun, FixedNodesStayAtRestAndResultsDoNotDependOnThreadCount) {
    Scene s = block_scene(6, 5, 4, 0.002);
    s.boundary.fixed_faces = {"z-"};
    s.sources.push_back({"S", {0.006, 0.004, 0.008}, {0.3, 0.2, 1}, 2.0, ricker(300e3, 4e-6)});
    s.receivers.push_back({"top", {0.004, 0.006, 0.008}});
    s.receivers.push_back({"bottom", {0.004, 0.006, 0.0}});
    s.run.steps = 60;
    const WaveProblem p = build_wave_problem(s, "threads");
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const Result one = run_wave(p, {});
    omp_set_num_threads(std::max(2, threads));
    const Result many = run_wave(p, {});
    omp_set_num_threads(threads);
    ASSERT_EQ(one.displacement.size(), 2u * 60u * 3u);
    EXPECT_EQ(one.displacement, many.displacement);  // bit-identical: no reduction order depends on threads
    double top = 0, bottom = 0;
    for (std::size_t t = 0; t < 60; ++t)
        for (int c = 0; c < 3; ++c) {
            top = std::max(top, std::abs(one.u(0, t, c)));
            bottom = std::max(bottom, std::abs(one.u(1, t, c)));
        }
    EXPECT_GT(top, 0);
    EXPECT_EQ(bottom, 0.0);
}

TEST(WaveRun, LeavesTheCallersFloatingPointModeAsItWas) {
    // Subnormals are flushed only while the engine works (core/float_env.hpp): afterwards the
    // calling thread is back in IEEE mode, so e.g. strtod of subnormal text is unaffected.
    Scene s = block_scene(4, 4, 4, 0.002);
    s.sources.push_back({"S", {0.004, 0.004, 0.008}, {0, 0, 1}, 1.0, ricker(300e3, 4e-6)});
    s.run.steps = 20;
    volatile double tiny = 1e-310;  // subnormal
    ASSERT_GT(tiny * 1.0, 0.0);
    (void)run_wave(build_wave_problem(s, "fpenv"), {});
    EXPECT_GT(tiny * 1.0, 0.0);  // under DAZ this product would be 0
    EXPECT_EQ(std::strtod("1e-310", nullptr), 1e-310);
}

TEST(WaveRun, Fp32TracksFp64) {
    // FP32 rounding (2^-24 relative per operation) over 300 steps stays far below 1e-3 of the
    // trace's peak; a broken FP32 path (wrong scale, wrong layout) would be O(1) off.
    Scene s = block_scene(10, 8, 8, 0.002);
    s.sources.push_back({"S", {0.01, 0.008, 0.016}, {0, 0, 1}, 1.0, ricker(200e3, 6e-6)});
    s.receivers.push_back({"R", {0.016, 0.01, 0.016}});
    s.run.steps = 300;
    s.run.method = Method::Ovfem;
    const Result d = run_wave(build_wave_problem(s, "fp"), {});
    s.run.precision = Precision::Fp32;
    const Result f = run_wave(build_wave_problem(s, "fp"), {});
    double peak = 0, diff = 0;
    for (std::size_t i = 0; i < d.displacement.size(); ++i) {
        peak = std::max(peak, std::abs(d.displacement[i]));
        diff = std::max(diff, std::abs(d.displacement[i] - f.displacement[i]));
    }
    ASSERT_GT(peak, 0);
    EXPECT_LT(diff, 1e-3 * peak);
    EXPECT_GT(diff, 0);  // it really ran in single precision
    EXPECT_EQ(f.precision, "fp32");
}

}  // namespace

namespace {
template <class Real>
std::vector<double> run_steps(const WaveProblem& p, int steps, bool two_pass, int threads) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    CpuTimeStepper<Real> st(p);
    st.set_two_pass(two_pass);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> U(-1e-9, 1e-9);
    std::vector<double> u(3 * st.node_count()), um(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        u[i] = U(rng);
        um[i] = u[i] + 1e-2 * U(rng);
    }
    st.set_state(um, u);
    for (int n = 0; n < steps; ++n) st.step(n);
    omp_set_num_threads(saved);
    return st.displacement();
}
}  // namespace

TEST(WaveRun, FusedStepEqualsProductThenUpdateAndDoesNotDependOnThreadCount) {
    // Several plane chunks (nz = 37 > 2 x 16), rows that are no multiple of the SIMD width,
    // Rayleigh damping, a sponge, a void, a second material, fixed nodes and a source.
    Scene s = block_scene(21, 9, 37, 0.002);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", SphereShape{{0.02, 0.01, 0.03}, 0.006}});
    s.shapes.push_back({"void", BoxShape{{0.0, 0.0, 0.05}, {0.01, 0.006, 0.06}}});
    s.boundary.fixed_faces = {"z-"};
    s.sources.push_back({"S", {0.02, 0.008, 0.074}, {0.3, 0.2, 1}, 2.0, ricker(300e3, 4e-6)});
    s.damping = {"rayleigh", 0.02, 100e3, 300e3};
    for (const bool sponge : {false, true}) {
        s.boundary.absorbing = sponge ? AbsorbingSpec{{"x+", "z+"}, 0.008, "sponge"} : AbsorbingSpec{};
        for (const Precision pr : {Precision::Fp64, Precision::Fp32}) {
            s.run.precision = pr;
            const WaveProblem p = build_wave_problem(s, "fused");
            ASSERT_NE(p.rayleigh.beta, 0.0);
            ASSERT_EQ(p.boundary.has_node_damping(), sponge);
            const bool fp64 = pr == Precision::Fp64;
            auto go = [&](bool two_pass, int threads) {
                return fp64 ? run_steps<double>(p, 40, two_pass, threads) : run_steps<float>(p, 40, two_pass, threads);
            };
            const std::vector<double> fused = go(false, 1), fused3 = go(false, 3), two = go(true, 2);
            EXPECT_EQ(fused, fused3) << "sponge " << sponge << " fp64 " << fp64;
            double peak = 0, diff = 0;
            for (std::size_t i = 0; i < fused.size(); ++i) {
                peak = std::max(peak, std::abs(two[i]));
                diff = std::max(diff, std::abs(two[i] - fused[i]));
            }
            ASSERT_GT(peak, 0);
            // Only the order of the force additions differs: rounding.
            EXPECT_LT(diff / peak, fp64 ? 1e-13 : 1e-4) << "sponge " << sponge << " fp64 " << fp64;
        }
    }
}
