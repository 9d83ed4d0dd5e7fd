// The eight-colour schedule of the fused CUDA SEM step (sem_colour_schedule.hpp), checked on the
// CPU so that a build without a GPU still proves the order: every node with a solid element has
// exactly one first and one last writer, and they are the lowest and highest colours among its
// solid elements (found here by walking every element's nodes, not by the schedule's neighbour
// walk); and the schedule run colour by colour with the shared element kernel (write / add /
// complete and update) gives the CPU stepper's product K u and its damped, sponged step. Also: the
// CPU sweep's results do not depend on the thread count.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "sem_test_state.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_colour_schedule.hpp"
#include "wave/sem_element_kernel.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wave_problem.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kDs = 0.004;

// Two materials, voids that leave nodes with one to seven solid neighbours, a fixed face, a
// sponge and Rayleigh damping.
WaveProblem schedule_problem(int order) {
    Scene s = block_scene(5, 4, 5, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{kDs, 0.0, kDs}, {3 * kDs, 2 * kDs, 2 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{2 * kDs, 2 * kDs, 2 * kDs}, {3 * kDs, 3 * kDs, 3 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{4 * kDs, 0.0, 3 * kDs}, {5 * kDs, kDs, 4 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{0.0, 3 * kDs, 0.0}, {kDs, 4 * kDs, kDs}}});
    s.boundary.fixed_faces = {"z-"};
    damped_sponged_sem(s, {"x+"}, 2 * kDs, order);
    validate_scene(s, "schedule");
    return build_wave_problem(s, "schedule");
}

class SemColourSchedule : public ::testing::TestWithParam<int> {};

TEST_P(SemColourSchedule, OneFirstAndOneLastWriterAtTheLowestAndHighestColour) {
    const int p = GetParam();
    const WaveProblem prob = schedule_problem(p);
    const VoxelGrid& g = prob.grid;
    const SemMesh mesh = sem_mesh(g, p);
    const std::size_t nn = mesh.node_count();
    // Independently: the colours of the solid elements at every node.
    std::vector<int> lowest(nn, 99), highest(nn, -1), firsts(nn, 0), lasts(nn, 0);
    auto solid = [&](int i, int j, int k) { return g.at(i, j, k) != kVoidId; };
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                if (!solid(i, j, k)) continue;
                const int col = (i % 2) + 2 * (j % 2) + 4 * (k % 2);
                for (int c = 0; c <= p; ++c)
                    for (int b = 0; b <= p; ++b)
                        for (int a = 0; a <= p; ++a) {
                            const std::size_t n = mesh.node_index(p * i + a, p * j + b, p * k + c);
                            lowest[n] = std::min(lowest[n], col);
                            highest[n] = std::max(highest[n], col);
                        }
            }
    int spans_colours_0_to_7 = 0;
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                if (!solid(i, j, k)) continue;
                const int col = sem_element_colour(i, j, k);
                for (int c = 0; c <= p; ++c)
                    for (int b = 0; b <= p; ++b)
                        for (int a = 0; a <= p; ++a) {
                            const std::size_t n = mesh.node_index(p * i + a, p * j + b, p * k + c);
                            const SemNodeRole r = sem_node_role(p, g.n.data(), i, j, k, a, b, c, solid);
                            if (r.first) {
                                ++firsts[n];
                                EXPECT_EQ(col, lowest[n]) << n;
                            }
                            if (r.last) {
                                ++lasts[n];
                                EXPECT_EQ(col, highest[n]) << n;
                            }
                            if (highest[n] - lowest[n] == 7) ++spans_colours_0_to_7;
                        }
            }
    std::size_t touched = 0;
    for (std::size_t n = 0; n < nn; ++n) {
        if (highest[n] < 0) {
            EXPECT_EQ(firsts[n] + lasts[n], 0) << n;
            continue;
        }
        ++touched;
        EXPECT_EQ(firsts[n], 1) << n;
        EXPECT_EQ(lasts[n], 1) << n;
    }
    EXPECT_LT(touched, nn);              // the voids leave void-only nodes
    EXPECT_GT(spans_colours_0_to_7, 0);  // nodes shared by colours 0 and 7 are exercised
}

