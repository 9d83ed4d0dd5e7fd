// The element-parallel CUDA SEM step (sem_scatter_kernel.cuh) checked on the CPU, so that a build
// without a GPU still proves it: the kernels' own bodies run with the host emulation of
// cuda_host_emulation.hpp (a std::thread a CUDA thread, a barrier for __syncthreads, a lock for
// atomicAdd), the element kernel over the solid elements and then the node kernel, with
// sem_stepper_cuda.cu's buffer rotation, step by step against the CPU stepper (the oracle) on a
// model with voids (a whole void element column and voids between solid elements), two
// materials, a fixed face, a sponge and Rayleigh damping: K u, and three damped steps, p = 2, 3, 4,
// FP64 to 1e-12 and FP32 to 1e-5. Also that the element kernel's atomic adds are as many as the
// geometry of its blocks' runs of x neighbours gives (their common faces summed in shared memory),
// that the force buffer is zero again after each step (the next step's element kernel adds into
// it) and the automatic schedule rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <type_traits>

#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "sem_test_state.hpp"
#include "test_util.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_step_schedule.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wavelet.hpp"

#include "emulated_kernel_begin.hpp"

#include "wave/sem_scatter_kernel.cuh"  // the sweep kernel it includes carries #pragma unroll

#include "emulated_kernel_end.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kDs = 0.004;

// 5 x 4 x 3 elements: steel in concrete, a void column through the whole height (its nodes
// touched by no solid element stay held), a void element between solid ones, the fixed x- face,
// a sponge on z+ and Rayleigh damping (damped false: neither, so h is one number and w = u).
WaveProblem scatter_problem(int order, bool damped) {
    Scene s = block_scene(5, 4, 3, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{kDs, 0.0, 0.0}, {3 * kDs, 2 * kDs, 2 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{4 * kDs, 3 * kDs, 0.0}, {5 * kDs, 4 * kDs, 3 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{2 * kDs, 2 * kDs, kDs}, {3 * kDs, 3 * kDs, 2 * kDs}}});
    s.boundary.fixed_faces = {"x-"};
    if (damped) {
        s.boundary.absorbing.faces = {"z+"};
        s.boundary.absorbing.thickness = kDs;
        s.boundary.absorbing.type = "sponge";
        s.damping = {"rayleigh", 0.01, 100e3, 200e3};
    }
    s.run.method = Method::Sem;
    s.run.order = order;
    validate_scene(s, "scatter");
    return build_wave_problem(s, "scatter");
}

using test::max_abs;

// The engine's device arrays, on the host.
template <class Real>
struct ScatterArrays {
    std::vector<unsigned> elements;
    std::vector<unsigned long long> words;  // sem_scatter_element_words of `elements`
    std::vector<Real> lambda, mu;
    UpdateCoefficients<Real> c;
    sem_cuda::SemTables<Real> tab{};
    sem_cuda::GridShape g{};
    sem_cuda::UpdateFactors<Real> upd{};

    ScatterArrays(const WaveProblem& prob, const SemMesh& mesh) : c(update_coefficients<Real>(prob)) {
        for (std::size_t e = 0; e < prob.grid.element_count(); ++e)
            if (prob.grid.ids[e] != kVoidId) elements.push_back(unsigned(e));
        words =
            sem_cuda::sem_scatter_element_words(elements, prob.order, prob.grid.n[0], prob.grid.n[1], prob.grid.ids);
        lambda.assign(256, Real(0));
        mu.assign(256, Real(0));
        for (std::size_t m = 0; m < prob.materials.size(); ++m) {
            lambda[m + 1] = Real(prob.materials[m].lame_lambda());
            mu[m + 1] = Real(prob.materials[m].shear_modulus());
        }
        tab = sem_cuda::sem_tables<Real>(mesh.gll);
        g = {prob.grid.n[0], prob.grid.n[1], prob.grid.n[2], mesh.n[0], mesh.n[1], mesh.node_count()};
        // Without a sponge the engine passes h as one number (no per-node factors).
        const bool sponge = !prob.boundary.node_damping.empty();
        upd = {c.dt2_inv_mass.data(), sponge ? c.inv_one_plus_h.data() : nullptr, c.one_minus_h.data(),
               c.inv_one_plus_h.front(), c.one_minus_h.front()};
    }
};

// The element kernel's launch, emulated: f += K w over the solid elements, w damped or not; with
// `fused` its fused form (SemScatterFused): u^m formed from u (u^{m-1}), up (u^{m-2}) and
// fused->f_prev at the load, written with a zero into fused->f_clear at the owned nodes. `blocks`:
// the element blocks (0: full blocks), and with receivers in `points` one block more.
template <int P, class Real>
void emulated_elements(const WaveProblem& prob, const ScatterArrays<Real>& arr, const std::vector<Real>& u,
                       const std::vector<Real>& up, bool damped, Real b, std::vector<Real>& f,
                       const sem_cuda::SemScatterFused<Real>* fused = nullptr,
                       const sem_cuda::SemPointWork& points = sem_cuda::SemPointWork{}, unsigned blocks = 0) {
    using namespace sem_cuda;
    constexpr int E = kScatterElementsPerBlock<P, Real>;
    const unsigned count = unsigned(arr.elements.size());
    if (blocks == 0) blocks = (count + E - 1) / E;
    const unsigned grid = blocks + (points.receiver_count > 0 ? 1u : 0u);  // and the receivers' block
    const Real half_ds = Real(0.5 * prob.grid.spacing);
    const auto launch = [&](auto damped_tag, auto fused_tag) {
        run_emulated_blocks(kScatterElementThreads<P, Real>, grid, [&](std::size_t block) {
            blockIdx.x = unsigned(block);
            sem_element_scatter<P, Real, decltype(damped_tag)::value, decltype(fused_tag)::value>(
                arr.words.data(), sem_cuda::scatter_block_split(count, blocks), arr.lambda.data(), arr.mu.data(),
                arr.tab, arr.g, half_ds, u.data(), up.data(), Real(1) + b, b, f.data(),
                sem_cuda::sem_scatter_launch_sources<P, Real>(points, sem_cuda::scatter_block_split(count, blocks)),
                fused ? *fused : SemScatterFused<Real>{});
        });
    };
    if (damped && fused)
        launch(std::true_type{}, std::true_type{});
    else if (damped)
        launch(std::true_type{}, std::false_type{});
    else if (fused)
        launch(std::false_type{}, std::true_type{});
    else
        launch(std::false_type{}, std::false_type{});
}

