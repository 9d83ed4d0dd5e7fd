// The hierarchical basis transform of seed 002 §1.2: nodal values x = S x~ with
// S = S_L ... S_{l0+1}; S_l is the identity plus, for each node new on level l, the
// interpolation weights of its parents (1/2 at the ends of the coarse edge, 1/4 at the corners
// of a coarse square). Below level l0 the basis stays nodal.
#pragma once

#include <vector>

#include "poisson/poisson_assembly.hpp"

namespace voxwave::poisson {

// The factor S_l (unknowns x unknowns).
SparseMatrixd hierarchical_step(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns, int level);
// S = S_L ... S_{base_level+1}.
SparseMatrixd hierarchical_transform(const PoissonMesh& mesh, const std::vector<int>& dof, int unknowns,
                                     int base_level);

}  // namespace voxwave::poisson
