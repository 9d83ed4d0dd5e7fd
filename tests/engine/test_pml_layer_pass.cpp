// The CPU PML layer pass (engine/wave/pml_correction_cpu.hpp) against a plain implementation of
// the formulation written here from the flat tables (boundary/pml_layer.hpp): per element, the
// 21 moments, every pole's chained convolution of all 21 and all six filters' changes, the
// stress of the voxel element's 7 modes (pml_stress_oracle.hpp) and the transposed transform;
// per node, the central difference of the stretched displacement. The pass under test runs 8
// elements a vector, only the stages and filters that are not 0, u two steps back instead of the
// previous moments, and adds its forces by element planes in parallel; none of that may change
// what it computes. And its results do not depend on the thread count.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <vector>

#include "boundary/pml_layer.hpp"
#include "pml_stress_oracle.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/pml_correction_cpu.hpp"
#include "wave/pml_element_kernel.hpp"
#include "wave/wave_problem.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kDs = 0.002;

// A block with a PML on five faces (the top free), kappa_max > 1 (the filters' constant terms
// are not 0), a steel bar through two layers and a void in a layer corner; Rayleigh damping
// (with its stiffness term the pass needs u two steps back) or none.
WaveProblem layer_problem(bool damped) {
    Scene s = block_scene(13, 11, 10, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{0, 0.008, 0.008}, {0.026, 0.012, 0.012}}});
    s.shapes.push_back({"void", BoxShape{{0.020, 0.016, 0.0}, {0.026, 0.022, 0.006}}});
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-"};
    s.boundary.absorbing.thickness = 3 * kDs;
    s.boundary.absorbing.kappa_max = 2.0;
    s.boundary.absorbing.frequency = 150e3;
    if (damped) s.damping = {"rayleigh", 0.02, 100e3, 200e3};
    s.run.method = Method::Ovfem;
    return build_wave_problem(s, "layer pass");
}

// The plain pass: every layer element's poles, all 21 values and all six filters each step.
class PlainLayerPass {
public:
    explicit PlainLayerPass(const WaveProblem& p) : p_(p), t_(pml_tables(p.boundary.pml, p.grid, p.node_mass, p.dt)) {
        const ModeScales m = mode_scales(p.element_method(), p.grid.spacing);
        sc_ = {m.constant, m.linear, m.bilinear};
        psi_.assign(t_.element_poles.size() * kPmlMomentValues, 0.0);
        node_psi_.assign(t_.node_poles.size() * 3, 0.0);
        y_.assign(3 * t_.node.size(), 0.0);
        y_prev_.assign(3 * t_.node.size(), 0.0);
    }
    bool empty() const { return t_.element.empty(); }

    void reset(const std::vector<double>& um, const std::vector<double>& u) {
        std::fill(psi_.begin(), psi_.end(), 0.0);
        std::fill(node_psi_.begin(), node_psi_.end(), 0.0);
        const std::size_t nn = p_.grid.node_count();
        for (std::size_t q = 0; q < t_.node.size(); ++q)
            for (std::size_t c = 0; c < 3; ++c) {
                y_[3 * q + c] = t_.node_scale[q] * u[c * nn + t_.node[q]];
                y_prev_[3 * q + c] = t_.node_scale[q] * um[c * nn + t_.node[q]];
            }
        fresh_ = true;
    }