// The node kernel's launch, emulated (no barrier: each thread its own node).
template <class Real>
void emulated_update(const ScatterArrays<Real>& arr, const std::vector<Real>& u, const std::vector<Real>& up,
                     std::vector<Real>& f, std::vector<Real>& un,
                     const sem_cuda::SemPointWork& points = sem_cuda::SemPointWork{}) {
    using namespace sem_cuda;
    blockDim.x = kScatterNodeThreads;
    const std::size_t nn = arr.g.nn, blocks = (nn + kScatterNodeThreads - 1) / kScatterNodeThreads;
    for (std::size_t k = 0; k < blocks; ++k)
        for (int t = 0; t < kScatterNodeThreads; ++t) {
            blockIdx.x = unsigned(k);
            threadIdx.x = unsigned(t);
            sem_scatter_update<Real>(nn, u.data(), up.data(), f.data(), un.data(), arr.upd, points);
        }
}

// The atomic adds one element launch of `blocks` blocks should make, counted from the geometry:
// of the list's n solid elements, the first n mod blocks blocks take n / blocks + 1 (rounded down),
// the others n / blocks, one block after the other; a block's elements fall into runs of x
// neighbours of one element row, a run of L elements is a box of (L P + 1) x (P + 1) x (P + 1)
// nodes, and every node of the box but its strictly inner ones, (L P - 1) x (P - 1) x (P - 1), is
// shared with elements outside the run: an atomic add of each component there. Also the runs of
// two or more elements, so that the model is known to have the face sums.
template <int P, class Real>
std::size_t expected_atomic_adds(const std::vector<unsigned>& elements, int ex, std::size_t& merged_runs,
                                 std::size_t blocks = 0) {
    constexpr std::size_t E = sem_cuda::kScatterElementsPerBlock<P, Real>;
    const std::size_t n = elements.size();
    if (blocks == 0) blocks = (n + E - 1) / E;
    std::size_t adds = 0;
    merged_runs = 0;
    const std::size_t base = n / blocks, longer = n % blocks;
    for (std::size_t block = 0; block < blocks; ++block) {
        const std::size_t begin = block * base + std::min(block, longer), end = begin + base + (block < longer);
        EXPECT_LE(end - begin, E);
        for (std::size_t a = begin; a < end;) {
            std::size_t z = a + 1;
            while (z < end && elements[z] == elements[z - 1] + 1 && elements[z] % unsigned(ex) != 0) ++z;
            const std::size_t L = z - a, box = (L * P + 1) * (P + 1) * (P + 1), inner = (L * P - 1) * (P - 1) * (P - 1);
            adds += 3 * (box - inner);
            merged_runs += L > 1;
            a = z;
        }
    }
    return adds;
}

// u and u- of the emulated engine against the CPU stepper's, to tol of the largest |u|.
template <class Real>
void expect_state_equals_cpu(const SemTimeStepperCpu<Real>& cpu, const std::vector<Real>& u,
                             const std::vector<Real>& up, double tol) {
    const std::vector<double> want = cpu.displacement(), want_prev = cpu.previous_displacement();
    const double us = max_abs(want);
    ASSERT_GT(us, 0);
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_NEAR(double(u[i]), want[i], tol * us) << i;
        ASSERT_NEAR(double(up[i]), want_prev[i], tol * us) << i;
    }
}

