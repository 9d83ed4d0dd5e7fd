// Values of shape functions and of the geometric map's functions, and their reference-coordinate
// derivatives, at every integration point: seed 003's psi[i_q][i_d][i_dof], the same for every
// element of one type and order (built once on the host, in double, and sent to the device).
#pragma once

#include <vector>

#include "integration/element_modes.hpp"
#include "integration/quadrature.hpp"

namespace voxwave::integration {

struct ReferenceTables {
    ElementType type = ElementType::Hexahedron;
    int order = 1;
    int nq = 0;                   // integration points
    int nsh = 0;                  // shape functions
    int nv = 0;                   // vertices of the geometric map
    int points_1d = 0;            // hexahedra: Gauss points per direction
    std::vector<double> weights;  // [nq]
    std::vector<double> phi;      // [(q * 4 + d) * nsh + a], d = 0 value, 1..3 d/dxi_d
    std::vector<double> geo;      // [(q * 4 + d) * nv + v], the trilinear / linear-prism map
    // Hexahedra only, for sum factorisation: 1D functions at the 1D Gauss points,
    // [(x * (order + 1)) + i] for N_i and N_i'; 1D weights; the modes (i, j, k) of each shape.
    std::vector<double> n1d, dn1d, w1d;
    std::vector<std::array<int, 3>> modes;
    // (i, j) index pairs that start some mode ("prefixes", stage 2 of sum factorisation):
    // prefixes[pi] = {i, j}; prefix_of[a] = the prefix of shape a.
    std::vector<std::array<int, 2>> prefixes;
    std::vector<int> prefix_of;
};

ReferenceTables make_reference_tables(ElementType type, int p, HexRule rule = HexRule::Full);

// Geometric map functions and derivatives at one reference point: out[d * nv + v].
void geometric_map_functions(ElementType type, const std::array<double, 3>& x, double* out);

}  // namespace voxwave::integration