    // f += the layer's correction; (u_before, um, u) three consecutive steps, w = (1 + b) u - b um.
    void add_element_forces(const std::vector<double>& u_before, const std::vector<double>& um,
                            const std::vector<double>& u, double b, std::vector<double>& f) {
        const VoxelGrid& g = p_.grid;
        const std::size_t nn = g.node_count(), nx = std::size_t(g.n[0]), ny = std::size_t(g.n[1]);
        for (std::size_t q = 0; q < t_.element.size(); ++q) {
            const std::size_t e = t_.element[q];
            std::size_t nodes[8];
            for (int c = 0; c < 2; ++c)
                for (int bb = 0; bb < 2; ++bb)
                    for (int a = 0; a < 2; ++a)
                        nodes[voxel_local_node(a, bb, c)] =
                            g.node_index(int(e % nx) + a, int((e / nx) % ny) + bb, int(e / (nx * ny)) + c);
            auto moments = [&](const std::vector<double>& now, const std::vector<double>& before, double* S) {
                double w[24];
                for (int l = 0; l < 8; ++l)
                    for (std::size_t c = 0; c < 3; ++c)
                        w[3 * l + int(c)] = (1 + b) * now[c * nn + nodes[l]] - b * before[c * nn + nodes[l]];
                voxel_corner_moments(w, S);
            };
            double S[kPmlMomentValues], in_old[kPmlMomentValues] = {};
            moments(u, um, S);
            if (!fresh_) moments(um, u_before, in_old);
            double dS[kPmlFilters][kPmlMomentValues];
            for (int fl = 0; fl < kPmlFilters; ++fl)
                for (int v = 0; v < kPmlMomentValues; ++v) dS[fl][v] = t_.filter_const[q * kPmlFilters + fl] * S[v];
            for (std::size_t pole = t_.element_first_pole[q]; pole < t_.element_first_pole[q + 1]; ++pole) {
                double* phi = psi_.data() + pole * kPmlMomentValues;
                for (int v = 0; v < kPmlMomentValues; ++v) {
                    const double old = phi[v];
                    phi[v] = t_.element_poles.decay[pole] * old + t_.element_poles.w_old[pole] * in_old[v] +
                             t_.element_poles.w_new[pole] * S[v];
                    in_old[v] = old;
                    S[v] = phi[v];
                }
                for (int fl = 0; fl < kPmlFilters; ++fl)
                    for (int v = 0; v < kPmlMomentValues; ++v)
                        dS[fl][v] += t_.filter_newton[pole * kPmlFilters + fl] * phi[v];
            }
            const Material& mat = p_.materials[std::size_t(g.ids[e]) - 1];
            double T[kPmlMomentValues];
            test::plain_stress_moments(dS, mat.lame_lambda(), mat.shear_modulus(), sc_.data(), T);
            double fe[24];
            voxel_corner_scatter(T, fe);
            for (int l = 0; l < 8; ++l)
                for (std::size_t c = 0; c < 3; ++c) f[c * nn + nodes[l]] += fe[3 * l + int(c)];
        }
        fresh_ = false;
    }

    // u_next at the layer's nodes that are not fixed, from u and the whole force f.
    void update_nodes(const std::vector<double>& u, const std::vector<double>& f, std::vector<double>& u_next) {
        const std::size_t nn = p_.grid.node_count();
        const double h = 0.5 * p_.dt * p_.rayleigh.alpha;
        const std::vector<std::size_t>& fixed = p_.boundary.fixed_nodes;
        for (std::size_t q = 0; q < t_.node.size(); ++q) {
            const std::size_t n = t_.node[q];
            if (std::binary_search(fixed.begin(), fixed.end(), n)) continue;
            const double a = p_.dt * p_.dt / p_.node_mass[n];
            const std::size_t p0 = t_.node_first_pole[q];
            for (std::size_t c = 0; c < 3; ++c) {
                const std::size_t v = 3 * q + c;
                const double y_next = (2 * y_[v] - (1 - h) * y_prev_[v] - a * f[c * nn + n]) / (1 + h);
                u_next[c * nn + n] = pml_node_update(
                    y_next, u[c * nn + n], t_.node_scale[q], t_.node_newton.data() + p0,
                    t_.node_poles.decay.data() + p0, t_.node_poles.w_old.data() + p0, t_.node_poles.w_new.data() + p0,
                    int(t_.node_first_pole[q + 1] - p0), node_psi_.data() + 3 * p0 + c, 3);
                y_prev_[v] = y_[v];
                y_[v] = y_next;
            }
        }
    }

private:
    const WaveProblem& p_;
    PmlTables t_;
    std::array<double, 3> sc_{};
    std::vector<double> psi_, node_psi_, y_, y_prev_;
    bool fresh_ = true;
};

template <class Real>
std::array<const Real*, 3> cparts(const std::vector<Real>& v) {
    const std::size_t n = v.size() / 3;
    return {v.data(), v.data() + n, v.data() + 2 * n};
}
template <class Real>
std::array<Real*, 3> parts(std::vector<Real>& v) {
    const std::size_t n = v.size() / 3;
    return {v.data(), v.data() + n, v.data() + 2 * n};
}

std::vector<double> as_double(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }
std::vector<double> as_double(const std::vector<double>& v) { return v; }