template <int P, class Real>
void scatter_equals_cpu_stepper(bool damped, double tol) {
    SCOPED_TRACE(::testing::Message() << "p " << P << (damped ? ", damped, sponge" : "")
                                      << (sizeof(Real) == 8 ? ", fp64" : ", fp32"));
    const WaveProblem prob = scatter_problem(P, damped);
    ASSERT_EQ(prob.rayleigh.beta > 0, damped);
    const SemMesh mesh = sem_mesh(prob.grid, P);
    const std::size_t nn = mesh.node_count();
    const ScatterArrays<Real> arr(prob, mesh);
    ASSERT_LT(arr.elements.size(), prob.grid.element_count());  // the voids have no block
    std::vector<double> u0, up0;
    random_sem_state(nn, 21, u0, up0);
    SemTimeStepperCpu<Real> cpu(prob);
    cpu.set_state(up0, u0);  // held and void-only nodes at rest, as a run reaches them
    const std::vector<double> ud = cpu.displacement(), upd = cpu.previous_displacement();
    std::vector<Real> u(ud.begin(), ud.end()), up(upd.begin(), upd.end()), f(3 * nn, Real(0)), un(3 * nn, Real(0));

    // K u: the element kernel alone on a zero buffer (stiffness_times), with the atomics it makes.
    emulated_atomic_adds = 0;
    emulated_elements<P, Real>(prob, arr, u, up, false, Real(0), f);
    std::size_t merged_runs = 0;
    EXPECT_EQ(emulated_atomic_adds, (expected_atomic_adds<P, Real>(arr.elements, prob.grid.n[0], merged_runs)));
    EXPECT_GT(merged_runs, 0u);
    const std::vector<double> ku = cpu.stiffness_times(ud);
    const double ks = max_abs(ku);
    ASSERT_GT(ks, 0);
    for (std::size_t i = 0; i < ku.size(); ++i) ASSERT_NEAR(double(f[i]), ku[i], tol * ks) << i;
    // The same with the elements spread over more blocks than full ones (a one-wave launch,
    // scatter_element_blocks): blocks of E - 1 and E elements at other places in the list.
    constexpr unsigned E = sem_cuda::kScatterElementsPerBlock<P, Real>;
    const unsigned count = unsigned(arr.elements.size()), spread = (count + E - 2) / (E - 1);
    ASSERT_GT(spread, (count + E - 1) / E);
    std::fill(f.begin(), f.end(), Real(0));
    emulated_atomic_adds = 0;
    emulated_elements<P, Real>(prob, arr, u, up, false, Real(0), f, nullptr, sem_cuda::SemPointWork{}, spread);
    EXPECT_EQ(emulated_atomic_adds, (expected_atomic_adds<P, Real>(arr.elements, prob.grid.n[0], merged_runs, spread)));
    for (std::size_t i = 0; i < ku.size(); ++i) ASSERT_NEAR(double(f[i]), ku[i], tol * ks) << i;
    std::fill(f.begin(), f.end(), Real(0));

    // Three steps with the engine's rotation: u- <- u, u <- u+ (the sources add nothing at t = 1 s).
    const Real b = Real(prob.rayleigh.beta / prob.dt);
    const std::int64_t quiet = std::int64_t(1.0 / prob.dt);
    for (int step = 0; step < 3; ++step) {
        SCOPED_TRACE(step);
        cpu.step(quiet + step);
        std::fill(un.begin(), un.end(), Real(7));  // every node is written
        emulated_elements<P, Real>(prob, arr, u, up, damped, b, f);
        emulated_update<Real>(arr, u, up, f, un);
        ASSERT_TRUE(std::all_of(f.begin(), f.end(), [](Real x) { return x == Real(0); }));
        up.swap(un);
        u.swap(up);
        expect_state_equals_cpu(cpu, u, up, tol);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// The model of the fused launches' tests: the problem, its mesh, the engine's arrays and the
// owned-point masks; node(q, pt): the node of point pt (x-fastest) of the list's element q.
template <int P, class Real>
struct FusedModel {
    WaveProblem prob;
    SemMesh mesh;
    std::size_t nn;
    ScatterArrays<Real> arr;
    std::vector<unsigned long long> owned;
    explicit FusedModel(bool damped)
        : prob(scatter_problem(P, damped)),
          mesh(sem_mesh(prob.grid, P)),
          nn(mesh.node_count()),
          arr(prob, mesh),
          owned(sem_cuda::sem_scatter_owned(arr.elements, P, prob.grid.n[0], prob.grid.n[1], prob.grid.n[2])) {}
    std::size_t node(std::size_t q, int pt) const {
        constexpr int N = P + 1;
        const std::size_t el = arr.elements[q], ex = std::size_t(prob.grid.n[0]), ey = std::size_t(prob.grid.n[1]);
        const std::size_t i = el % ex, j = (el / ex) % ey, k = el / (ex * ey);
        const int m = pt % N, y = (pt / N) % N, z = pt / (N * N);
        return P * i + m + mesh.n[0] * (P * j + y + mesh.n[1] * (P * k + z));
    }
};

// sem_stepper_cuda.cu's fused steps (advance_fused), emulated: a plain element launch, three fused
// ones with the force buffers rotating (read, add into, clear), the plain update of the last u+
// and the clear of the buffer the last fused launch read; u and u- after four steps against the
// CPU stepper, every force buffer zero again, and every node some solid element touches owned
// by exactly one element.
template <int P, class Real>
void fused_scatter_equals_cpu_stepper(bool damped, double tol) {
    SCOPED_TRACE(::testing::Message() << "fused, p " << P << (damped ? ", damped, sponge" : "")
                                      << (sizeof(Real) == 8 ? ", fp64" : ", fp32"));
    const FusedModel<P, Real> model(damped);
    const WaveProblem& prob = model.prob;
    const std::size_t nn = model.nn;
    const ScatterArrays<Real>& arr = model.arr;
    const std::vector<unsigned long long>& owned = model.owned;
    // Ownership: count owners and touching elements a node, independently of the masks' builder.
    std::vector<int> owners(nn, 0), touched(nn, 0);
    for (std::size_t q = 0; q < arr.elements.size(); ++q)
        for (int pt = 0; pt < (P + 1) * (P + 1) * (P + 1); ++pt) {
            const std::size_t node = model.node(q, pt);
            ++touched[node];
            owners[node] += int((owned[2 * q + std::size_t(pt / 64)] >> (pt % 64)) & 1ull);
        }
    for (std::size_t n = 0; n < nn; ++n) ASSERT_EQ(owners[n], touched[n] > 0 ? 1 : 0) << n;

    std::vector<double> u0, up0;
    random_sem_state(nn, 33, u0, up0);
    SemTimeStepperCpu<Real> cpu(prob);
    cpu.set_state(up0, u0);
    const std::vector<double> ud = cpu.displacement(), upd = cpu.previous_displacement();
    std::vector<Real> u(ud.begin(), ud.end()), up(upd.begin(), upd.end()), un(3 * nn, Real(0));
    std::vector<std::vector<Real>> f(3, std::vector<Real>(3 * nn, Real(0)));
    const Real b = Real(prob.rayleigh.beta / prob.dt);
    const std::int64_t quiet = std::int64_t(1.0 / prob.dt), steps = 4;
    for (std::int64_t k = 0; k < steps; ++k) cpu.step(quiet + k);
    emulated_elements<P, Real>(prob, arr, u, up, damped, b, f[0]);
    int cur = 0;
    for (std::int64_t k = 1; k < steps; ++k) {
        const int next = (cur + 1) % 3, clear = (cur + 2) % 3;
        const sem_cuda::SemScatterFused<Real> fused{f[cur].data(), f[clear].data(), un.data(), owned.data(), arr.upd};
        emulated_elements<P, Real>(prob, arr, u, up, damped, b, f[next], &fused);
        cur = next;
        up.swap(un);
        u.swap(up);
    }
    emulated_update<Real>(arr, u, up, f[cur], un);
    std::fill(f[(cur + 2) % 3].begin(), f[(cur + 2) % 3].end(), Real(0));
    up.swap(un);
    u.swap(up);
    for (const auto& buffer : f)
        ASSERT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](Real x) { return x == Real(0); }));
    expect_state_equals_cpu(cpu, u, up, tol);
}

// Three nodes of FusedModel's mesh for sources: one of one element only, a face node of two and
// the corner node with the most solid elements around it (every one with mass).
template <int P>
std::array<std::size_t, 3> source_test_nodes(const FusedModel<P, double>& model) {
    const std::size_t nn = model.nn;
    std::vector<int> touched(nn, 0);
    for (std::size_t q = 0; q < model.arr.elements.size(); ++q)
        for (int pt = 0; pt < (P + 1) * (P + 1) * (P + 1); ++pt) ++touched[model.node(q, pt)];
    std::size_t one = nn, two = nn, most = 0;
    for (std::size_t n = 0; n < nn; ++n) {
        if (model.arr.c.dt2_inv_mass[n] == 0.0) continue;  // held nodes: no source acts there
        if (touched[n] == 1 && one == nn) one = n;
        if (touched[n] == 2 && two == nn) two = n;
        if (touched[n] > touched[most]) most = n;
    }
    EXPECT_LT(one, nn);
    EXPECT_LT(two, nn);
    EXPECT_GE(touched[most], 4);
    return {one, two, most};
}

