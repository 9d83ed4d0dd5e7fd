// The plane-strain (2D) engine: the square element against an independently written bilinear
// 2x2 Gauss element and against the plane-strain reduction of the 3D voxel element; the CPU time
// loop against an independent assembled implementation (its own element matrix, lumped mass,
// central differences); Bloch dispersion of 2D VFEM and OVFEM; 2D scenes (read, write, checks,
// rasterisation) and 2-component result files.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "scene/rasterise.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"
#include "wave/dispersion.hpp"
#include "wave/plane_strain_element_matrix.hpp"
#include "wave/plane_strain_stepper_cpu.hpp"
#include "wave/voxel_element_matrix.hpp"
#include "wave/wave_run.hpp"
#include "wave/wave_session.hpp"
#include "wave/wavelet.hpp"

using namespace voxwave;

namespace {

const Material kConcrete{"concrete", 2400, 4000, 2450, "#9a9a9a", ""};
const Material kSteel{"steel", 7850, 5900, 3200, "#4a6fa5", ""};

// Local node coordinates of the square, in the engine's order (-1,-1), (1,-1), (1,1), (-1,1).
const int kR2[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

// Textbook bilinear quadrilateral in plane strain, per unit thickness: B (3 x 8, Voigt with
// engineering shear) at the 2x2 Gauss points, D the plane-strain block of the isotropic
// stiffness, K = sum B^t D B det(J). Written without reference to the moment kernel.
PlaneElementMatrix bilinear_gauss_stiffness(double ds, double lambda, double mu) {
    Eigen::Matrix3d D;
    D << lambda + 2 * mu, lambda, 0, lambda, lambda + 2 * mu, 0, 0, 0, mu;
    const double g = 1.0 / std::sqrt(3.0), jac = ds / 2.0;
    PlaneElementMatrix K = PlaneElementMatrix::Zero();
    for (int q = 0; q < 4; ++q) {
        const double r[2] = {kR2[q][0] * g, kR2[q][1] * g};
        Eigen::Matrix<double, 3, 8> B = Eigen::Matrix<double, 3, 8>::Zero();
        for (int a = 0; a < 4; ++a) {
            const double dNx = kR2[a][0] * (1.0 + kR2[a][1] * r[1]) / 4.0 / jac;
            const double dNy = kR2[a][1] * (1.0 + kR2[a][0] * r[0]) / 4.0 / jac;
            B(0, 2 * a) = dNx;
            B(1, 2 * a + 1) = dNy;
            B(2, 2 * a) = dNy;
            B(2, 2 * a + 1) = dNx;
        }
        K += B.transpose() * D * B * (jac * jac);
    }
    return K;
}

double max_abs(const PlaneElementMatrix& m) { return m.cwiseAbs().maxCoeff(); }

TEST(PlaneStrainElement, VfemEqualsIndependentBilinearGaussQuadrature) {
    for (const Material& m : {kConcrete, kSteel})
        for (double ds : {0.002, 0.5}) {
            const PlaneElementMatrix k = plane_strain_element_stiffness(ElementMethod::Vfem, m);
            const PlaneElementMatrix ref = bilinear_gauss_stiffness(ds, m.lame_lambda(), m.shear_modulus());
            EXPECT_LT(max_abs(k - ref), 1e-13 * max_abs(ref)) << m.name << " ds " << ds;
        }
}

// A z-independent in-plane field on the cube (both node layers equal, u_z = 0) is plane strain:
// K2 = (1 / ds) P^t K3 P, P copying each square node to its two cube nodes (n and n + 4).
PlaneElementMatrix plane_strain_reduction(const ElementMatrix& k3, double ds) {
    PlaneElementMatrix k2 = PlaneElementMatrix::Zero();
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    for (int c = 0; c < 2; ++c)
                        for (int e = 0; e < 2; ++e)
                            k2(2 * a + i, 2 * b + j) += k3(3 * (a + 4 * c) + i, 3 * (b + 4 * e) + j);
    return k2 / ds;
}

class PlaneStrainElementTest : public ::testing::TestWithParam<ElementMethod> {};

TEST_P(PlaneStrainElementTest, EqualsThePlaneStrainReductionOfTheVoxelElement) {
    const double ds = 0.003;
    const ElementMatrix k3 = voxel_element_stiffness(GetParam(), ds, kSteel);
    const PlaneElementMatrix k2 = plane_strain_element_stiffness(GetParam(), kSteel);
    const PlaneElementMatrix reduced = plane_strain_reduction(k3, ds);
    EXPECT_LT(max_abs(k2 - reduced), 1e-13 * max_abs(reduced));
}

TEST_P(PlaneStrainElementTest, SymmetricWithExactlyThreeRigidModes) {
    const PlaneElementMatrix k = plane_strain_element_stiffness(GetParam(), kConcrete);
    EXPECT_LT(max_abs(k - k.transpose()), 1e-15 * max_abs(k));
    Eigen::SelfAdjointEigenSolver<PlaneElementMatrix> eig(k);
    const auto& ev = eig.eigenvalues();
    for (int i = 0; i < 3; ++i) EXPECT_LT(std::fabs(ev(i)), 1e-12 * ev(7)) << i;
    EXPECT_GT(ev(3), 1e-3 * ev(7));
    // Translations and the infinitesimal rotation carry no force.
    Eigen::Matrix<double, 8, 1> tx, ty, rot;
    for (int a = 0; a < 4; ++a) {
        tx.segment<2>(2 * a) << 1, 0;
        ty.segment<2>(2 * a) << 0, 1;
        rot.segment<2>(2 * a) << -kR2[a][1], kR2[a][0];
    }
    for (const auto* v : {&tx, &ty, &rot}) EXPECT_LT((k * *v).norm(), 1e-12 * max_abs(k));
}

TEST_P(PlaneStrainElementTest, PatchTestUniformStrainGivesTractionOnly) {
    // u = E x: the element force equals the boundary traction of the uniform stress sigma = C E,
    // the same for both methods (the constant mode is exact in both).
    const double lambda = kConcrete.lame_lambda(), mu = kConcrete.shear_modulus(), ds = 0.01;
    const double exx = 1e-4, eyy = -3e-5, exy = 2e-5;  // exy: the symmetric part, both shear entries
    Eigen::Matrix<double, 8, 1> u;
    for (int a = 0; a < 4; ++a) {
        const double x = kR2[a][0] * ds / 2, y = kR2[a][1] * ds / 2;
        u.segment<2>(2 * a) << exx * x + exy * y, exy * x + eyy * y;
    }
    const double sxx = lambda * (exx + eyy) + 2 * mu * exx, syy = lambda * (exx + eyy) + 2 * mu * eyy,
                 sxy = 2 * mu * exy;
    const Eigen::Matrix<double, 8, 1> f = plane_strain_element_stiffness(GetParam(), kConcrete) * u;
    for (int a = 0; a < 4; ++a) {
        // Nodal share of the traction on the two edges meeting at the corner, per unit thickness.
        const double fx = (kR2[a][0] * sxx + kR2[a][1] * sxy) * ds / 2;
        const double fy = (kR2[a][0] * sxy + kR2[a][1] * syy) * ds / 2;
        EXPECT_NEAR(f(2 * a), fx, 1e-12 * std::fabs(sxx) * ds);
        EXPECT_NEAR(f(2 * a + 1), fy, 1e-12 * std::fabs(sxx) * ds);
    }
}

INSTANTIATE_TEST_SUITE_P(BothMethods, PlaneStrainElementTest,
                         ::testing::Values(ElementMethod::Vfem, ElementMethod::Ovfem), [](const auto& param_info) {
                             return param_info.param == ElementMethod::Vfem ? "vfem" : "ovfem";
                         });

// ---- Dispersion -----------------------------------------------------------------------------

TEST(PlaneStrainDispersion, OvfemBeatsVfemAlongTheDiagonalAtTenPointsPerSWavelength) {
    const double ds = 0.002;
    const std::array<double, 3> diagonal{1, 1, 0};
    const auto v = plane_strain_bloch_velocity_ratios(ElementMethod::Vfem, ds, kConcrete, 0, 10, diagonal);
    const auto o = plane_strain_bloch_velocity_ratios(ElementMethod::Ovfem, ds, kConcrete, 0, 10, diagonal);
    const double err_v = std::fabs(v[0] - 1), err_o = std::fabs(o[0] - 1);
    EXPECT_LT(err_o, err_v);
    EXPECT_LT(err_o, 0.5 * err_v);  // not a tie: the blending removes most of the diagonal lag
    EXPECT_GT(err_v, 1e-3);
}

TEST(PlaneStrainDispersion, AlongAnAxisBothMethodsAreTheOneDimensionalLumpedScheme) {
    // A wave along x has no S_xy moment, so the linear modes drop out and both methods are the
    // 1D lumped linear element: omega = (2 c / ds) sin(k ds / 2), ratio sin(pi / ppw) / (pi / ppw).
    for (double ppw : {4.0, 10.0, 25.0})
        for (ElementMethod m : {ElementMethod::Vfem, ElementMethod::Ovfem}) {
            const auto r = plane_strain_bloch_velocity_ratios(m, 0.002, kSteel, 0, ppw, {1, 0, 0});
            const double x = std::numbers::pi / ppw, exact = std::sin(x) / x;
            EXPECT_NEAR(r[0], exact, 1e-12) << ppw;
            EXPECT_NEAR(r[1], exact, 1e-12) << ppw;
        }
}

TEST(PlaneStrainDispersion, TableHasTwoModesAndTheSquaresDirections) {
    const auto dirs = default_dispersion_directions(2);
    ASSERT_EQ(dirs.size(), 2u);
    const auto t = dispersion_table(ElementMethod::Ovfem, 0.002, kConcrete, 0, {5, 10, 20}, dirs, 2);
    EXPECT_EQ(t.modes, 2);
    ASSERT_EQ(t.velocity_ratio.size(), 2u * 3u * 2u);
    const auto r = plane_strain_bloch_velocity_ratios(ElementMethod::Ovfem, 0.002, kConcrete, 0, 10, {1, 1, 0});
    EXPECT_DOUBLE_EQ(t.ratio(1, 1, 0), r[0]);
    EXPECT_DOUBLE_EQ(t.ratio(1, 1, 1), r[1]);
    EXPECT_THROW(dispersion_table(ElementMethod::Vfem, 0.002, kConcrete, 0, {10}, {{1, 1, 1}}, 2), InputError);
}

// ---- Scenes ---------------------------------------------------------------------------------

// A 2D scene: 8 x 6 elements of 1 mm, a steel disk, a void box, a source and a receiver.
std::string scene_2d_json(const std::string& extra_source = "") {
    return R"({"format": "voxwave-scene", "version": 1,
  "grid": {"size": [0.008, 0.006], "spacing": 0.001, "origin": [0, 0]},
  "materials": [{"name": "concrete", "density": 2400, "vp": 4000, "vs": 2450},
                {"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}],
  "background": "concrete",
  "shapes": [{"type": "sphere", "material": "steel", "center": [0.004, 0.003], "radius": 0.0015},
             {"type": "box", "material": "void", "min": [0.007, 0.005], "max": [0.008, 0.006]}],
  "sources": [{"name": "S", "position": [0.002, 0.002], "direction": [0, 1], "amplitude": 1e3,
               "wavelet": {"type": "ricker", "frequency": 200000, "delay": 5e-6}})" +
           extra_source + R"(],
  "receivers": [{"name": "R", "position": [0.006, 0.004]}],
  "boundary": {"fixed_points": [[0, 0]], "absorbing": {"faces": ["x-"], "thickness": 0.002, "type": "sponge"}},
  "damping": {"type": "rayleigh", "ratio": 0.01, "f_low": 100000, "f_high": 300000},
  "run": {"method": "ovfem", "steps": 40, "backend": "cpu"}})";
}

TEST(PlaneStrainScene, TwoEntryGridMakesATwoDimensionalSceneThatRoundTrips) {
    const Scene s = parse_scene_json(scene_2d_json(), "s.json", "");
    EXPECT_EQ(s.grid.dimensions, 2);
    EXPECT_EQ(s.grid.size[2], 0.0);
    EXPECT_EQ(s.sources[0].position[2], 0.0);
    EXPECT_EQ(s.sources[0].direction[1], 1.0);
    const std::string text = scene_to_json_text(s);
    const auto j = nlohmann::json::parse(text);
    EXPECT_EQ(j["grid"]["size"].size(), 2u);
    EXPECT_EQ(j["sources"][0]["position"].size(), 2u);
    EXPECT_EQ(j["shapes"][1]["max"].size(), 2u);
    EXPECT_EQ(parse_scene_json(text, "again.json", ""), s);
}

TEST(PlaneStrainScene, MixingTwoAndThreeEntryVectorsNamesTheField) {
    const std::string bad = R"(, {"name": "S3", "position": [0.002, 0.002, 0], "wavelet": {"type": "ricker",
        "frequency": 1e5, "delay": 1e-5}})";
    test::expect_error(test::catch_input_error([&] { parse_scene_json(scene_2d_json(bad), "s.json", ""); }), "s.json",
                       "sources[1].position", "2D or 3D throughout");
}