// The forces and u+ of `steps` steps of the pass under test from random states (a new u each
// step, the previous one u-), on `threads` threads: f then u+ per step, in FP64.
template <class Real>
std::vector<std::vector<double>> run_pass(const WaveProblem& p, int steps, int threads) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    const std::size_t n = 3 * p.grid.node_count();
    PmlCorrectionCpu<Real> pass(p);
    std::vector<Real> um(n), u(n);
    const std::vector<double> r0 = voxwave::test::random_vector(n, 11), r1 = voxwave::test::random_vector(n, 12);
    std::copy(r0.begin(), r0.end(), um.begin());
    std::copy(r1.begin(), r1.end(), u.begin());
    pass.reset(cparts(um), cparts(u));
    const Real b = Real(p.rayleigh.beta / p.dt);
    std::vector<std::vector<double>> out;
    for (int k = 0; k < steps; ++k) {
        const std::vector<double> rf = voxwave::test::random_vector(n, 100 + unsigned(k));
        std::vector<Real> f(rf.begin(), rf.end()), next(n, Real(7));
        pass.add_element_forces(cparts(u), cparts(um), b, parts(f));
        pass.update_nodes(cparts(u), cparts(f), parts(next));
        out.push_back(as_double(f));
        out.push_back(as_double(next));
        um.swap(u);
        const std::vector<double> r = voxwave::test::random_vector(n, 200 + unsigned(k));
        std::copy(r.begin(), r.end(), u.begin());
    }
    omp_set_num_threads(saved);
    return out;
}

// The same steps through the plain pass, from the same states (rounded to Real, as the pass
// under test reads them).
template <class Real>
std::vector<std::vector<double>> run_plain(const WaveProblem& p, int steps) {
    const std::size_t n = 3 * p.grid.node_count();
    auto rounded = [](std::vector<double> v) {
        for (double& x : v) x = double(Real(x));
        return v;
    };
    PlainLayerPass plain(p);
    std::vector<double> um = rounded(voxwave::test::random_vector(n, 11)),
                        u = rounded(voxwave::test::random_vector(n, 12));
    std::vector<double> before = um;
    plain.reset(um, u);
    const double b = double(Real(p.rayleigh.beta / p.dt));
    std::vector<std::vector<double>> out;
    for (int k = 0; k < steps; ++k) {
        std::vector<double> f = rounded(voxwave::test::random_vector(n, 100 + unsigned(k))), next(n, 7.0);
        plain.add_element_forces(before, um, u, b, f);
        const std::vector<double> fr = rounded(f);  // the pass under test keeps f in Real
        plain.update_nodes(u, fr, next);
        out.push_back(f);
        out.push_back(rounded(next));
        before = um;
        um = u;
        u = rounded(voxwave::test::random_vector(n, 200 + unsigned(k)));
    }
    return out;
}

// max |a - b| over max |b|, and whether both hold the untouched value (7) at the same places.
double relative_difference(const std::vector<double>& a, const std::vector<double>& b, bool* same_untouched) {
    double diff = 0, peak = 0;
    *same_untouched = a.size() == b.size();
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        diff = std::max(diff, std::abs(a[i] - b[i]));
        peak = std::max(peak, std::abs(b[i]));
        *same_untouched = *same_untouched && ((a[i] == 7.0) == (b[i] == 7.0));
    }
    return diff / peak;
}

template <class Real>
void expect_plain(bool damped, double tolerance) {
    const WaveProblem p = layer_problem(damped);
    ASSERT_TRUE(p.boundary.has_pml());
    ASSERT_EQ(p.rayleigh.beta != 0, damped);
    constexpr int kSteps = 6;
    const std::vector<std::vector<double>> got = run_pass<Real>(p, kSteps, 2), want = run_plain<Real>(p, kSteps);
    ASSERT_EQ(got.size(), want.size());
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        bool same_untouched = false;
        const double d = relative_difference(got[i], want[i], &same_untouched);
        worst = std::max(worst, d);
        const char* what = i % 2 ? "u+ of the layer's nodes" : "force";
        EXPECT_LE(d, tolerance) << what << " of step " << i / 2;
        EXPECT_TRUE(same_untouched) << what << " of step " << i / 2 << ": other nodes written";
    }
    std::cout << "largest difference " << worst << " of the peak\n";
}

TEST(PmlLayerPass, EqualsThePlainPassFp64) { expect_plain<double>(false, 1e-13); }
TEST(PmlLayerPass, EqualsThePlainPassWithRayleighBetaFp64) { expect_plain<double>(true, 1e-13); }
// FP32 state and force (the layer computes in FP64): the rounding of the force to float and
// u+'s own.
TEST(PmlLayerPass, EqualsThePlainPassFp32) { expect_plain<float>(true, 1e-6); }

TEST(PmlLayerPass, ResultsDoNotDependOnTheThreadCount) {
    const WaveProblem p = layer_problem(true);
    const std::vector<std::vector<double>> one = run_pass<double>(p, 4, 1), two = run_pass<double>(p, 4, 2),
                                           three = run_pass<double>(p, 4, 3);
    ASSERT_EQ(one.size(), two.size());
    for (std::size_t i = 0; i < one.size(); ++i) {
        EXPECT_EQ(one[i], two[i]) << i;
        EXPECT_EQ(one[i], three[i]) << i;
    }
}

}  // namespace
