// HDF5 outputs of the element and dispersion tools (`voxwave-cli element|dispersion`;
// docs/architecture.md#files-and-cli).
#pragma once

#include <string>

#include "wave/dispersion.hpp"
#include "wave/voxel_element_matrix.hpp"

namespace voxwave {

// /stiffness (24 x 24), /mass (24); attributes method, spacing, density, vp, vs. Atomic.
void write_element_h5(const std::string& path, const std::string& method, double ds, const Material& m,
                      const ElementMatrix& k, const Eigen::Matrix<double, 24, 1>& mass);
// /ppw (n), /directions (m x 3), /velocity_ratio (m x n x modes: 3, or 2 in plane strain); attributes method, spacing,
// dt. Atomic.
void write_dispersion_h5(const std::string& path, const std::string& method, double ds, double dt,
                         const DispersionTable& t);

}  // namespace voxwave
