// The element kernels' material lookup tables: Lame's lambda and the shear modulus by material id
// (0: void, i + 1: materials[i]), 256 entries each, rounded to the engine's precision.
#pragma once

#include <cstddef>
#include <vector>

#include "model/material.hpp"

namespace voxwave {

template <class Real>
struct LameTables {
    std::vector<Real> lambda, mu;
};

template <class Real>
LameTables<Real> lame_tables(const std::vector<Material>& materials) {
    LameTables<Real> t{std::vector<Real>(256, Real(0)), std::vector<Real>(256, Real(0))};
    for (std::size_t m = 0; m < materials.size() && m < 255; ++m) {
        t.lambda[m + 1] = static_cast<Real>(materials[m].lame_lambda());
        t.mu[m + 1] = static_cast<Real>(materials[m].shear_modulus());
    }
    return t;
}

}  // namespace voxwave