TEST(PlaneStrainScene, WhatTheTwoDimensionalEnginesLackIsRefusedWithTheField) {
    const std::string text = scene_2d_json();
    auto refused = [&](const std::string& from, const std::string& to, const std::string& field,
                       const std::string& words) {
        std::string t = text;
        const auto at = t.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        t.replace(at, from.size(), to);
        test::expect_error(test::catch_input_error([&] { parse_scene_json(t, "s.json", ""); }), "s.json", field, words);
    };
    refused(R"("type": "sponge")", R"("type": "pml")", "boundary.absorbing.type", "3D only");
    refused(R"("faces": ["x-"])", R"("faces": ["z-"])", "boundary.absorbing.faces[0]", "no face z-");
    refused(R"("method": "ovfem")", R"("method": "tcovfem")", "run.method", "no 2D engine");
    refused(R"({"type": "sphere", "material": "steel", "center": [0.004, 0.003], "radius": 0.0015})",
            R"({"type": "cylinder", "material": "steel", "center": [0.004, 0.003], "axis": [0, 1],
                "radius": 0.001, "length": 0.002})",
            "shapes[0].type", "no cylinders");
    refused(R"("size": [0.008, 0.006])", R"("size": [0.008])", "grid.size", "3 numbers (or 2");
}

TEST(PlaneStrainScene, DiskPaintsItsAreaInTheOneElementLayer) {
    Scene s = parse_scene_json(scene_2d_json(), "s.json", "");
    s.grid.size = {0.1, 0.1, 0};
    s.shapes.resize(1);
    std::get<SphereShape>(s.shapes[0].geometry) = {{0.05, 0.05, 0}, 0.02};
    const VoxelGrid g = rasterise(s, 0.001);
    ASSERT_EQ(g.n[2], 1);
    const double steel = double(std::count(g.ids.begin(), g.ids.end(), MaterialId(2)));
    EXPECT_NEAR(steel * 1e-6, std::numbers::pi * 0.02 * 0.02, 0.02 * std::numbers::pi * 0.02 * 0.02);
}

