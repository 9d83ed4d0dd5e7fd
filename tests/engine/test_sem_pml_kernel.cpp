// The CUDA engine's sem PML passes (sem_pml_kernel.cuh) run on the CPU, so that a build without a
// GPU checks them: the kernels' own bodies, compiled for the host (a std::thread a CUDA thread, a
// barrier for __syncthreads, a lock for atomicAdd, a static for __shared__), on the u+ that the
// CPU stepper's interior step gives (the CUDA sweep's result, which tests/gpu checks), against the
// CPU stepper with the PML (SemPmlCorrectionCpu) step after step: the operand gathered at the
// element's nodes, the chain and the stress change point by point, the force change through the
// update's factors into u+, the node pass's whole force recovered from u+ and its y. p = 2, 3, 4,
// FP64 to 1e-12 and FP32 to 1e-5, with Rayleigh damping (alpha on y, beta in the operand: the
// previous gradients kept) and without (the previous gradients recomputed from u-), the PML on
// four faces (edges and a corner of the layer), a void and a steel bar in the layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "boundary/pml_layer.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/pml_nodes_cpu.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wave_problem.hpp"

#include "emulated_kernel_begin.hpp"

#include "wave/sem_pml_kernel.cuh"

#include "emulated_kernel_end.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kDs = 0.004;

// 6 x 5 x 5 elements of concrete, a PML of 2 elements on x-, x+, y- and z+ (edges, and corners
// where x-, y- and z+ meet), a steel bar through the x+ layer, a void in the x- y- z+ corner of
// the layer, Rayleigh damping or none.
WaveProblem layer_problem(int order, Precision precision, bool damped) {
    Scene s = block_scene(6, 5, 5, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{3 * kDs, 2 * kDs, kDs}, {6 * kDs, 3 * kDs, 2 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{0.0, 0.0, 4 * kDs}, {kDs, kDs, 5 * kDs}}});
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "z+"};
    s.boundary.absorbing.thickness = 2 * kDs;
    s.boundary.absorbing.type = "pml";
    if (damped) s.damping = {"rayleigh", 0.01, 100e3, 200e3};
    s.sources.push_back({"S", {3 * kDs, 3 * kDs, 2 * kDs}, {1, 1, 1}, 1.0, ricker(100e3, 12e-6)});
    s.run.method = Method::Sem;
    s.run.order = order;
    s.run.precision = precision;
    validate_scene(s, "layer");
    return build_wave_problem(s, "layer");
}

using test::max_abs;

std::vector<unsigned long long> as_ull(const std::vector<std::size_t>& v) {
    return std::vector<unsigned long long>(v.begin(), v.end());
}

// The layer's tables and memory variables on the host, as SemPmlCorrectionCuda holds them.
template <int P, class Real>
struct EmulatedLayer {
    static constexpr int N = P + 1, V = kSemPmlPointValues * N * N * N;
    const WaveProblem& p;
    SemMesh mesh;
    PmlTables t;
    std::vector<unsigned long long> element, element_first_pole, node, node_first_pole;
    std::vector<unsigned char> ids;
    std::vector<std::uint32_t> live;
    std::vector<double> lambda = std::vector<double>(256, 0.0), mu = std::vector<double>(256, 0.0);
    std::vector<double> psi, prev, node_psi, y, y_prev, node_a;
    bool fresh = true;  // as SemPmlCorrectionCuda: no history until the first pass after a reset

    explicit EmulatedLayer(const WaveProblem& problem)
        : p(problem),
          mesh(sem_mesh(problem.grid, P)),
          t(pml_tables(problem.boundary.pml, problem.grid, problem.node_mass, problem.dt, P)),
          element(as_ull(t.element)),
          element_first_pole(as_ull(t.element_first_pole)),
          node(as_ull(t.node)),
          node_first_pole(as_ull(t.node_first_pole)),
          psi(t.element_poles.size() * V, 0.0),
          prev(problem.rayleigh.beta != 0 ? t.element.size() * V : 0, 0.0),
          node_psi(t.node_poles.size() * 3, 0.0),
          y(3 * t.node.size(), 0.0),
          y_prev(3 * t.node.size(), 0.0),
          node_a(pml_node_dt2_inv_mass(t, problem)) {
        for (std::size_t e : t.element) ids.push_back(problem.grid.ids[e]);
        for (std::size_t q = 0; q < t.element.size(); ++q) live.push_back(sem_pml_live_stages(t, q));
        for (std::size_t m = 0; m < problem.materials.size(); ++m) {
            lambda[m + 1] = problem.materials[m].lame_lambda();
            mu[m + 1] = problem.materials[m].shear_modulus();
        }
    }

