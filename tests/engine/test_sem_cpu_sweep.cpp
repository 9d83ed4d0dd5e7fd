// The CPU form of the spectral elements (sem_plane_sweep_cpu.hpp, sem_element_kernel_cpu.hpp):
// the lane kernel (line by line, even-odd split) against the shared point kernel, the stepper's
// node order as a one-to-one map of the GLL nodes, and the sweep on rows longer than one vector
// (the last vector shifted back over elements already done), with voids and two materials,
// against a plain assembly of dense element matrices written here: K u, and one damped step
// with a sponge worked out from that assembly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "sem_test_state.hpp"
#include "test_util.hpp"
#include "wave/sem_element_kernel_cpu.hpp"
#include "wave/sem_element_matrix.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wave_problem.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kDs = 0.004;

class SemCpuSweep : public ::testing::TestWithParam<int> {};

// Max |cpu - shared| and max |shared| over L FP64 elements of order P with random u and
// per-lane materials.
template <int P>
std::pair<double, double> lane_kernel_against_point_kernel() {
    constexpr int N = P + 1, N3 = N * N * N, L = SemLanes<double>::kLanes;
    using Vec = SemLanes<double>::Vec;
    const GllTables gll = gll_tables(P);
    const SemKernelTablesCpu<P, double> tab(gll, 0.5 * kDs);
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> U(-1e-6, 1e-6), M(1e9, 3e10);
    std::vector<Vec> u(3 * N3), g(3 * N3 + 6 * N * N), f(3 * N3);
    Vec lam, mu;
    for (int l = 0; l < L; ++l) {
        lam[l] = M(rng);
        mu[l] = M(rng);
    }
    for (auto& v : u)
        for (int l = 0; l < L; ++l) v[l] = U(rng);
    sem_element_force_cpu<P, Vec, double>(tab, lam, mu, u.data(), g.data(), f.data());
    double diff = 0, scale = 0;
    std::vector<double> ul(3 * N3), tl(9 * N3), fl(3 * N3);
    for (int l = 0; l < L; ++l) {
        for (int i = 0; i < 3 * N3; ++i) ul[std::size_t(i)] = u[std::size_t(i)][l];
        sem_element_force<P, double>(gll.d, gll.w, lam[l], mu[l], 0.5 * kDs, ul.data(), tl.data(), fl.data());
        for (int i = 0; i < 3 * N3; ++i) {
            diff = std::max(diff, std::abs(f[std::size_t(i)][l] - fl[std::size_t(i)]));
            scale = std::max(scale, std::abs(fl[std::size_t(i)]));
        }
    }
    return {diff, scale};
}

TEST_P(SemCpuSweep, LaneKernelEqualsTheSharedPointKernel) {
    const int p = GetParam();
    const auto [diff, scale] = p == 2   ? lane_kernel_against_point_kernel<2>()
                               : p == 3 ? lane_kernel_against_point_kernel<3>()
                                        : lane_kernel_against_point_kernel<4>();
    ASSERT_GT(scale, 0);
    EXPECT_LT(diff, 1e-13 * scale);
}

TEST_P(SemCpuSweep, NodeOrderIsAOneToOneMapOfTheNodes) {
    const int p = GetParam();
    for (const std::array<int, 3>& e : {std::array<int, 3>{1, 2, 1}, {3, 2, 2}, {19, 3, 2}})
        for (int lanes : {8, 16}) {
            const std::array<int, 3> n{p * e[0] + 1, p * e[1] + 1, p * e[2] + 1};
            const SemNodeOrderCpu o(p, n, lanes);
            std::set<std::size_t> seen;
            for (int k = 0; k < n[2]; ++k)
                for (int j = 0; j < n[1]; ++j)
                    for (int i = 0; i < n[0]; ++i) {
                        const std::size_t x = o.index(i, j, k);
                        ASSERT_LT(x, o.size);
                        // Node i of a row is entry (i mod p) of the run of element i / p.
                        ASSERT_EQ(x % o.row, std::size_t(i % p) * o.stride + std::size_t(i / p));
                        ASSERT_EQ(x / o.row, std::size_t(j) + std::size_t(n[1]) * std::size_t(k));
                        ASSERT_TRUE(seen.insert(x).second) << i << " " << j << " " << k;
                    }
            EXPECT_GE(o.stride, std::size_t(lanes));
            EXPECT_GE(o.stride, std::size_t(e[0] + 1));
            std::vector<double> v(2 * o.node_count());
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = double(i) + 0.5;
            const std::vector<double> there = o.from_natural<double>(v.data(), 2, -1.0);
            EXPECT_EQ(std::count(there.begin(), there.end(), -1.0), std::ptrdiff_t(2 * (o.size - o.node_count())));
            EXPECT_EQ(o.to_natural<double>(there.data(), 2), v);
            EXPECT_EQ(o.index(o.node_count() - 1), o.index(n[0] - 1, n[1] - 1, n[2] - 1));
        }
}