TEST(PlaneStrainScene, AggregateOfDisksFillsItsAreaFraction) {
    Scene s = parse_scene_json(scene_2d_json(), "s.json", "");
    s.grid.size = {0.1, 0.1, 0};
    s.shapes = {Shape{"steel", AggregateShape{{0, 0, 0}, {0.1, 0.1, 0}, 0.3, 0.003, 0.006, 7}}};
    validate_scene(s, "s.json");
    const auto disks = generate_aggregate(std::get<AggregateShape>(s.shapes[0].geometry));
    double area = 0;
    for (const auto& d : disks) {
        EXPECT_EQ(d.center[2], 0.0);
        area += std::numbers::pi * d.radius * d.radius;
    }
    EXPECT_GT(area, 0.29 * 0.01);
    const VoxelGrid g = rasterise(s, 0.0005);
    const double painted = double(std::count(g.ids.begin(), g.ids.end(), MaterialId(2))) * 0.0005 * 0.0005;
    EXPECT_NEAR(painted, area, 0.05 * area);
}

// ---- The time loop --------------------------------------------------------------------------

// The independent implementation: the global K assembled from bilinear_gauss_stiffness (or, for
// OVFEM, from the 3D voxel element's plane-strain reduction), the lumped mass rho ds^2 / 4 per
// element node, and the central differences of docs/architecture.md#time-integration (Rayleigh
// damping, sponge h per node, fixed and massless nodes at rest), dense, in FP64.
struct ReferenceStepper {
    ReferenceStepper(const WaveProblem& problem, ElementMethod method) : p(problem) {
        const VoxelGrid& g = p.grid;
        nx = g.n[0];
        ny = g.n[1];
        nn = std::size_t(nx + 1) * (ny + 1);
        K = Eigen::MatrixXd::Zero(2 * nn, 2 * nn);
        mass = Eigen::VectorXd::Zero(nn);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const MaterialId id = g.ids[std::size_t(i) + std::size_t(nx) * j];
                if (id == kVoidId) continue;
                const Material& m = p.materials[id - 1];
                const PlaneElementMatrix ke =
                    method == ElementMethod::Vfem
                        ? bilinear_gauss_stiffness(g.spacing, m.lame_lambda(), m.shear_modulus())
                        : plane_strain_reduction(voxel_element_stiffness(method, g.spacing, m), g.spacing);
                std::size_t node[4];
                for (int a = 0; a < 4; ++a)
                    node[a] = std::size_t(i + (kR2[a][0] + 1) / 2) + std::size_t(nx + 1) * (j + (kR2[a][1] + 1) / 2);
                for (int a = 0; a < 4; ++a) {
                    mass(node[a]) += m.density * g.spacing * g.spacing / 4;
                    for (int b = 0; b < 4; ++b)
                        for (int c = 0; c < 2; ++c)
                            for (int d = 0; d < 2; ++d)
                                K(c * nn + node[a], d * nn + node[b]) += ke(2 * a + c, 2 * b + d);
                }
            }
        fixed.assign(nn, false);
        for (std::size_t n : p.boundary.fixed_nodes) fixed[n] = true;
    }
    void step(std::int64_t n, Eigen::VectorXd& u, Eigen::VectorXd& up) const {
        const double dt = p.dt, b = p.rayleigh.beta / dt;
        const Eigen::VectorXd w = u + b * (u - up);
        Eigen::VectorXd f = -K * w;
        for (const auto& s : p.sources)
            for (int c = 0; c < 2; ++c) f(c * nn + s.node) += s.force[c] * evaluate_wavelet(s.wavelet, double(n) * dt);
        Eigen::VectorXd next(2 * nn);
        for (std::size_t i = 0; i < nn; ++i)
            for (int c = 0; c < 2; ++c) {
                const std::size_t k = c * nn + i;
                const double h = 0.5 * dt * (p.rayleigh.alpha + p.boundary.damping_at(i));
                const double a = (fixed[i] || mass(i) == 0) ? 0.0 : dt * dt / mass(i);
                next(k) = (2 * u(k) - (1 - h) * up(k) + a * f(k)) / (1 + h);
            }
        up = u;
        u = next;
    }
    const WaveProblem& p;
    int nx = 0, ny = 0;
    std::size_t nn = 0;
    Eigen::MatrixXd K;
    Eigen::VectorXd mass;
    std::vector<bool> fixed;
};

}  // namespace

