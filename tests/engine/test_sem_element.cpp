// Spectral voxel elements (run.method "sem", p = 2..4): the GLL tables against their closed
// forms, the sum-factorised element stiffness against an independently written full 3D GLL
// quadrature assembly, rigid-body modes, the patch test on a grid, the GLL-lumped mass, the CFL
// bound against the assembled model's largest eigenvalue, and exact discrete energy conservation.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

#include "core/errors.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "wave/dispersion.hpp"
#include "wave/sem_element_matrix.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"
#include "wave/wave_session.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kDs = 0.004;

// GLL nodes and weights in closed form (the roots of (1 - x^2) P_p'(x)), written out by hand.
void closed_form_gll(int p, std::vector<double>& x, std::vector<double>& w) {
    if (p == 2) {
        x = {-1, 0, 1};
        w = {1.0 / 3, 4.0 / 3, 1.0 / 3};
    } else if (p == 3) {
        const double a = 1 / std::sqrt(5.0);
        x = {-1, -a, a, 1};
        w = {1.0 / 6, 5.0 / 6, 5.0 / 6, 1.0 / 6};
    } else {
        const double a = std::sqrt(3.0 / 7.0);
        x = {-1, -a, 0, a, 1};
        w = {0.1, 49.0 / 90, 32.0 / 45, 49.0 / 90, 0.1};
    }
}

// Lagrange basis l_m on nodes x and its derivative at r, by the product rule (no barycentric
// weights, no derivative matrix).
double lagrange(const std::vector<double>& x, int m, double r) {
    double v = 1;
    for (std::size_t j = 0; j < x.size(); ++j)
        if (int(j) != m) v *= (r - x[j]) / (x[m] - x[j]);
    return v;
}
double lagrange_derivative(const std::vector<double>& x, int m, double r) {
    double s = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        if (int(k) == m) continue;
        double v = 1 / (x[m] - x[k]);
        for (std::size_t j = 0; j < x.size(); ++j)
            if (int(j) != m && j != k) v *= (r - x[j]) / (x[m] - x[j]);
        s += v;
    }
    return s;
}

// K = sum_q w_q det(J) B_q^T D B_q over the full (p + 1)^3 GLL rule, B the 6 x 3 (p + 1)^3 Voigt
// strain matrix (engineering shear) with physical derivatives, dofs in the kernel's order.
Eigen::MatrixXd quadrature_stiffness(int p, double ds, double lambda, double mu) {
    std::vector<double> x, w;
    closed_form_gll(p, x, w);
    const int n1 = p + 1, n3 = n1 * n1 * n1, nd = 3 * n3;
    Eigen::Matrix<double, 6, 6> D = Eigen::Matrix<double, 6, 6>::Zero();
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) D(i, j) = lambda;
        D(i, i) = lambda + 2 * mu;
        D(i + 3, i + 3) = mu;
    }
    const double jac = ds / 2;
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(nd, nd);
    for (int qc = 0; qc < n1; ++qc)
        for (int qb = 0; qb < n1; ++qb)
            for (int qa = 0; qa < n1; ++qa) {
                const double r[3] = {x[qa], x[qb], x[qc]};
                Eigen::MatrixXd B = Eigen::MatrixXd::Zero(6, nd);
                for (int c = 0; c < n1; ++c)
                    for (int b = 0; b < n1; ++b)
                        for (int a = 0; a < n1; ++a) {
                            const int node = a + n1 * (b + n1 * c);
                            const int ids[3] = {a, b, c};
                            double dN[3];
                            for (int d = 0; d < 3; ++d) {
                                double v = 1;
                                for (int e = 0; e < 3; ++e)
                                    v *= e == d ? lagrange_derivative(x, ids[e], r[e]) : lagrange(x, ids[e], r[e]);
                                dN[d] = v / jac;
                            }
                            B(0, 0 * n3 + node) = dN[0];
                            B(1, 1 * n3 + node) = dN[1];
                            B(2, 2 * n3 + node) = dN[2];
                            B(3, 0 * n3 + node) = dN[1];
                            B(3, 1 * n3 + node) = dN[0];
                            B(4, 1 * n3 + node) = dN[2];
                            B(4, 2 * n3 + node) = dN[1];
                            B(5, 0 * n3 + node) = dN[2];
                            B(5, 2 * n3 + node) = dN[0];
                        }
                K += B.transpose() * D * B * (w[qa] * w[qb] * w[qc] * jac * jac * jac);
            }
    return K;
}