// 19 elements along x: three FP64 vectors of 8 (the last from element 11) and two FP32 vectors
// of 16 (the second from element 3); steel, voids (whole vectors' worth in places) and a
// sponge; Rayleigh damping.
WaveProblem long_row_problem(int order) {
    Scene s = block_scene(19, 3, 3, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{2 * kDs, 0.0, 0.0}, {13 * kDs, 2 * kDs, 2 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{8 * kDs, kDs, kDs}, {17 * kDs, 2 * kDs, 2 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{0.0, 2 * kDs, 0.0}, {19 * kDs, 3 * kDs, kDs}}});
    s.shapes.push_back({"void", BoxShape{{15 * kDs, 0.0, 2 * kDs}, {16 * kDs, kDs, 3 * kDs}}});
    damped_sponged_sem(s, {"x+", "y-"}, kDs, order);
    validate_scene(s, "long rows");
    return build_wave_problem(s, "long rows");
}

// K u by dense element matrices (sem_element_stiffness), element by element, x-fastest nodes.
std::vector<double> dense_assembly(const WaveProblem& prob, const std::vector<double>& u) {
    const int p = prob.order, n1 = p + 1, n3 = n1 * n1 * n1;
    const SemMesh mesh = sem_mesh(prob.grid, p);
    const std::size_t nn = mesh.node_count();
    std::vector<double> f(3 * nn, 0.0);
    std::vector<Eigen::MatrixXd> k;
    for (const Material& m : prob.materials)
        k.push_back(sem_element_stiffness(p, prob.grid.spacing, m.lame_lambda(), m.shear_modulus()));
    const VoxelGrid& g = prob.grid;
    for (int ek = 0; ek < g.n[2]; ++ek)
        for (int ej = 0; ej < g.n[1]; ++ej)
            for (int ei = 0; ei < g.n[0]; ++ei) {
                const MaterialId id = g.at(ei, ej, ek);
                if (id == kVoidId) continue;
                std::vector<std::size_t> node(static_cast<std::size_t>(n3));
                Eigen::VectorXd ue(3 * n3);
                for (int c = 0; c < n1; ++c)
                    for (int b = 0; b < n1; ++b)
                        for (int a = 0; a < n1; ++a) {
                            const int q = a + n1 * (b + n1 * c);
                            node[std::size_t(q)] = mesh.node_index(p * ei + a, p * ej + b, p * ek + c);
                            for (int i = 0; i < 3; ++i) ue(i * n3 + q) = u[i * nn + node[std::size_t(q)]];
                        }
                const Eigen::VectorXd fe = k[id - 1] * ue;
                for (int q = 0; q < n3; ++q)
                    for (int i = 0; i < 3; ++i) f[i * nn + node[std::size_t(q)]] += fe(i * n3 + q);
            }
    return f;
}

using test::max_abs;

TEST_P(SemCpuSweep, LongRowsWithVoidsEqualDenseAssembly) {
    const WaveProblem prob = long_row_problem(GetParam());
    const std::size_t nn = prob.node_count();
    std::vector<double> u, up;
    random_sem_state(nn, 11, u, up);
    const std::vector<double> want = dense_assembly(prob, u);
    const double scale = max_abs(want);
    ASSERT_GT(scale, 0);
    const std::vector<double> f64 = SemTimeStepperCpu<double>(prob).stiffness_times(u);
    const std::vector<double> f32 = SemTimeStepperCpu<float>(prob).stiffness_times(u);
    std::size_t zero_nodes = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_NEAR(f64[i], want[i], 1e-12 * scale) << i;
        ASSERT_NEAR(f32[i], want[i], 1e-5 * scale) << i;
        if (prob.node_mass[i % nn] == 0) {
            ASSERT_EQ(f64[i], 0.0) << i;  // a node of void elements only
            ++zero_nodes;
        }
    }
    EXPECT_GT(zero_nodes, 0u);

    // One fused step, damped and sponged: (1 + h) u+ = 2 u - (1 - h) u- - dt^2 / m K w,
    // w = (1 + b) u - b u-, b = beta / dt, from the dense assembly (late: no source force).
    SemTimeStepperCpu<double> st(prob);
    st.set_state(up, u);
    const std::vector<double> u0 = st.displacement(), um = st.previous_displacement();
    const double b = prob.rayleigh.beta / prob.dt;
    ASSERT_GT(b, 0);
    std::vector<double> w(3 * nn);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = (1 + b) * u0[i] - b * um[i];
    const std::vector<double> kw = dense_assembly(prob, w);
    const UpdateCoefficients<double> c = update_coefficients<double>(prob);
    st.step(std::int64_t(1.0 / prob.dt));
    const std::vector<double> got = st.displacement();
    const double us = max_abs(u0);
    int sponged = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const std::size_t n = i % nn;
        const double next = (2 * u0[i] - c.one_minus_h[n] * um[i] - c.dt2_inv_mass[n] * kw[i]) * c.inv_one_plus_h[n];
        ASSERT_NEAR(got[i], next, 1e-12 * us) << i;
        sponged += c.one_minus_h[n] != c.one_minus_h[0];
    }
    EXPECT_GT(sponged, 0);
}

INSTANTIATE_TEST_SUITE_P(Orders, SemCpuSweep, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

}  // namespace