// sem_scatter_source_places at every node of FusedModel's mesh (voids, a fixed face) against a scan
// of the list: the first element that has the node and the node's point in it, or none.
template <int P>
void source_places_are_the_first_element_at_each_node() {
    SCOPED_TRACE(::testing::Message() << "source places, p " << P);
    const FusedModel<P, double> model(false);
    const std::size_t nn = model.nn;
    constexpr int N3 = (P + 1) * (P + 1) * (P + 1);
    std::vector<unsigned> first(nn, sem_cuda::SemSourceBatch::kNoElement);
    std::vector<int> point(nn, -1);
    for (std::size_t q = model.arr.elements.size(); q-- > 0;)
        for (int pt = 0; pt < N3; ++pt) {
            first[model.node(q, pt)] = unsigned(q);
            point[model.node(q, pt)] = pt;
        }
    std::vector<unsigned long long> all(nn);
    for (std::size_t n = 0; n < nn; ++n) all[n] = n;
    const std::vector<sem_cuda::ScatterSourcePlace> places =
        sem_cuda::sem_scatter_source_places(model.arr.elements, P, model.prob.grid.n[0], model.prob.grid.n[1], all);
    ASSERT_EQ(places.size(), nn);
    std::size_t none = 0;
    for (std::size_t n = 0; n < nn; ++n) {
        ASSERT_EQ(places[n].element, first[n]) << "node " << n;
        if (first[n] == sem_cuda::SemSourceBatch::kNoElement) {
            ++none;
            continue;
        }
        ASSERT_EQ(int(places[n].point), point[n]) << "node " << n;
    }
    EXPECT_GT(none, 0u);  // the void column's inner nodes
}

TEST(SemScatterLayout, SourcePlaceIsTheFirstElementOfTheListAtTheNode) {
    source_places_are_the_first_element_at_each_node<2>();
    source_places_are_the_first_element_at_each_node<3>();
    source_places_are_the_first_element_at_each_node<4>();
}

// The element launch with sources (SemPointWork.sources, those of the step of the force it adds):
// at a node of one element only, at a face node of two and at the corner node with the most solid
// elements around it. The force it adds must be the launch's without them less F at exactly those
// nodes, once each however many elements share the node, in the plain and the fused form (whose
// u^n the sources leave alone); and a fused launch that forms u^n from such a force must give the
// update without them plus dt^2/m / (1 + h) F at those nodes. With receivers at those nodes and one
// more (the launch's own block samples them, the others take every element): the fused launch
// samples the u^n it writes.
template <int P>
void sources_go_into_the_force_once_at_their_nodes() {
    SCOPED_TRACE(::testing::Message() << "sources in the force, p " << P);
    const FusedModel<P, double> model(false);
    const WaveProblem& prob = model.prob;
    const std::size_t nn = model.nn;
    const ScatterArrays<double>& arr = model.arr;
    const std::array<std::size_t, 3> three = source_test_nodes(model);
    if (::testing::Test::HasFailure()) return;
    // And an inner node of the list's last element (in the last block, at another block slot when
    // the blocks are spread).
    constexpr int N = P + 1, kSources = 4;
    const std::vector<std::size_t> nodes = {three[0], three[1], three[2],
                                            model.node(arr.elements.size() - 1, 1 + N * (1 + N))};
    const std::vector<sem_cuda::ScatterSourcePlace> places = sem_cuda::sem_scatter_source_places(
        arr.elements, P, prob.grid.n[0], prob.grid.n[1], {nodes[0], nodes[1], nodes[2], nodes[3]});
    sem_cuda::SemPointWork w;
    const double forces[kSources][3] = {{1.5, -2.0, 0.25}, {0.5, 3.0, -1.0}, {-4.0, 0.125, 2.0}, {0.75, 0.5, -3.0}};
    w.sources.count = kSources;
    ASSERT_EQ(places[3].element, arr.elements.size() - 1);
    for (int i = 0; i < kSources; ++i) {
        w.sources.node[i] = nodes[i];
        w.sources.element[i] = places[std::size_t(i)].element;
        w.sources.point[i] = places[std::size_t(i)].point;
        ASSERT_NE(w.sources.element[i], sem_cuda::SemSourceBatch::kNoElement);
        ASSERT_EQ(model.node(w.sources.element[i], w.sources.point[i]), nodes[std::size_t(i)]);
        for (int k = 0; k < 3; ++k) w.sources.force[i][k] = forces[i][k];
    }
    std::vector<double> u0, up0;
    random_sem_state(nn, 41, u0, up0);
    std::vector<double> touched(nn, 0.0);
    for (std::size_t q = 0; q < arr.elements.size(); ++q)
        for (int pt = 0; pt < (P + 1) * (P + 1) * (P + 1); ++pt) touched[model.node(q, pt)] = 1.0;
    std::vector<double> f_prev(3 * nn);
    for (std::size_t i = 0; i < f_prev.size(); ++i) f_prev[i] = std::cos(0.29 * double(i)) * touched[i % nn];
    // The force of a plain and of a fused launch, with and without the sources, in full blocks and
    // spread over more blocks (scatter_element_blocks' one wave: other block slots).
    constexpr unsigned E = sem_cuda::kScatterElementsPerBlock<P, double>;
    const unsigned count = unsigned(arr.elements.size()), spread = (count + E - 2) / (E - 1);
    for (const bool fused_form : {false, true})
        for (const unsigned blocks : {0u, spread}) {
            SCOPED_TRACE(::testing::Message() << (fused_form ? "fused form" : "plain form") << ", blocks " << blocks);
            std::vector<double> clear_src(3 * nn, 1.0), clear_plain(3 * nn, 1.0), un_src(3 * nn, 0.0),
                un_plain(3 * nn, 0.0), f_src(3 * nn, 0.0), f_plain(3 * nn, 0.0);
            const sem_cuda::SemScatterFused<double> with{f_prev.data(), clear_src.data(), un_src.data(),
                                                         model.owned.data(), arr.upd};
            const sem_cuda::SemScatterFused<double> without{f_prev.data(), clear_plain.data(), un_plain.data(),
                                                            model.owned.data(), arr.upd};
            emulated_elements<P, double>(prob, arr, u0, up0, false, 0.0, f_src, fused_form ? &with : nullptr, w,
                                         blocks);
            emulated_elements<P, double>(prob, arr, u0, up0, false, 0.0, f_plain, fused_form ? &without : nullptr,
                                         sem_cuda::SemPointWork{}, blocks);
            std::vector<double> want = f_plain;
            for (int i = 0; i < kSources; ++i)
                for (int k = 0; k < 3; ++k) want[k * nn + nodes[std::size_t(i)]] -= forces[i][k];
            const double fs = max_abs(want);
            for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(f_src[i], want[i], 1e-13 * fs) << i;
            for (std::size_t n : nodes) EXPECT_NE(f_src[n], f_plain[n]);
            if (fused_form)  // the u^n the fused form writes: the sources leave it alone
                for (std::size_t i = 0; i < un_src.size(); ++i) ASSERT_EQ(un_src[i], un_plain[i]) << i;
        }
    // u^n from a force with the sources in it.
    std::vector<double> f_with = f_prev;
    for (int i = 0; i < kSources; ++i)
        for (int k = 0; k < 3; ++k) f_with[k * nn + nodes[std::size_t(i)]] -= forces[i][k];
    const std::vector<unsigned long long> receivers = {nodes[0], nodes[1], nodes[2], nn / 2};
    ASSERT_GT(touched[nn / 2], 0.0);
    std::vector<double> samples(receivers.size() * 3, -1.0);
    sem_cuda::SemPointWork sample_only;
    sample_only.receivers = receivers.data();
    sample_only.receiver_count = int(receivers.size());
    sample_only.samples = samples.data();
    std::vector<double> clear_a(3 * nn, 1.0), clear_b(3 * nn, 1.0), un_src(3 * nn, 0.0), un_plain(3 * nn, 0.0),
        f_a(3 * nn, 0.0), f_b(3 * nn, 0.0);
    const sem_cuda::SemScatterFused<double> from_with{f_with.data(), clear_a.data(), un_src.data(), model.owned.data(),
                                                      arr.upd};
    const sem_cuda::SemScatterFused<double> from_without{f_prev.data(), clear_b.data(), un_plain.data(),
                                                         model.owned.data(), arr.upd};
    emulated_elements<P, double>(prob, arr, u0, up0, false, 0.0, f_a, &from_with, sample_only);
    emulated_elements<P, double>(prob, arr, u0, up0, false, 0.0, f_b, &from_without);
    std::vector<double> want = un_plain;
    for (int i = 0; i < kSources; ++i) {
        const std::size_t n = nodes[std::size_t(i)];
        const double scale = arr.c.dt2_inv_mass[n] * arr.c.inv_one_plus_h[n];
        ASSERT_GT(scale, 0.0);
        for (int k = 0; k < 3; ++k) want[k * nn + n] += scale * forces[i][k];
    }
    const double us = max_abs(want);
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(un_src[i], want[i], 1e-13 * us) << i;
    for (std::size_t n : nodes) EXPECT_NE(un_src[n], un_plain[n]);
    for (std::size_t r = 0; r < receivers.size(); ++r)
        for (int k = 0; k < 3; ++k)
            EXPECT_EQ(samples[r * 3 + k], un_src[k * nn + receivers[r]]) << "receiver " << r << ", component " << k;
}

