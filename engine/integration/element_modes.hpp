// Which shape functions an element of order p has (seed 001 Table 1 for hexahedra, seed 003
// for prisms) and in which order the degrees of freedom are numbered.
//
// Hexahedron: every shape function is N_i(r) N_j(s) N_k(t) with 1D indices 0..p (hierarchical_1d);
// indices 0 and 1 are the linear end functions, j >= 2 the integrated Legendre bubbles. Vertex
// modes have no bubble index, edge modes one (2..p), face modes two with m + n <= p, interior
// modes three with l + m + n <= p. Order: the 8 vertices in the local node order of
// docs/architecture.md#wave-numerics ((-1,-1,-1), (1,-1,-1), (1,1,-1), (-1,1,-1), then t = +1), then edges,
// faces, interior.
//
// Prism: complete polynomials of degree p on the triangle (3 vertex, 3 (p - 1) edge and
// (p - 1)(p - 2)/2 bubble functions) times N_0..N_p in the vertical.
//
// Vector problems number dof = components * shape + component (docs/architecture.md#wave-numerics:
// "dof = 3 node + component").
#pragma once

#include <array>
#include <vector>

namespace voxwave::integration {

enum class ElementType { Hexahedron, Prism };

// 1D indices (i, j, k) of each hexahedral shape function, in dof order.
std::vector<std::array<int, 3>> hex_modes(int p);
// Shape functions of the hexahedron (8 + 12 (p - 1) + 3 (p - 2)(p - 3) + (p - 3)(p - 4)(p - 5)/6).
int hex_shape_count(int p);
// (p + 1)(p + 2)/2 triangle functions times p + 1 vertical ones.
int prism_shape_count(int p);
int triangle_shape_count(int p);
int shape_count(ElementType type, int p);
// Vertices of the geometric (trilinear / linear-prism) map: 8 or 6.
int vertex_count(ElementType type);

}  // namespace voxwave::integration