class SemOrder : public ::testing::TestWithParam<int> {};

TEST_P(SemOrder, GllTablesMatchClosedForms) {
    const int p = GetParam();
    const GllTables t = gll_tables(p);
    std::vector<double> x, w;
    closed_form_gll(p, x, w);
    for (int i = 0; i <= p; ++i) {
        EXPECT_NEAR(t.xi[i], x[i], 1e-15) << i;
        EXPECT_NEAR(t.w[i], w[i], 1e-15) << i;
        for (int m = 0; m <= p; ++m) EXPECT_NEAR(t.d[i * (p + 1) + m], lagrange_derivative(x, m, x[i]), 1e-13);
    }
}

TEST_P(SemOrder, SumFactorisedStiffnessEqualsFullQuadratureAssembly) {
    const int p = GetParam();
    const Material m = concrete();
    const Eigen::MatrixXd k = sem_element_stiffness(p, kDs, m.lame_lambda(), m.shear_modulus());
    const Eigen::MatrixXd ref = quadrature_stiffness(p, kDs, m.lame_lambda(), m.shear_modulus());
    const double scale = ref.cwiseAbs().maxCoeff();
    ASSERT_GT(scale, 0);
    EXPECT_LT((k - ref).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_LT((k - k.transpose()).cwiseAbs().maxCoeff(), 1e-13 * scale);
}

TEST_P(SemOrder, ExactlySixRigidBodyModesWithZeroForce) {
    const int p = GetParam();
    const Material m = concrete();
    const Eigen::MatrixXd k = sem_element_stiffness(p, kDs, m.lame_lambda(), m.shear_modulus());
    const int n1 = p + 1, n3 = n1 * n1 * n1;
    const GllTables t = gll_tables(p);
    const double scale = k.cwiseAbs().maxCoeff();
    // Three translations and three rotations u = e_a x (x - x0): no force at any dof.
    for (int mode = 0; mode < 6; ++mode) {
        Eigen::VectorXd u(3 * n3);
        for (int c = 0; c < n1; ++c)
            for (int b = 0; b < n1; ++b)
                for (int a = 0; a < n1; ++a) {
                    const double X[3] = {0.5 * kDs * t.xi[a], 0.5 * kDs * t.xi[b], 0.5 * kDs * t.xi[c] + 0.01};
                    const int node = a + n1 * (b + n1 * c);
                    for (int i = 0; i < 3; ++i) u(i * n3 + node) = mode < 3 ? (i == mode) : 0.0;
                    if (mode >= 3) {
                        const int ax = mode - 3, i1 = (ax + 1) % 3, i2 = (ax + 2) % 3;
                        u(i1 * n3 + node) = -X[i2];
                        u(i2 * n3 + node) = X[i1];
                    }
                }
        const Eigen::VectorXd f = k * u;
        EXPECT_LT(f.cwiseAbs().maxCoeff(), 1e-13 * scale * u.cwiseAbs().maxCoeff()) << "mode " << mode;
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (k + k.transpose()), Eigen::EigenvaluesOnly);
    const auto ev = eig.eigenvalues();
    const double top = ev(ev.size() - 1);
    int zeros = 0;
    for (int i = 0; i < ev.size(); ++i) {
        if (std::abs(ev(i)) < 1e-11 * top) ++zeros;
        EXPECT_GT(ev(i), -1e-11 * top);
    }
    EXPECT_EQ(zeros, 6);
    EXPECT_GT(ev(6), 1e-6 * top);
}

TEST_P(SemOrder, GllMassSumsToTheElementMassAndNodesHaveTheirWeights) {
    const int p = GetParam();
    Scene s = block_scene(3, 2, 2, kDs);
    s.shapes.push_back({"void", BoxShape{{0.0, 0.0, 0.0}, {kDs, kDs, kDs}}});
    s.run.method = Method::Sem;
    s.run.order = p;
    const WaveProblem prob = build_wave_problem(s, "mass");
    const SemMesh mesh = sem_mesh(prob.grid, p);
    ASSERT_EQ(prob.node_mass.size(), std::size_t(p * 3 + 1) * (p * 2 + 1) * (p * 2 + 1));
    double total = 0;
    for (double v : prob.node_mass) total += v;
    const double rho = concrete().density;
    EXPECT_NEAR(total, rho * 11 * kDs * kDs * kDs, 1e-12 * total);
    // The interior GLL node of an element: rho (ds/2)^3 w_a w_b w_c of that element alone.
    std::vector<double> x, w;
    closed_form_gll(p, x, w);
    const std::size_t inner = mesh.node_index(p + 1, 1, 1);  // element (1, 0, 0)
    EXPECT_NEAR(prob.node_mass[inner], rho * std::pow(kDs / 2, 3) * w[1] * w[1] * w[1], 1e-15);
    // Nodes touched only by the void element have no mass.
    EXPECT_EQ(prob.node_mass[mesh.node_index(1, 1, 1)], 0.0);
}

TEST_P(SemOrder, PatchTestLinearFieldGivesZeroInteriorForce) {
    const int p = GetParam();
    Scene s = block_scene(3, 3, 2, kDs);
    s.run.method = Method::Sem;
    s.run.order = p;
    const WaveProblem prob = build_wave_problem(s, "patch");
    SemTimeStepperCpu<double> st(prob);
    const SemMesh& mesh = st.mesh();
    const double A[3][3] = {{1e-4, 3e-5, -2e-5}, {-1e-5, 2e-4, 4e-5}, {5e-5, -3e-5, -1e-4}};
    const std::size_t nn = mesh.node_count();
    std::vector<double> u(3 * nn);
    for (int k = 0; k < mesh.n[2]; ++k)
        for (int j = 0; j < mesh.n[1]; ++j)
            for (int i = 0; i < mesh.n[0]; ++i) {
                const auto X = mesh.node_position(i, j, k);
                for (int c = 0; c < 3; ++c)
                    u[c * nn + mesh.node_index(i, j, k)] = A[c][0] * X[0] + A[c][1] * X[1] + A[c][2] * X[2] + 1e-6;
            }
    const auto f = st.stiffness_times(u);
    double fmax = 0;
    for (double v : f) fmax = std::max(fmax, std::abs(v));
    ASSERT_GT(fmax, 0);
    int interior = 0;
    for (int k = 1; k + 1 < mesh.n[2]; ++k)
        for (int j = 1; j + 1 < mesh.n[1]; ++j)
            for (int i = 1; i + 1 < mesh.n[0]; ++i, ++interior)
                for (int c = 0; c < 3; ++c) EXPECT_LT(std::abs(f[c * nn + mesh.node_index(i, j, k)]), 1e-12 * fmax);
    EXPECT_GT(interior, 0);
    // The x+ face's forces are the traction of the uniform stress times the face's area.
    const Material m = concrete();
    const double lam = m.lame_lambda(), mu = m.shear_modulus(), tr = A[0][0] + A[1][1] + A[2][2];
    const double area = (3 * kDs) * (2 * kDs);
    for (int c = 0; c < 3; ++c) {
        double sum = 0;
        for (int k = 0; k < mesh.n[2]; ++k)
            for (int j = 0; j < mesh.n[1]; ++j) sum += f[c * nn + mesh.node_index(mesh.n[0] - 1, j, k)];
        // The face's edge nodes also carry the y and z faces' tractions, but those of opposite
        // faces cancel (equal shape-function integrals, opposite normals).
        const double sigma_cx = (c == 0 ? lam * tr : 0.0) + mu * (A[c][0] + A[0][c]);
        EXPECT_NEAR(sum, sigma_cx * area, 1e-9 * std::abs(lam * tr * area)) << c;
    }
}

TEST_P(SemOrder, ElementCflBoundHoldsAndIsTightForTheAssembledModel) {
    // Irons: omega_max^2 of the assembled model <= max over elements of eig(M_e^-1 K_e). Power
    // iteration on M^-1 K of a free 3 x 3 x 3 block must stay below the bound and reach most of it.
    const int p = GetParam();
    Scene s = block_scene(3, 3, 3, kDs);
    s.run.method = Method::Sem;
    s.run.order = p;
    const WaveProblem prob = build_wave_problem(s, "cfl");
    SemTimeStepperCpu<double> st(prob);
    const double bound = sem_element_max_omega2(p, kDs, concrete());
    const std::size_t nn = st.node_count();
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> U(-1, 1);
    std::vector<double> v(3 * nn);
    for (double& x : v) x = U(rng);
    double lambda = 0;
    for (int it = 0; it < 150; ++it) {
        auto f = st.stiffness_times(v);
        double num = 0, den = 0;
        for (std::size_t i = 0; i < f.size(); ++i) {
            const double m = prob.node_mass[i % nn];
            num += v[i] * f[i];
            den += m * v[i] * v[i];
            f[i] /= m;
        }
        lambda = num / den;  // Rayleigh quotient: never above the largest eigenvalue
        double norm = 0;
        for (double x : f) norm = std::max(norm, std::abs(x));
        for (std::size_t i = 0; i < f.size(); ++i) v[i] = f[i] / norm;
    }
    EXPECT_LE(lambda, bound * (1 + 1e-12));
    EXPECT_GT(lambda, 0.6 * bound);
    // The problem's stable dt is that bound's.
    EXPECT_NEAR(prob.dt_stable, 2.0 / std::sqrt(bound), 1e-12 * prob.dt_stable);
}

TEST_P(SemOrder, DiscreteEnergyConservedWithoutDamping) {
    // Undamped central differences conserve E^{n+1/2} = 1/2 v^T M v + 1/2 u_{n+1}^T K u_n exactly
    // in exact arithmetic: heterogeneous model, a void, free faces and a fixed face.
    const int p = GetParam();
    Scene s = block_scene(4, 3, 3, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{kDs, 0.0, 0.0}, {2 * kDs, 3 * kDs, kDs}}});
    s.shapes.push_back({"void", BoxShape{{3 * kDs, 2 * kDs, 2 * kDs}, {4 * kDs, 3 * kDs, 3 * kDs}}});
    s.boundary.fixed_faces = {"z-"};
    s.run.method = Method::Sem;
    s.run.order = p;
    const WaveProblem prob = build_wave_problem(s, "energy");
    SemTimeStepperCpu<double> st(prob);
    const std::size_t nn = st.node_count();
    std::vector<double> u0(3 * nn);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> U(-1e-6, 1e-6);
    for (double& x : u0) x = U(rng);
    st.set_state(u0, u0);
    auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
        double r = 0;
        for (std::size_t i = 0; i < a.size(); ++i) r += a[i] * b[i];
        return r;
    };
    auto energy = [&](const std::vector<double>& un, const std::vector<double>& un1) {
        double kin = 0;
        for (std::size_t i = 0; i < 3 * nn; ++i) {
            const double v = (un1[i] - un[i]) / prob.dt;
            kin += 0.5 * prob.node_mass[i % nn] * v * v;
        }
        return kin + 0.5 * dot(un1, st.stiffness_times(un));
    };
    std::vector<double> prev = st.displacement();
    st.step(0);
    std::vector<double> cur = st.displacement();
    const double e0 = energy(prev, cur);
    ASSERT_GT(e0, 0);
    double worst = 0;
    for (int n = 1; n < 600; ++n) {
        prev.swap(cur);
        st.step(n);
        cur = st.displacement();
        if (n % 50 == 0) worst = std::max(worst, std::abs(energy(prev, cur) - e0) / e0);
    }
    EXPECT_LT(worst, 1e-10);
    // Fixed-face nodes never moved, void-only nodes neither.
    const SemMesh& mesh = st.mesh();
    for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(cur[c * nn + mesh.node_index(2, 2, 0)], 0.0);
        EXPECT_EQ(cur[c * nn + mesh.node_index(mesh.n[0] - 2, mesh.n[1] - 2, mesh.n[2] - 2)], 0.0);
    }
    EXPECT_GT(std::abs(dot(cur, cur) - dot(u0, u0)), 1e-3 * dot(u0, u0));
}