// The schedule as the CUDA kernel runs it, on the CPU: elements colour by colour, each node's
// force written by its first element, added by later ones, completed by its last. Update: the
// last one writes u+ into u_next (f only carries partial sums); else f ends as K w.
template <int P>
void colour_schedule_pass(const WaveProblem& prob, const SemMesh& mesh, const std::vector<double>& u,
                          const std::vector<double>& up, double b, bool update, const UpdateCoefficients<double>& uc,
                          std::vector<double>& f, std::vector<double>& u_next) {
    constexpr int N = P + 1, N3 = N * N * N;
    const VoxelGrid& g = prob.grid;
    const std::size_t nn = mesh.node_count();
    auto solid = [&](int i, int j, int k) { return g.at(i, j, k) != kVoidId; };
    std::vector<double> ue(3 * N3), te(9 * N3), fe(3 * N3);
    for (int colour = 0; colour < 8; ++colour)
        for (int k = 0; k < g.n[2]; ++k)
            for (int j = 0; j < g.n[1]; ++j)
                for (int i = 0; i < g.n[0]; ++i) {
                    if (!solid(i, j, k) || sem_element_colour(i, j, k) != colour) continue;
                    const Material& m = prob.materials[g.at(i, j, k) - 1];
                    for (int comp = 0; comp < 3; ++comp)
                        for (int q = 0; q < N3; ++q) {
                            const std::size_t n =
                                mesh.node_index(P * i + q % N, P * j + (q / N) % N, P * k + q / (N * N));
                            ue[comp * N3 + q] = damped_operand(u[comp * nn + n], up[comp * nn + n], 1 + b, b);
                        }
                    sem_element_force<P, double>(mesh.gll.d, mesh.gll.w, m.lame_lambda(), m.shear_modulus(),
                                                 0.5 * g.spacing, ue.data(), te.data(), fe.data());
                    for (int q = 0; q < N3; ++q) {
                        const int a = q % N, bb = (q / N) % N, c = q / (N * N);
                        const std::size_t n = mesh.node_index(P * i + a, P * j + bb, P * k + c);
                        const SemNodeRole r = sem_node_role(P, g.n.data(), i, j, k, a, bb, c, solid);
                        for (int comp = 0; comp < 3; ++comp) {
                            const std::size_t x = comp * nn + n;
                            const double force = r.first ? fe[comp * N3 + q] : f[x] + fe[comp * N3 + q];
                            if (r.last && update)
                                u_next[x] = central_difference_node(u[x], up[x], uc.dt2_inv_mass[n] * force,
                                                                    uc.one_minus_h[n], uc.inv_one_plus_h[n]);
                            else
                                f[x] = force;
                        }
                    }
                }
}

void colour_schedule_pass(const WaveProblem& prob, const SemMesh& mesh, const std::vector<double>& u,
                          const std::vector<double>& up, double b, bool update, const UpdateCoefficients<double>& uc,
                          std::vector<double>& f, std::vector<double>& u_next) {
    switch (prob.order) {
        case 2:
            return colour_schedule_pass<2>(prob, mesh, u, up, b, update, uc, f, u_next);
        case 3:
            return colour_schedule_pass<3>(prob, mesh, u, up, b, update, uc, f, u_next);
        default:
            return colour_schedule_pass<4>(prob, mesh, u, up, b, update, uc, f, u_next);
    }
}

TEST_P(SemColourSchedule, ColouredProductAndFusedStepEqualTheCpuStepper) {
    const WaveProblem prob = schedule_problem(GetParam());
    const SemMesh mesh = sem_mesh(prob.grid, prob.order);
    const std::size_t nn = mesh.node_count();
    SemTimeStepperCpu<double> cpu(prob);
    std::vector<double> u, up;
    random_sem_state(nn, 21, u, up);
    cpu.set_state(up, u);
    // set_state zeroed the void-only nodes: start the emulation from the same state.
    u = cpu.displacement();
    up = cpu.previous_displacement();
    const UpdateCoefficients<double> uc = update_coefficients<double>(prob);

    std::vector<double> f(3 * nn, 0.0), u_next(3 * nn, 0.0);
    colour_schedule_pass(prob, mesh, u, up, 0.0, false, uc, f, u_next);
    const std::vector<double> ku = cpu.stiffness_times(u);
    double scale = 0;
    for (double x : ku) scale = std::max(scale, std::abs(x));
    ASSERT_GT(scale, 0);
    for (std::size_t i = 0; i < ku.size(); ++i) ASSERT_NEAR(f[i], ku[i], 1e-12 * scale) << i;

    // One damped step far from the source's wavelet (the sources add nothing at t = 1 s).
    ASSERT_GT(prob.rayleigh.beta, 0);
    const std::int64_t late = std::int64_t(1.0 / prob.dt);
    cpu.step(late);
    std::fill(f.begin(), f.end(), 7.0);  // the first writer never reads what f held
    colour_schedule_pass(prob, mesh, u, up, prob.rayleigh.beta / prob.dt, true, uc, f, u_next);
    const std::vector<double> want = cpu.displacement();
    double us = 0;
    for (double x : want) us = std::max(us, std::abs(x));
    ASSERT_GT(us, 0);
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(u_next[i], want[i], 1e-12 * us) << i;
}

TEST_P(SemColourSchedule, CpuSweepDoesNotDependOnTheThreadCount) {
    // The CPU sweep's chunks of element planes sum the node plane between two chunks in the
    // one-thread order: 1, 2 and 3 threads (chunk boundaries at every other plane of the five)
    // give the same bits, damped and sponged.
    const WaveProblem prob = schedule_problem(GetParam());
    const std::size_t nn = sem_mesh(prob.grid, prob.order).node_count();
    std::vector<double> u, up;
    random_sem_state(nn, 5, u, up);
    const int saved = omp_get_max_threads();
    std::vector<std::vector<double>> states;
    for (int threads : {1, 2, 3}) {
        omp_set_num_threads(threads);
        SemTimeStepperCpu<double> st(prob);
        st.set_state(up, u);
        for (int n = 0; n < 4; ++n) st.step(n);
        states.push_back(st.displacement());
    }
    omp_set_num_threads(saved);
    double moved = 0;
    for (std::size_t i = 0; i < states[0].size(); ++i) {
        ASSERT_EQ(states[1][i], states[0][i]) << i;
        ASSERT_EQ(states[2][i], states[0][i]) << i;
        moved = std::max(moved, std::abs(states[0][i] - u[i]));
    }
    EXPECT_GT(moved, 0);
}

INSTANTIATE_TEST_SUITE_P(Orders, SemColourSchedule, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

}  // namespace