    // sem_pml_correction_cuda.cu's reset: y = c0 u, y- = c0 u-.
    void reset(const std::vector<Real>& up, const std::vector<Real>& u) {
        const std::size_t nn = mesh.node_count();
        fresh = true;
        for (std::size_t q = 0; q < t.node.size(); ++q)
            for (std::size_t c = 0; c < 3; ++c) {
                y[3 * q + c] = t.node_scale[q] * double(u[c * nn + t.node[q]]);
                y_prev[3 * q + c] = t.node_scale[q] * double(up[c * nn + t.node[q]]);
            }
    }

    // Both passes on u_next (the interior step's u+), as SemPmlCorrectionCuda::correct launches them.
    void correct(const std::vector<Real>& u, const std::vector<Real>& up, Real b, std::vector<Real>& u_next,
                 const sem_cuda::SemPmlUpdate<Real>& upd) {
        using namespace sem_cuda;
        const std::size_t nn = mesh.node_count();
        SemPmlElementArgs<Real> a{};
        a.element = element.data();
        a.first_pole = element_first_pole.data();
        a.live = live.data();
        a.ids = ids.data();
        a.lambda = lambda.data();
        a.mu = mu.data();
        a.decay = t.element_poles.decay.data();
        a.w_old = t.element_poles.w_old.data();
        a.w_new = t.element_poles.w_new.data();
        a.filter_const = t.filter_const.data();
        a.filter_newton = t.filter_newton.data();
        a.psi = psi.data();
        a.prev = prev.empty() ? nullptr : prev.data();
        a.fresh = fresh;
        a.ex = p.grid.n[0];
        a.ey = p.grid.n[1];
        a.nx = mesh.n[0];
        a.ny = mesh.n[1];
        a.nn = nn;
        for (int i = 0; i < N * N; ++i) a.d[i] = mesh.gll.d[i];
        for (int i = 0; i < N; ++i) a.w[i] = mesh.gll.w[i];
        a.half_ds = 0.5 * p.grid.spacing;
        a.u = u.data();
        a.u_prev = up.data();
        a.b = double(b);
        a.keep = 1.0 + a.b;
        a.damped = b != Real(0);
        a.u_next = u_next.data();
        a.upd = upd;
        // One launch per pole class, as SemPmlCorrectionCuda::element_pass.
        constexpr int threads = kPmlElementThreads<P>, E = kPmlElementsPerBlock<P>;
        const std::vector<std::vector<std::uint32_t>> by_poles = sem_pml_elements_by_poles(t.element_first_pole);
        for (int k = 0; k < kSemPmlPoleClasses; ++k) {
            const std::vector<std::uint32_t>& list = by_poles[std::size_t(k)];
            if (list.empty()) continue;
            a.list = list.data();
            a.count = list.size();
            const std::size_t blocks = (list.size() + E - 1) / E;
            sem_pml_with_pole_class(k, [&](auto poles) {
                run_emulated_blocks(threads, blocks, [&](std::size_t bl) {
                    blockIdx.x = unsigned(bl);
                    sem_pml_element_pass<P, decltype(poles)::value, Real>(a);
                });
            });
        }
        fresh = false;

        SemPmlNodeArgs<Real> n{};
        n.count = node.size();
        n.node = node.data();
        n.first_pole = node_first_pole.data();
        n.decay = t.node_poles.decay.data();
        n.w_old = t.node_poles.w_old.data();
        n.w_new = t.node_poles.w_new.data();
        n.scale = t.node_scale.data();
        n.newton = t.node_newton.data();
        n.a = node_a.data();
        const double h = 0.5 * p.dt * p.rayleigh.alpha;
        n.one_minus_h = 1.0 - h;
        n.inv_one_plus_h = 1.0 / (1.0 + h);
        n.psi = node_psi.data();
        n.y = y.data();
        n.y_prev = y_prev.data();
        n.nn = nn;
        n.u = u.data();
        n.u_prev = up.data();
        n.u_next = u_next.data();
        n.upd = upd;
        blockDim.x = unsigned(kPmlNodeThreads);
        for (std::size_t bl = 0; bl * kPmlNodeThreads < node.size(); ++bl)
            for (int th = 0; th < kPmlNodeThreads; ++th) {
                blockIdx.x = unsigned(bl);
                threadIdx.x = unsigned(th);
                sem_pml_node_pass<Real>(n);
            }
    }
};