TEST_P(SemOrder, BlochPhaseErrorFallsAtOrderTwoP) {
    // Semi-discrete (dt = 0) Bloch analysis of the element's periodic cell: the GLL-lumped spectral
    // element's relative phase-velocity error is O((k h)^(2p)) (Ainsworth and Wajid 2009), so
    // doubling the points per wavelength divides it by about 2^(2p); an error in the element or
    // in the cell's assembly (a wrong phase, a wrong mass) breaks the rate. The exact speeds are
    // the limit at fine resolution.
    const int p = GetParam();
    const Material m = concrete();
    for (const std::array<double, 3> dir : {std::array<double, 3>{1, 0, 0}, std::array<double, 3>{1, 1, 1}}) {
        const auto coarse = sem_bloch_velocity_ratios(p, kDs, m, 0, 6, dir);
        const auto fine = sem_bloch_velocity_ratios(p, kDs, m, 0, 12, dir);
        for (int mode = 0; mode < 3; ++mode) {
            const double e1 = std::abs(coarse[mode] - 1), e2 = std::abs(fine[mode] - 1);
            ASSERT_GT(e2, 0);
            EXPECT_LT(e1, 0.02) << mode;
            EXPECT_GT(std::log2(e1 / e2), 2 * p - 0.5) << "mode " << mode << " dir " << dir[1];
        }
    }
    // At 5 nodes per S wavelength along the cube diagonal SEM beats OVFEM by far (equal nodes).
    const auto sem = sem_bloch_velocity_ratios(p, kDs, m, 0, 5, {1, 1, 1});
    const auto ovfem = bloch_velocity_ratios(ElementMethod::Ovfem, kDs, m, 0, 5, {1, 1, 1});
    EXPECT_LT(std::abs(sem[0] - 1), 0.5 * std::abs(ovfem[0] - 1));
}