TEST(SemScatterEmulated, SourcesGoIntoTheForceOnceAtTheirNodes) {
    sources_go_into_the_force_once_at_their_nodes<2>();
    sources_go_into_the_force_once_at_their_nodes<3>();
    sources_go_into_the_force_once_at_their_nodes<4>();
}

// sem_stepper_cuda.cu's fused chain with sources acting (advance_fused), emulated: three sources
// (source_test_nodes) of a Ricker pulse near its peak, each launch with the sources of the step of
// its force (the engine's batch, written here from the problem's sources), the last update without
// any; u and u- after six steps from rest against the CPU stepper, damped and not, and every force
// buffer zero again.
template <int P>
void fused_chain_with_sources_equals_cpu_stepper(bool damped) {
    SCOPED_TRACE(::testing::Message() << "fused chain with sources, p " << P << (damped ? ", damped, sponge" : ""));
    FusedModel<P, double> model(damped);
    WaveProblem& prob = model.prob;
    const std::size_t nn = model.nn;
    const ScatterArrays<double>& arr = model.arr;
    const std::array<std::size_t, 3> nodes = source_test_nodes(model);
    if (::testing::Test::HasFailure()) return;
    Wavelet pulse;
    pulse.frequency = 0.05 / prob.dt;
    pulse.delay = 3.0 / pulse.frequency;
    const Vec3 forces[3] = {{1.5, -2.0, 0.25}, {0.5, 3.0, -1.0}, {-4.0, 0.125, 2.0}};
    for (int i = 0; i < 3; ++i) {
        SourceTerm src;
        src.name = "s" + std::to_string(i);
        src.node = nodes[std::size_t(i)];
        src.force = forces[i];
        src.wavelet = pulse;
        src.time_shift = 1e-3 * double(i) * prob.dt;
        prob.sources.push_back(src);
    }
    std::vector<unsigned long long> source_nodes(nodes.begin(), nodes.end());
    const std::vector<sem_cuda::ScatterSourcePlace> places =
        sem_cuda::sem_scatter_source_places(arr.elements, P, prob.grid.n[0], prob.grid.n[1], source_nodes);
    const auto batch = [&](std::int64_t n) {
        sem_cuda::SemSourceBatch b;
        for (std::size_t i = 0; i < prob.sources.size(); ++i) {
            const SourceTerm& src = prob.sources[i];
            const double wv = evaluate_wavelet(src.wavelet, double(n) * prob.dt - src.time_shift);
            b.node[b.count] = src.node;
            b.element[b.count] = places[i].element;
            b.point[b.count] = places[i].point;
            b.force[b.count][0] = src.force[0] * wv;
            b.force[b.count][1] = src.force[1] * wv;
            b.force[b.count][2] = src.force[2] * wv;
            ++b.count;
        }
        return b;
    };
    SemTimeStepperCpu<double> cpu(prob);
    std::vector<double> u(3 * nn, 0.0), up(3 * nn, 0.0), un(3 * nn, 0.0);
    std::vector<std::vector<double>> f(3, std::vector<double>(3 * nn, 0.0));
    const double b = prob.rayleigh.beta / prob.dt;
    const std::int64_t n0 = std::int64_t(std::llround(pulse.delay / prob.dt)) - 3, steps = 6;
    ASSERT_GT(std::abs(evaluate_wavelet(pulse, double(n0) * prob.dt)), 0.4);
    for (std::int64_t k = 0; k < steps; ++k) cpu.step(n0 + k);
    sem_cuda::SemPointWork w;
    w.sources = batch(n0);
    emulated_elements<P, double>(prob, arr, u, up, damped, b, f[0], nullptr, w);
    int cur = 0;
    for (std::int64_t k = 1; k < steps; ++k) {
        const int next = (cur + 1) % 3, clear = (cur + 2) % 3;
        const sem_cuda::SemScatterFused<double> fused{f[cur].data(), f[clear].data(), un.data(), model.owned.data(),
                                                      arr.upd};
        w.sources = batch(n0 + k);
        emulated_elements<P, double>(prob, arr, u, up, damped, b, f[next], &fused, w);
        cur = next;
        up.swap(un);
        u.swap(up);
    }
    emulated_update<double>(arr, u, up, f[cur], un);
    std::fill(f[(cur + 2) % 3].begin(), f[(cur + 2) % 3].end(), 0.0);
    up.swap(un);
    u.swap(up);
    // Every force buffer zero again, the sources' nodes too (no -F left behind).
    for (const auto& buffer : f)
        ASSERT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](double x) { return x == 0.0; }));
    expect_state_equals_cpu(cpu, u, up, 1e-12);
}