template <int P, class Real>
void kernel_bodies_equal_the_cpu_layer_pass(double tol, bool damped) {
    SCOPED_TRACE(::testing::Message() << "p " << P << (sizeof(Real) == 8 ? ", fp64" : ", fp32")
                                      << (damped ? ", damped" : ", undamped"));
    const WaveProblem prob = layer_problem(P, sizeof(Real) == 8 ? Precision::Fp64 : Precision::Fp32, damped);
    ASSERT_TRUE(prob.boundary.has_pml());
    ASSERT_EQ(prob.rayleigh.alpha > 0, damped);
    ASSERT_EQ(prob.rayleigh.beta > 0, damped);
    // The same problem without the layer's passes: the CUDA sweep's u+ (interior forces only).
    WaveProblem interior_problem = prob;
    interior_problem.boundary.pml = PmlLayer{};
    ASSERT_FALSE(interior_problem.boundary.has_pml());

    const std::size_t nn = sem_mesh(prob.grid, P).node_count();
    std::vector<double> u0 = voxwave::test::random_vector(3 * nn, 21), up0 = voxwave::test::random_vector(3 * nn, 22);
    for (std::size_t i = 0; i < u0.size(); ++i) {
        u0[i] *= 1e-6;
        up0[i] = u0[i] + 1e-8 * up0[i];
    }
    SemTimeStepperCpu<Real> cpu(prob), interior(interior_problem);
    cpu.set_state(up0, u0);
    const std::vector<double> ud = cpu.displacement(), upd0 = cpu.previous_displacement();
    std::vector<Real> u(ud.begin(), ud.end()), up(upd0.begin(), upd0.end());
    EmulatedLayer<P, Real> layer(prob);
    ASSERT_EQ(layer.prev.empty(), !damped);  // without beta the previous gradients are u-'s
    ASSERT_GT(layer.t.element.size(), 0u);
    ASSERT_GT(layer.t.node.size(), 0u);
    layer.reset(up, u);

    const UpdateCoefficients<Real> c = update_coefficients<Real>(prob);
    const Real b = static_cast<Real>(prob.rayleigh.beta / prob.dt);
    const std::int64_t late = std::int64_t(1.0 / prob.dt);  // the source adds nothing at t = 1 s
    for (int step = 0; step < 4; ++step) {
        SCOPED_TRACE(::testing::Message() << "step " << step);
        interior.set_state(std::vector<double>(up.begin(), up.end()), std::vector<double>(u.begin(), u.end()));
        interior.step(late);
        const std::vector<double> inner = interior.displacement();
        std::vector<Real> next(inner.begin(), inner.end());
        // h is one number here (no sponge): the uniform factors, and on odd steps the per-node
        // arrays the engine passes with a sponge (equal values).
        const bool arrays = step % 2 == 1;
        const sem_cuda::SemPmlUpdate<Real> f{c.dt2_inv_mass.data(), arrays ? c.inv_one_plus_h.data() : nullptr,
                                             arrays ? c.one_minus_h.data() : nullptr, c.inv_one_plus_h.front(),
                                             c.one_minus_h.front()};
        layer.correct(u, up, b, next, f);
        cpu.step(late);
        const std::vector<double> want = cpu.displacement();
        const double us = max_abs(want);
        ASSERT_GT(us, 0);
        double moved = 0, off = 0;  // how far the layer's passes moved u+ from the interior step
        for (std::size_t i = 0; i < want.size(); ++i) {
            ASSERT_NEAR(double(next[i]), want[i], tol * us) << i;
            moved = std::max(moved, std::abs(want[i] - inner[i]));
            off = std::max(off, std::abs(double(next[i]) - want[i]));
        }
        EXPECT_GT(moved, 1e3 * tol * us);  // the comparison sees the layer's work
        if (step == 3)
            std::cout << "sem p = " << P << (sizeof(Real) == 8 ? " fp64" : " fp32")
                      << (damped ? " damped" : " undamped") << " layer passes, step 4: "
                      << "largest difference " << off / us << " of the peak, the layer moved u+ by " << moved / us
                      << "\n";
        up = u;
        u = next;
    }
}