INSTANTIATE_TEST_SUITE_P(Orders, SemOrder, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

TEST(SemRunRules, OrderOutsideTwoToFourIsRefusedAndAPmlAcceptedOnEveryBackend) {
    Scene s = block_scene(2, 2, 2, kDs);
    s.run.method = Method::Sem;
    s.run.order = 5;
    try {
        validate_scene(s, "scene.json");
        ADD_FAILURE() << "order 5 accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "run.order");
    }
    EXPECT_THROW(build_wave_problem(s, "x"), std::logic_error);  // an engine caller that skipped validation
    s.run.order = 3;
    s.boundary.absorbing.faces = {"x-"};
    s.boundary.absorbing.thickness = kDs;
    s.boundary.absorbing.type = "pml";
    // Both engines have sem's PML (sem_pml_correction_cpu.hpp, sem_pml_correction_cuda.cuh).
    for (Backend b : {Backend::Cpu, Backend::Cuda, Backend::Auto}) {
        s.run.backend = b;
        EXPECT_NO_THROW(validate_scene(s, "scene.json")) << to_string(b);
    }
    s.boundary.absorbing.type = "sponge";
    EXPECT_NO_THROW(validate_scene(s, "scene.json"));
}

}  // namespace

namespace {

TEST(SemSession, LiveSessionEqualsBatchRunAndSlicesReadTheCorners) {
    Scene s = block_scene(4, 3, 3, kDs);
    s.run.method = Method::Sem;
    s.run.order = 3;
    s.run.steps = 40;
    s.sources.push_back({"S", {0.006, 0.006, 0.006}, {0.2, 0.3, 1.0}, 1.0, ricker(300e3, 4e-6)});
    s.receivers.push_back({"R", {0.012, 0.004, 0.008}});
    const WaveProblem p = build_wave_problem(s, "session");
    const Result batch = run_wave(p, {});
    WaveSession session(p);
    session.advance(13);
    session.advance(27);
    const Result live = session.result();
    ASSERT_EQ(live.displacement.size(), batch.displacement.size());
    for (std::size_t i = 0; i < batch.displacement.size(); ++i) EXPECT_EQ(live.displacement[i], batch.displacement[i]);
    // The slice shows the voxel corners: node (p i, p j, p k) of the GLL grid.
    const SliceImage img = session.slice(SlicePlane::XY, 2, SliceQuantity::Uz);
    ASSERT_EQ(img.width, 5);
    ASSERT_EQ(img.height, 4);
    SemTimeStepperCpu<double> st(p);
    for (int n = 0; n < 40; ++n) st.step(n);
    const auto u = st.displacement();
    const SemMesh& mesh = st.mesh();
    double peak = 0;
    for (int b = 0; b < 4; ++b)
        for (int a = 0; a < 5; ++a) {
            const double v = u[2 * mesh.node_count() + mesh.node_index(3 * a, 3 * b, 3 * 2)];
            EXPECT_FLOAT_EQ(img.values[std::size_t(b) * 5 + a], float(v));
            peak = std::max(peak, std::abs(v));
        }
    EXPECT_GT(peak, 0);
}

}  // namespace

