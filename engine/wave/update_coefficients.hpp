// Per-node factors of the central-difference update (time_stepper_cpu.hpp states the scheme),
// rounded once to the engine's precision. Shared by the CPU and CUDA steppers so both round the
// same numbers the same way.
#pragma once

#include <cstddef>
#include <vector>

#include "wave/wave_problem.hpp"

namespace voxwave {

template <class Real>
struct UpdateCoefficients {
    std::vector<Real> dt2_inv_mass;    // dt^2 / m, 0 where the node is fixed or massless
    std::vector<Real> inv_one_plus_h;  // 1 / (1 + h), h = (alpha + the boundary's node damping) dt / 2
    std::vector<Real> one_minus_h;     // 1 - h
};

// Parallel over nodes (update_coefficients.cpp; OpenMP is for C++ sources only, so the CUDA
// engine calls the compiled instantiations): 2 M nodes took 40 ms on one core, most of it
// first touches of the three new arrays.
template <class Real>
UpdateCoefficients<Real> update_coefficients(const WaveProblem& p);
extern template UpdateCoefficients<double> update_coefficients<double>(const WaveProblem&);
extern template UpdateCoefficients<float> update_coefficients<float>(const WaveProblem&);

}  // namespace voxwave
