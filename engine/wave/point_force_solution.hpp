// The closed-form displacement of a point force in an infinite homogeneous elastic medium (Stokes'
// solution; Aki & Richards 2002, eq. 4.23), and the accuracy problem built on it: a point force
// at the centre of a cube, receivers off the axes, the error of seed 000 eq. 18 against the closed
// form up to the first reflection from the cube's faces.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "model/material.hpp"
#include "scene/result.hpp"
#include "scene/scene.hpp"

namespace voxwave {

// u(x, t) at offset x (metres) from a point force force(t) (N) along the unit vector `direction`.
// The near-field integral int_{r/vp}^{r/vs} tau F(t - tau) dtau is a composite Simpson rule of
// `panels` panels (2000 give about 1e-12 relative error for a smooth F over about one period).
std::array<double, 3> point_force_displacement(const Material& m, const std::array<double, 3>& x,
                                               const std::array<double, 3>& direction,
                                               const std::function<double(double)>& force, double t, int panels = 2000);

// A point-force accuracy problem: a cube of side `side` of one material, a Ricker force along z
// at its centre, receivers at offsets from the source (the are multiples of 8 mm, so they
// are voxel corners at every spacing 8 mm / k and GLL nodes of even orders at 16 mm / k; see
// point_force_receiver_off_node).
struct PointForceProblem {
    Material material;
    double side = 0;                                                       // cube side (m)
    double frequency = 0;                                                  // Ricker centre frequency (Hz)
    double delay = 0;                                                      // Ricker centre time (s)
    double amplitude = 1;                                                  // N
    std::vector<std::pair<std::string, std::array<double, 3>>> receivers;  // name, offset (m)
    double duration = 0;  // the error window: until the first P wave reflected by a face reaches a receiver
};

// The problem (2000 kg/m^3, vp 3000, vs 1700 m/s, Ricker 60 kHz, a 0.24 m cube, four
// receivers off the axes 37-47 mm from the source, on the corners of every 8 mm / k grid).
PointForceProblem stokes_point_force_problem();
// The same problem shrunk by `factor` in every length and time (frequency times factor): the same
// error at the same points per wavelength, for tests that keep the 0.24 m cube's element counts
// out of CI. With `box_factor` < 1 the cube is smaller still relative to the waves (a shorter
// window: the first reflection arrives sooner).
PointForceProblem scaled_point_force_problem(double factor, double box_factor = 1.0);

// The error window of a problem: until the onset of the first P wave reflected by a face at any
// receiver (duration is set to this by the functions above; call it again after changing the
// cube or the receivers).
double point_force_error_window(const PointForceProblem& prob);

// The scene of the problem at spacing ds for a method (order: sem's p).
Scene point_force_scene(const PointForceProblem& prob, Method method, double ds, int order = 4,
                        Precision precision = Precision::Fp64);

// The closed form is evaluated at the receivers' offsets, so a run must sample them exactly: the
// name of the first receiver whose snapped position (names and positions as a run's receivers,
// matched by name) is not the centre of point_force_scene's box at `spacing` plus its offset, or
// "" when every receiver is where the closed form is evaluated. A receiver missing from `names`
// counts as off its node.
std::string point_force_receiver_off_node(const PointForceProblem& prob, double spacing,
                                          const std::vector<std::string>& names,
                                          const std::vector<std::array<double, 3>>& positions);

// Seed 000 eq. 18 of a run of point_force_scene against the closed form: the mean over the
// receivers' channels that carry signal (energy above 1e-6 of the receiver's largest) of
// sum_t (u - u_ref)^2 / sum_t u_ref^2. InputError when a receiver is missing or not where the
// closed form is evaluated (a spacing whose corners miss the receivers).
double point_force_error(const PointForceProblem& prob, const Result& result);

}  // namespace voxwave