namespace {

TEST(SemBoundary, SpongeAtGllNodesFollowsItsProfileAndFixedPointsSnapToGllNodes) {
    // The sponge's alpha_max (1 - d / L)^2 at each GLL node's own depth d (sponge_layer.hpp),
    // written out here; a fixed point holds its nearest GLL node.
    Scene s = block_scene(6, 3, 3, kDs);
    s.boundary.absorbing.type = "sponge";
    s.boundary.absorbing.faces = {"x-"};
    s.boundary.absorbing.thickness = 2 * kDs;
    s.boundary.fixed_points = {{0.0093, 0.0041, 0.0}};
    s.run.method = Method::Sem;
    s.run.order = 4;
    const WaveProblem p = build_wave_problem(s, "sponge");
    const SemMesh mesh = sem_mesh(p.grid, 4);
    const double L = 2 * kDs, peak = 3.0 * concrete().vp * std::log(1e3) / (2.0 * L);
    const double xi1 = -std::sqrt(3.0 / 7.0);
    for (int i = 0; i < mesh.n[0]; ++i) {
        const double d = (i / 4) * kDs + 0.5 * kDs * (gll_tables(4).xi[i % 4] + 1);
        const double expect = d < L ? peak * (1 - d / L) * (1 - d / L) : 0.0;
        EXPECT_NEAR(p.boundary.damping_at(mesh.node_index(i, 2, 3)), expect, 1e-9 * peak) << i;
    }
    EXPECT_NEAR(mesh.offset(1), 0.5 * kDs * (xi1 + 1), 1e-18);
    // (9.3, 4.1, 0) mm: element 2 along x (r = -0.35 -> -sqrt(3/7) = -0.655, node 1 of 0..4),
    // element 1 along y (r = -0.95 -> -1), z = 0.
    ASSERT_EQ(p.boundary.fixed_nodes.size(), 1u);
    EXPECT_EQ(p.boundary.fixed_nodes[0], mesh.node_index(4 * 2 + 1, 4 * 1 + 0, 0));
}

TEST(SemPrecision, Fp32TracesFollowFp64) {
    Scene s = block_scene(5, 4, 4, kDs);
    s.run.method = Method::Sem;
    s.run.order = 3;
    s.run.steps = 150;
    s.sources.push_back({"S", {0.008, 0.008, 0.008}, {0.2, 0.3, 1.0}, 1.0, ricker(150e3, 8e-6)});
    s.receivers.push_back({"R", {0.016, 0.012, 0.004}});
    const WaveProblem p64 = build_wave_problem(s, "fp64");
    s.run.precision = Precision::Fp32;
    const WaveProblem p32 = build_wave_problem(s, "fp32");
    const Result a = run_wave(p64, {}), b = run_wave(p32, {});
    double peak = 0, diff = 0;
    for (std::size_t i = 0; i < a.displacement.size(); ++i) {
        peak = std::max(peak, std::abs(a.displacement[i]));
        diff = std::max(diff, std::abs(a.displacement[i] - b.displacement[i]));
    }
    ASSERT_GT(peak, 0);
    EXPECT_LT(diff, 1e-4 * peak);
    EXPECT_GT(diff, 0.0);  // it did run in single precision
}

}  // namespace