class PlaneStrainStepperTest : public ::testing::TestWithParam<ElementMethod> {};

TEST_P(PlaneStrainStepperTest, EqualsAnIndependentAssembledImplementation) {
    Scene s = parse_scene_json(scene_2d_json(), "s.json", "");
    s.run.method = GetParam() == ElementMethod::Vfem ? Method::Vfem : Method::Ovfem;
    const WaveProblem p = build_wave_problem(s, "s.json");
    ASSERT_EQ(p.dimensions, 2);
    ASSERT_EQ(p.node_count(), 9u * 7u);
    ASSERT_FALSE(p.boundary.fixed_nodes.empty());
    ASSERT_TRUE(p.boundary.has_node_damping());
    PlaneStrainStepperCpu<double> engine(p);
    const ReferenceStepper ref(p, GetParam());
    // A random start (zero where the engine keeps nodes at rest), then 150 steps with the source.
    const std::size_t nn = p.node_count();
    std::vector<double> u0 = test::random_vector(2 * nn, 3), u1 = test::random_vector(2 * nn, 4);
    for (std::size_t i = 0; i < nn; ++i)
        if (ref.fixed[i] || ref.mass(i) == 0) u0[i] = u0[nn + i] = u1[i] = u1[nn + i] = 0;
    for (double& x : u0) x *= 1e-9;
    for (double& x : u1) x *= 1e-9;
    engine.set_state(u0, u1);
    Eigen::VectorXd up = Eigen::Map<Eigen::VectorXd>(u0.data(), Eigen::Index(u0.size()));
    Eigen::VectorXd u = Eigen::Map<Eigen::VectorXd>(u1.data(), Eigen::Index(u1.size()));
    for (std::int64_t n = 0; n < 150; ++n) {
        engine.step(n);
        ref.step(n, u, up);
    }
    const std::vector<double> got = engine.displacement();
    const std::vector<double> want(u.data(), u.data() + u.size());
    ASSERT_GT(test::max_abs(want), 1e-12);
    EXPECT_LT(test::max_abs_difference(got, want), 1e-9 * test::max_abs(want));
    // And the FP32 engine follows it to single precision.
    PlaneStrainStepperCpu<float> engine32(p);
    engine32.set_state(u0, u1);
    for (std::int64_t n = 0; n < 150; ++n) engine32.step(n);
    EXPECT_LT(test::max_abs_difference(engine32.displacement(), want), 1e-4 * test::max_abs(want));
}