// The stages the element pass leaves out: in an element of one stretched axis a (a face of the
// layer) the chain is (beta_a, alpha_a); 1 / s_a has the pole beta_a alone, s_a the pole alpha_a,
// the other filters none. So G_ka (v = 3 k + a), which enters only 1 / s_a (F_aa) and filters of
// no pole, needs the first stage; every other value enters s_a and needs both. Elsewhere (edges,
// corners) no value needs more stages than the element's poles, and some need fewer.
TEST(SemPmlKernel, LiveStagesOfFaceElementsFollowTheFilters) {
    const WaveProblem prob = layer_problem(2, Precision::Fp64, false);
    const PmlTables t = pml_tables(prob.boundary.pml, prob.grid, prob.node_mass, prob.dt, 2);
    const int nx = prob.grid.n[0], ny = prob.grid.n[1];
    std::size_t faces = 0, fewer = 0;
    for (std::size_t q = 0; q < t.element.size(); ++q) {
        const int e = int(t.element[q]), i = e % nx, j = (e / nx) % ny, k = e / (nx * ny);
        // layer_problem: 2 elements on x-, x+, y-, z+ of 6 x 5 x 5.
        const bool in[3] = {i < 2 || i >= 4, j < 2, k >= 3};
        const int axes = int(in[0]) + int(in[1]) + int(in[2]);
        const std::uint32_t live = sem_pml_live_stages(t, q);
        const std::size_t poles = t.element_first_pole[q + 1] - t.element_first_pole[q];
        ASSERT_EQ(poles, std::size_t(2 * axes)) << q;
        for (int v = 0; v < kSemPmlPointValues; ++v) {
            const std::uint32_t n = live >> (3 * v) & 7u;
            ASSERT_LE(n, poles);
            if (n < poles) ++fewer;
            if (axes != 1) continue;
            const int a = in[0] ? 0 : (in[1] ? 1 : 2);
            EXPECT_EQ(n, v % 3 == a ? 1u : 2u) << "element " << q << " value " << v;
        }
        faces += axes == 1;
    }
    EXPECT_GT(faces, 0u);
    EXPECT_GT(fewer, 3 * faces);  // edges and corners leave stages out too
}

class SemPmlKernel : public ::testing::TestWithParam<int> {};

TEST_P(SemPmlKernel, CudaKernelBodiesOnTheCpuEqualTheCpuLayerPass) {
    for (bool damped : {true, false}) switch (GetParam()) {
            case 2:
                kernel_bodies_equal_the_cpu_layer_pass<2, double>(1e-12, damped);
                kernel_bodies_equal_the_cpu_layer_pass<2, float>(1e-5, damped);
                break;
            case 3:
                kernel_bodies_equal_the_cpu_layer_pass<3, double>(1e-12, damped);
                kernel_bodies_equal_the_cpu_layer_pass<3, float>(1e-5, damped);
                break;
            default:
                kernel_bodies_equal_the_cpu_layer_pass<4, double>(1e-12, damped);
                kernel_bodies_equal_the_cpu_layer_pass<4, float>(1e-5, damped);
        }
}

INSTANTIATE_TEST_SUITE_P(Orders, SemPmlKernel, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

}  // namespace