TEST(SemScatterEmulated, FusedChainWithSourcesEqualsTheCpuStepper) {
    for (const bool damped : {false, true}) {
        fused_chain_with_sources_equals_cpu_stepper<2>(damped);
        fused_chain_with_sources_equals_cpu_stepper<3>(damped);
        fused_chain_with_sources_equals_cpu_stepper<4>(damped);
    }
}

template <int P>
void scatter_cases() {
    scatter_equals_cpu_stepper<P, double>(true, 1e-12);
    scatter_equals_cpu_stepper<P, double>(false, 1e-12);
    scatter_equals_cpu_stepper<P, float>(true, 1e-5);
    fused_scatter_equals_cpu_stepper<P, double>(true, 1e-12);
    fused_scatter_equals_cpu_stepper<P, double>(false, 1e-12);
    fused_scatter_equals_cpu_stepper<P, float>(true, 1e-5);
}

class SemScatterEmulated : public ::testing::TestWithParam<int> {};

TEST_P(SemScatterEmulated, CudaKernelBodiesOnTheCpuEqualTheCpuStepper) {
    switch (GetParam()) {
        case 2:
            return scatter_cases<2>();
        case 3:
            return scatter_cases<3>();
        default:
            return scatter_cases<4>();
    }
}

INSTANTIATE_TEST_SUITE_P(Orders, SemScatterEmulated, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

// The kernels' D products along a line (sem_line_product, even-odd at order 4) against the plain
// sums over D written here, for D and its transpose, on lines of random values: equal to rounding.
template <int P>
void line_products_equal_the_plain_sums() {
    SCOPED_TRACE(::testing::Message() << "p " << P);
    constexpr int N = P + 1;
    const GllTables gll = gll_tables(P);
    const sem_cuda::SemTables<double> tab = sem_cuda::sem_tables<double>(gll);
    std::mt19937 rng(17 + P);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (int trial = 0; trial < 20; ++trial) {
        double in[N], out[N], out_t[N];
        for (double& x : in) x = dist(rng);
        sem_cuda::sem_line_product<P, false>(tab, in, out);
        sem_cuda::sem_line_product<P, true>(tab, in, out_t);
        for (int a = 0; a < N; ++a) {
            double plain = 0.0, plain_t = 0.0, scale = 0.0;
            for (int m = 0; m < N; ++m) {
                plain += gll.d[a * N + m] * in[m];
                plain_t += gll.d[m * N + a] * in[m];
                scale += std::abs(gll.d[a * N + m]) + std::abs(gll.d[m * N + a]);
            }
            EXPECT_NEAR(out[a], plain, 1e-15 * scale) << "a " << a;
            EXPECT_NEAR(out_t[a], plain_t, 1e-15 * scale) << "a " << a;
        }
    }
}

// The element kernel's shared layout for p = 4 in FP64: its points distinct words inside a slot, and
// in each of the three line passes, at every position m along the lines, the lanes of a half-warp on
// words of distinct bank pairs (8-byte words, 16 bank pairs a half-warp: one wavefront each), the
// lanes' lines a permutation of the element's 25. With rows of 5 and planes of 25 words and the
// plain lane order, the y pass puts three lanes of the first half-warp on one bank pair.
template <int Axis>
void expect_line_pass_without_bank_conflicts() {
    using L = sem_cuda::ScatterPoints<4, double>;
    constexpr int N = 5, NN = N * N;
    std::set<int> lines;
    for (int lane = 0; lane < NN; ++lane) lines.insert(sem_cuda::scatter_lane_line<4, double, Axis>(lane));
    EXPECT_EQ(lines.size(), std::size_t(NN));
    EXPECT_EQ(*lines.begin(), 0);
    EXPECT_EQ(*lines.rbegin(), NN - 1);
    for (int m = 0; m < N; ++m)
        for (int half = 0; half < 2; ++half) {
            std::map<int, std::set<int>> words_of_bank;
            for (int lane = 16 * half; lane < std::min(NN, 16 * half + 16); ++lane) {
                const int line = sem_cuda::scatter_lane_line<4, double, Axis>(lane), s = line % N, t = line / N;
                const int word = Axis == 0 ? L::point(m, s, t) : (Axis == 1 ? L::point(s, m, t) : L::point(s, t, m));
                words_of_bank[word % 16].insert(word);
            }
            std::size_t most = 0;
            for (const auto& [bank, words] : words_of_bank) most = std::max(most, words.size());
            EXPECT_EQ(most, 1u) << "pass " << Axis << ", m " << m << ", half-warp " << half;
        }
}

TEST(SemScatterLayout, P4Fp64LinePassesTakeOneWavefrontPerHalfWarp) {
    using L = sem_cuda::ScatterPoints<4, double>;
    std::set<int> words;
    for (int z = 0; z < 5; ++z)
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 5; ++x) {
                const int w = L::point(x, y, z);
                EXPECT_GE(w, 0);
                EXPECT_LT(w, L::slot);
                words.insert(w);
            }
    EXPECT_EQ(words.size(), 125u);
    EXPECT_GE(L::element, 6 * L::slot);
    expect_line_pass_without_bank_conflicts<0>();
    expect_line_pass_without_bank_conflicts<1>();
    expect_line_pass_without_bank_conflicts<2>();
}