TEST_P(PlaneStrainStepperTest, RunRecordsTwoComponentTracesOfTheSameLoop) {
    Scene s = parse_scene_json(scene_2d_json(), "s.json", "");
    s.run.method = GetParam() == ElementMethod::Vfem ? Method::Vfem : Method::Ovfem;
    const WaveProblem p = build_wave_problem(s, "s.json");
    const Result r = run_wave(p, {});
    EXPECT_EQ(r.components, 2);
    ASSERT_EQ(r.displacement.size(), 40u * 2u);
    const ReferenceStepper ref(p, GetParam());
    Eigen::VectorXd u = Eigen::VectorXd::Zero(Eigen::Index(2 * ref.nn)), up = u;
    const std::size_t node = p.receivers[0].node;
    double peak = 0, diff = 0;
    for (std::int64_t n = 0; n < 40; ++n) {
        for (int c = 0; c < 2; ++c) {
            peak = std::max(peak, std::fabs(u(Eigen::Index(c * ref.nn + node))));
            diff = std::max(diff, std::fabs(r.u(0, std::size_t(n), c) - u(Eigen::Index(c * ref.nn + node))));
        }
        ref.step(n, u, up);
    }
    ASSERT_GT(peak, 0);
    EXPECT_LT(diff, 1e-9 * peak);
    // The file keeps 2 components.
    test::TempDir dir;
    write_result_h5(dir.file("r.h5"), r);
    const Result back = read_result_h5(dir.file("r.h5"));
    EXPECT_EQ(back.components, 2);
    EXPECT_EQ(back.displacement, r.displacement);
    EXPECT_EQ(back.receiver_positions, r.receiver_positions);
}

