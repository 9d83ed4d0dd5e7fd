// The spatial convergence order of the spectral voxel elements in time-domain runs, with the
// central-difference time error taken out: every run of the comparison uses one and the same
// dt, so the time error (O(dt^2), from the discrete frequencies, which converge) is common to
// the runs and to the reference and cancels in their difference up to dt^2 times the spatial
// error. On the Stokes problem with dt tied to h by the CFL limit (bench/results/accuracy.md)
// p = 3 shows only order 2.6 because there the time error dominates; here the element's own
// order shows.
//
// The model is small enough for CI: a free 48 mm cube of the Stokes problem's material with a
// point force off its centre (60 kHz Ricker) and receivers on the corners of the 8 mm grid,
// whose waves reflect several times in the 50 us window. The reference is SEM p = 4 at 4 mm
// (an error far below p = 3's at 4 mm: order 4 against 3 from a smaller error at 8 mm, and
// about 2^-8 of p = 4's own at 8 mm). Measured on the VM: p = 3 order 7.0 (8 -> 4 mm), p = 4
// order 6.6 (16 -> 8 mm); asserted at least p.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "scene/scene_io.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

constexpr double kDt = 0.1e-6;  // below the stable limit of every run (p = 4 at 4 mm: 0.131 us)

Scene cube_scene(double ds, int order) {
    Scene s;
    const double side = 0.048;
    const int n = static_cast<int>(std::lround(side / ds));
    s.grid.size = {n * ds, n * ds, n * ds};
    s.grid.spacing = ds;
    s.materials = {{"stokes", 2000, 3000, 1700, "#a0a0a0", ""}};
    s.background = "stokes";
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = 60e3;
    w.delay = 20e-6;
    s.sources.push_back({"force", {0.016, 0.024, 0.024}, {0.3, 0.5, 1.0}, 1.0, w});
    s.receivers.push_back({"R1", {0.032, 0.016, 0.032}});
    s.receivers.push_back({"R2", {0.008, 0.040, 0.016}});
    s.receivers.push_back({"R3", {0.040, 0.032, 0.008}});
    s.run.method = Method::Sem;
    s.run.order = order;
    s.run.dt = kDt;
    s.run.duration = 50e-6;
    s.run.backend = Backend::Cpu;
    return s;
}

Result run_cube(double ds, int order) {
    const Scene s = cube_scene(ds, order);
    validate_scene(s, "cube");
    const WaveProblem p = build_wave_problem(s, "cube");
    EXPECT_EQ(p.dt, kDt);
    return run_wave(p, {});
}

// Seed 000 eq. 18's form against the reference: sum over the receivers' three channels of
// sum_t (u - u_ref)^2, over sum_t u_ref^2.
double relative_error(const Result& r, const Result& ref) {
    EXPECT_EQ(r.sample_count(), ref.sample_count());
    double num = 0, den = 0;
    for (std::size_t ri = 0; ri < ref.receiver_names.size(); ++ri)
        for (std::size_t t = 0; t < ref.sample_count(); ++t)
            for (int k = 0; k < 3; ++k) {
                EXPECT_EQ(r.receiver_positions[ri][k], ref.receiver_positions[ri][k]);
                const double d = r.u(ri, t, k) - ref.u(ri, t, k);
                num += d * d;
                den += ref.u(ri, t, k) * ref.u(ri, t, k);
            }
    EXPECT_GT(den, 0);
    return num / den;
}

// The reference, SEM p = 4 at 4 mm, run once for the tests below.
const Result& reference() {
    static const Result ref = run_cube(0.004, 4);
    return ref;
}

// The amplitude order of SEM p = `order` from spacing `coarse` to coarse / 2 against the
// reference, asserted at least p, and the finer run's Err below 1e-3. Err is a squared relative
// L2 error: an amplitude error of order q divides it by 2^(2q) when the spacing halves, so order
// >= p means a ratio of at least 4^p.
void expect_order_at_least_p(int order, double coarse) {
    const Result& ref = reference();
    const double err_coarse = relative_error(run_cube(coarse, order), ref);
    const double err_fine = relative_error(run_cube(0.5 * coarse, order), ref);
    const double measured = 0.5 * std::log2(err_coarse / err_fine);
    std::printf("SEM p = %d at dt %.2g us: Err %.3e (%g mm) -> %.3e (%g mm), order %.2f\n", order, kDt * 1e6,
                err_coarse, coarse * 1e3, err_fine, 0.5 * coarse * 1e3, measured);
    EXPECT_GE(measured, double(order));
    EXPECT_LT(err_fine, 1e-3);
}

TEST(SemConvergence, P3ConvergesAtOrderThreeWhenTheTimeErrorIsCommon) { expect_order_at_least_p(3, 0.008); }

// p = 4 from 16 to 8 mm (3 and 6 elements an edge; the source, at 16 and 24 mm, and the receivers,
// at 8 mm multiples, are nodes of both: p = 4 has a node at each element's middle) against the
// same reference, whose own error is then about 2^-8 of the 8 mm run's.
TEST(SemConvergence, P4ConvergesAtOrderFourWhenTheTimeErrorIsCommon) { expect_order_at_least_p(4, 0.016); }

}  // namespace