// The element kernel's table word: the origin, the id and each flag read back alone, at the largest
// origin it holds, with every combination of flags; and the block's word of a slot, whose flags
// about the element before and after hold only where that element is the block's.
TEST(SemScatterLayout, ElementWordKeepsTheOriginIdAndEachFlag) {
    using W = sem_cuda::ScatterElementWord;
    const unsigned long long origins[] = {0ull, 12345ull, (1ull << 53) - 1};
    const unsigned char ids[] = {0, 1, 7, 255};
    for (unsigned long long origin : origins)
        for (unsigned char id : ids)
            for (int flags = 0; flags < 8; ++flags) {
                const bool live = flags & 1, merged = flags & 2, next = flags & 4;
                const unsigned long long w = W::make(origin, id, live, merged, next);
                EXPECT_EQ(W::origin(w), std::size_t(origin)) << flags;
                EXPECT_EQ(W::id(w), id) << origin;
                EXPECT_EQ(W::live(w), live) << origin;
                EXPECT_EQ(W::merged(w), merged) << origin;
                EXPECT_EQ(W::next_merged(w), next) << origin;
                for (int e = 0; e < 3; ++e)
                    for (int next_in_block = 0; next_in_block < 2; ++next_in_block) {
                        const unsigned long long b = W::in_block(w, e, next_in_block == 1);
                        EXPECT_EQ(W::origin(b), std::size_t(origin));
                        EXPECT_EQ(W::id(b), id);
                        EXPECT_EQ(W::live(b), live);
                        EXPECT_EQ(W::merged(b), merged && e > 0);
                        EXPECT_EQ(W::next_merged(b), next && next_in_block == 1);
                    }
            }
}

// The engine's word table on a 4 x 3 x 2 grid with voids (p = 3): each solid element's origin node,
// id and x-neighbour flags, computed here from the element's (i, j, k) and the grid's solids.
TEST(SemScatterLayout, ElementWordsOfAListWithVoids) {
    using W = sem_cuda::ScatterElementWord;
    const int P = 3, ex = 4, ey = 3, ez = 2;
    std::vector<unsigned char> ids(std::size_t(ex) * ey * ez);
    for (std::size_t e = 0; e < ids.size(); ++e) ids[e] = (e % 5 == 2 || e == 7) ? kVoidId : (unsigned char)(1 + e % 3);
    std::vector<unsigned> elements;
    for (std::size_t e = 0; e < ids.size(); ++e)
        if (ids[e] != kVoidId) elements.push_back(unsigned(e));
    const std::vector<unsigned long long> words = sem_cuda::sem_scatter_element_words(elements, P, ex, ey, ids);
    ASSERT_EQ(words.size(), elements.size());
    const std::size_t nx = P * ex + 1, ny = P * ey + 1;
    const auto solid = [&](int i, int j, int k) {
        return i >= 0 && i < ex && ids[std::size_t(i) + ex * (std::size_t(j) + ey * std::size_t(k))] != kVoidId;
    };
    for (std::size_t q = 0; q < elements.size(); ++q) {
        const int i = int(elements[q]) % ex, j = int(elements[q]) / ex % ey, k = int(elements[q]) / (ex * ey);
        EXPECT_EQ(W::origin(words[q]), std::size_t(P) * i + nx * (std::size_t(P) * j + ny * std::size_t(P) * k)) << q;
        EXPECT_EQ(W::id(words[q]), ids[elements[q]]) << q;
        EXPECT_TRUE(W::live(words[q])) << q;
        EXPECT_EQ(W::merged(words[q]), solid(i - 1, j, k)) << q;  // solid before it: the list's previous
        EXPECT_EQ(W::next_merged(words[q]), solid(i + 1, j, k)) << q;
    }
}

// The element kernel's grid: full blocks where they take more than a wave; one wave spread over k
// blocks an SM (k the least that holds the full blocks), so that with blocks dealt to the SMs in
// turn (block b to SM b mod sms) the busiest SM holds fewer elements. The Stokes run at 16 mm on
// 132 SMs of 7 blocks of 4 elements (p = 4 in FP32): 3,375 elements in 844 full blocks leave the
// busiest SM 7 of them (28 elements); spread over 924, 26. In FP64 (blocks of 8, 4 an SM): 422
// full blocks, spread over 528, 26 again.
TEST(SemScatterGrid, OneWaveSpreadsTheElementsOverEverySm) {
    using sem_cuda::scatter_element_blocks;
    EXPECT_EQ((scatter_element_blocks<4, float>(3375, 7, 132)), 924u);
    EXPECT_EQ((scatter_element_blocks<4, float>(27000, 7, 132)), 6750u);   // 7.3 waves: full blocks
    EXPECT_EQ((scatter_element_blocks<4, float>(3696, 7, 132)), 924u);     // one full wave
    EXPECT_EQ((scatter_element_blocks<4, float>(2000, 7, 132)), 528u);     // 500 full blocks: 4 an SM
    EXPECT_EQ((scatter_element_blocks<4, float>(100, 7, 132)), 100u);      // one element a block
    EXPECT_EQ((scatter_element_blocks<2, double>(3375, 5, 132)), 396u);    // 282 full blocks of 12: 3 an SM
    EXPECT_EQ((scatter_element_blocks<4, double>(3375, 4, 132)), 528u);    // 422 full blocks of 8: 4 an SM
    EXPECT_EQ((scatter_element_blocks<4, double>(27000, 4, 132)), 3375u);  // 6.4 waves: full blocks
    const auto busiest = [](unsigned count, unsigned blocks, unsigned sms) {
        std::vector<unsigned> held(sms, 0);
        const sem_cuda::ScatterBlockSplit split = sem_cuda::scatter_block_split(count, blocks);
        for (unsigned b = 0; b < blocks; ++b)
            held[b % sms] += sem_cuda::scatter_block_first(b + 1, split) - sem_cuda::scatter_block_first(b, split);
        unsigned total = 0;
        for (unsigned h : held) total += h;
        EXPECT_EQ(total, count);
        return *std::max_element(held.begin(), held.end());
    };
    EXPECT_EQ(busiest(3375, 844, 132), 28u);
    EXPECT_EQ(busiest(3375, 924, 132), 26u);
    EXPECT_EQ(busiest(3375, 923, 132), 26u);
    EXPECT_EQ(busiest(3375, 528, 132), 26u);
}

TEST(SemScatterEmulated, LineProductsEqualThePlainSums) {
    line_products_equal_the_plain_sums<2>();
    line_products_equal_the_plain_sums<3>();
    line_products_equal_the_plain_sums<4>();
}