INSTANTIATE_TEST_SUITE_P(BothMethods, PlaneStrainStepperTest,
                         ::testing::Values(ElementMethod::Vfem, ElementMethod::Ovfem), [](const auto& param_info) {
                             return param_info.param == ElementMethod::Vfem ? "vfem" : "ovfem";
                         });

// The live session (the explorer's run) of a 2D scene: the same traces as run_wave, 2
// components in its result, and slices of the one-layer grid that show the 2D field on both node
// planes with u_z = 0.
TEST(PlaneStrainSession, LiveSessionRecordsTheRunsTracesAndShowsTheFieldInBothNodePlanes) {
    const Scene s = parse_scene_json(scene_2d_json(), "s.json", "");
    const WaveProblem p = build_wave_problem(s, "s.json");
    const Result batch = run_wave(p, {});
    WaveSession live(p);
    live.advance(25);
    live.advance(15);
    const Result r = live.result();
    EXPECT_EQ(r.components, 2);
    EXPECT_EQ(r.displacement, batch.displacement);
    const SliceImage bottom = live.slice(SlicePlane::XY, 0, SliceQuantity::Uy);
    const SliceImage top = live.slice(SlicePlane::XY, 1, SliceQuantity::Uy);
    const SliceImage uz = live.slice(SlicePlane::XY, 0, SliceQuantity::Uz);
    ASSERT_EQ(bottom.width, 9);
    ASSERT_EQ(bottom.height, 7);
    EXPECT_EQ(bottom.values, top.values);
    EXPECT_GT(bottom.max_abs(), 0.0f);
    EXPECT_EQ(uz.max_abs(), 0.0f);
    // The receiver's last recorded sample is u before the last step; the slice shows u now.
    PlaneStrainStepperCpu<double> direct(p);
    for (std::int64_t n = 0; n < 40; ++n) direct.step(n);
    const std::size_t node = p.receivers[0].node, rs = 9;
    EXPECT_EQ(bottom.values[(node / rs) * rs + node % rs], float(direct.displacement_at(node, 1)));
}
