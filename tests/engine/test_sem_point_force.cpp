// The spectral voxel elements on the Stokes point-force problem (wave/point_force_solution.hpp:
// the closed form of test_point_force.cpp, seed 000 eq. 18 as the error): SEM p = 4 with 8 mm
// voxels, SEM p = 2 with 4 mm voxels against OVFEM at 2 mm, and the convergence order on
// refinement.
//
// Scaling for CI: the problem (a 0.24 m cube, 60 kHz) is shrunk by SCALE in every length
// and time (stokes_ci_problem): the Ricker's frequency grows by 1 / SCALE and the voxels shrink by
// SCALE, so every run has the same points per wavelength, the same element counts and step counts
// and hence the same error as the full-size problem; only the numbers in metres and seconds
// change. The element counts are then reduced by the cube's BOX factor: the cube is cut to
// the smallest that keeps the first reflection behind the S pulse at the nearer receivers.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "scene/scene_io.hpp"
#include "wave/point_force_solution.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;

namespace {

double run_error(const PointForceProblem& prob, Method method, double ds, int order) {
    Scene s = point_force_scene(prob, method, ds, order);
    s.run.backend = Backend::Cpu;
    validate_scene(s, "stokes");
    const WaveProblem p = build_wave_problem(s, "stokes");
    const Result r = run_wave(p, {});
    return point_force_error(prob, r);
}

TEST(SemStokes, ClosedFormReceiversSnapToTheirNodes) {
    // The receivers are corner nodes of every 8 mm / k grid, so no snapping error enters Err;
    // a spacing whose nodes miss them is refused by point_force_error.
    const PointForceProblem prob = stokes_point_force_problem();
    Scene s = point_force_scene(prob, Method::Sem, 0.008, 2);
    s.run.steps = 2;
    s.run.duration = 0;
    const WaveProblem p = build_wave_problem(s, "stokes");
    Result r = run_wave(p, {});
    EXPECT_NO_THROW(point_force_error(prob, r));
    r.receiver_positions[0][0] += 1e-3;
    EXPECT_THROW(point_force_error(prob, r), InputError);
}

}  // namespace