// The step's point work (sem_points_kernel.cuh) in the node kernel and alone: u at the receivers
// before the step, and u+ plus dt^2/m / (1 + h) F of every source at its node (two sources
// sharing a node add in batch order), against the update without it and the formula written
// here; the point work alone after a plain update gives the same u+.
TEST(SemScatterEmulated, TheNodeKernelSamplesTheReceiversAndAddsTheSources) {
    const WaveProblem prob = scatter_problem(4, true);  // a sponge: h differs between nodes
    const SemMesh mesh = sem_mesh(prob.grid, 4);
    const std::size_t nn = mesh.node_count();
    const ScatterArrays<double> arr(prob, mesh);
    std::vector<double> u0, up0;
    random_sem_state(nn, 5, u0, up0);
    std::vector<double> f(3 * nn), un_plain(3 * nn), un_points(3 * nn), un_alone(3 * nn);
    for (std::size_t i = 0; i < f.size(); ++i) f[i] = std::sin(0.37 * double(i));
    std::vector<double> f_plain = f, f_points = f;
    emulated_update<double>(arr, u0, up0, f_plain, un_plain);

    // Source nodes with mass, one of them twice; receivers anywhere.
    std::vector<unsigned long long> massive;
    for (std::size_t n = 0; n < nn; ++n)
        if (arr.c.dt2_inv_mass[n] != 0.0 && arr.c.inv_one_plus_h[n] != arr.c.inv_one_plus_h[0]) massive.push_back(n);
    ASSERT_GE(massive.size(), 2u);  // nodes in the sponge
    const unsigned long long a = massive.front(), c = massive.back();
    const std::vector<unsigned long long> receivers = {7, a, nn - 1};
    std::vector<double> samples(receivers.size() * 3, -1.0);
    sem_cuda::SemPointWork w;
    w.receivers = receivers.data();
    w.receiver_count = int(receivers.size());
    w.samples = samples.data();
    w.sources.count = 3;
    const double forces[3][3] = {{1.5, -2.0, 0.25}, {0.5, 3.0, -1.0}, {-4.0, 0.125, 2.0}};
    const unsigned long long nodes[3] = {a, c, a};
    for (int i = 0; i < 3; ++i) {
        w.sources.node[i] = nodes[i];
        for (int k = 0; k < 3; ++k) w.sources.force[i][k] = forces[i][k];
    }
    emulated_update<double>(arr, u0, up0, f_points, un_points, w);
    EXPECT_EQ(f_points, f_plain);  // both back to zero
    for (std::size_t r = 0; r < receivers.size(); ++r)
        for (int k = 0; k < 3; ++k) EXPECT_EQ(samples[r * 3 + k], u0[k * nn + receivers[r]]) << r << " " << k;
    std::vector<double> want = un_plain;
    for (int i = 0; i < 3; ++i) {
        const unsigned long long n = nodes[i];
        const double scale = arr.c.dt2_inv_mass[n] * arr.c.inv_one_plus_h[n];
        for (int k = 0; k < 3; ++k) want[k * nn + n] += scale * forces[i][k];
    }
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(un_points[i], want[i], 1e-12 * max_abs(want)) << i;
    EXPECT_NE(un_points[a], un_plain[a]);

    // The point work alone on the plain update's u+.
    un_alone = un_plain;
    std::fill(samples.begin(), samples.end(), -1.0);
    blockDim.x = 64;
    blockIdx.x = 0;
    for (int t = 0; t < 64; ++t) {
        threadIdx.x = unsigned(t);
        sem_cuda::sem_point_work<double>(w, nn, u0.data(), un_alone.data(), arr.c.dt2_inv_mass.data(),
                                         arr.c.inv_one_plus_h.data());
    }
    EXPECT_EQ(un_alone, un_points);
    for (std::size_t r = 0; r < receivers.size(); ++r)
        for (int k = 0; k < 3; ++k) EXPECT_EQ(samples[r * 3 + k], u0[k * nn + receivers[r]]);
}

// The automatic rule (sem_step_schedule.hpp): the scatter up to sem_scatter_elements_per_sm(p)
// solid elements an SM, the sweep above; a forced schedule is kept; the names parse and print back.
TEST(SemCudaSchedule, AutomaticRuleAndNames) {
    // The measured cases on 132 SMs (sem_step_schedule.hpp): the scatter won at every order up to
    // 50^3 elements (947 an SM) and at 60^3 (1636; p = 3 on an H200 once its shared layout had fewer
    // bank conflicts), at p = 3 also at 80^3 (3879 an SM), where at p = 4 the two tied (H100).
    for (int order : {2, 3, 4}) {
        SCOPED_TRACE(order);
        for (std::size_t edge : {15, 30, 40, 50})
            EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, order, edge * edge * edge, 132),
                      SemCudaSchedule::Scatter);
    }
    EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, 2, 216000, 132), SemCudaSchedule::Scatter);
    EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, 3, 216000, 132), SemCudaSchedule::Scatter);
    EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, 3, 512000, 132), SemCudaSchedule::Scatter);
    EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, 4, 216000, 132), SemCudaSchedule::Scatter);
    for (int order : {2, 3, 4}) {
        SCOPED_TRACE(order);
        EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, order, 729000, 132), SemCudaSchedule::Sweep);
    }
    for (int order : {2, 3, 4}) {
        SCOPED_TRACE(order);
        // The threshold itself, one element an SM above it, and the same model on half the SMs.
        const std::size_t edge = std::size_t(sem_scatter_elements_per_sm(order)) * 132;
        EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, order, edge, 132), SemCudaSchedule::Scatter);
        EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, order, edge + 132, 132), SemCudaSchedule::Sweep);
        EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Auto, order, edge, 66), SemCudaSchedule::Sweep);
        EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Sweep, order, 500, 132), SemCudaSchedule::Sweep);
        EXPECT_EQ(resolve_sem_cuda_schedule(SemCudaSchedule::Scatter, order, 216000, 132), SemCudaSchedule::Scatter);
    }
    for (SemCudaSchedule s : {SemCudaSchedule::Auto, SemCudaSchedule::Sweep, SemCudaSchedule::Scatter})
        EXPECT_EQ(parse_sem_cuda_schedule(to_string(s), "--schedule"), s);
    EXPECT_THROW(parse_sem_cuda_schedule("colours", "--schedule"), InputError);
}

}  // namespace
