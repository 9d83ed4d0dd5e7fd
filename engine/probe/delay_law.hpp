// Delay laws of linear arrays (docs/architecture.md#probes-and-scans): the one home of the
// steering and focusing rules. Element e of N sits at x_e = (e - (N - 1) / 2) pitch along the
// array axis; a law gives each element the time (s, >= 0, the earliest 0) at which it fires.
#pragma once

#include <vector>

#include "scene/scene.hpp"

namespace voxwave {

// x_e of each element, metres from the array's centre along array_axis.
std::vector<double> probe_element_offsets(int elements, double pitch);

// The law's delays for elements at `offsets` in a specimen of wave speed `velocity` (m/s):
//   steer:  a plane wave leaving at `angle` from the normal, towards +array_axis for angle > 0:
//           d_e = x_e sin(angle) / c, shifted so that the earliest is 0;
//   focus:  a cylindrical wave converging on F = (depth tan(angle), depth) (along the axis, along
//           the normal): d_e = (max_k r_k - r_e) / c, r_e = |F - (x_e, 0)|;
//   custom: the law's delays as given; none: zeros.
std::vector<double> delay_law_delays(const DelayLawSpec& law, const std::vector<double>& offsets, double velocity);

// The law of elements in a wedge (speed `wedge_velocity`) at `offsets` along the axis and
// `heights` above the planar wedge/specimen interface (metres), into a specimen of speed
// `velocity`, by Fermat's principle: each element's travel time T_e is minimised over the point
// xi where its ray crosses the interface, and d_e = max_k T_k - T_e.
//   steer: to the plane wave leaving at `angle` in the specimen,
//          T_e = min_xi [ |(xi, 0) - (x_e, h_e)| / c_wedge - xi sin(angle) / c ];
//   focus: to F = (depth tan(angle), -depth), T_e = min_xi [ |.| / c_wedge + |F - (xi, 0)| / c ];
//   none:  the wedge's own slope of `wedge_angle` degrees: the plane wave in the wedge at that
//          incidence towards +axis, d_e = (x_e sin(a) - h_e cos(a)) / c_wedge shifted to >= 0.
// Throws std::invalid_argument for a steering angle no ray in the wedge reaches
// (c_wedge sin(angle) / c >= 1).
std::vector<double> wedge_delay_law_delays(const DelayLawSpec& law, double wedge_angle,
                                           const std::vector<double>& offsets, const std::vector<double>& heights,
                                           double wedge_velocity, double velocity);

}  // namespace voxwave
