// The probes drawn over a slice of the wavefield view (issue 35): each probe's face (every element
// of an array) and the beam its delay law launches, so that the computed wave can be read against
// them. Geometry only; the view paints it.
//
// The beam leaves the middle of the active aperture along the law's angle theta from the normal,
// in the plane of the normal and the array axis (steer: the angle; focus: towards the focal
// point (depth tan(angle), depth); none and custom: the normal). On a wedge (a flat block of
// height h under the face, probe_wedge_block) it crosses the block at the incidence alpha of
// Snell's law, sin(alpha) / c_wedge = sin(theta) / c (law none: alpha the wedge's angle), and
// enters the specimen h tan(alpha) further along the axis. It ends at the focal point, else
// where it leaves the grid.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "model/voxel_grid.hpp"
#include "scene/scene.hpp"
#include "wave/slice.hpp"

namespace voxwave {

struct ProbeBeam {
    std::string name;
    std::vector<std::vector<Vec3>> faces;  // closed outlines (m): a piston's face, an array's elements
    int normal_axis = 2;                   // the grid axis of the face's normal
    std::vector<Vec3> beam;                // polyline (m): start on the face, [the wedge's exit], end
    bool focused = false;                  // the beam ends at the law's focal point
    double angle = 0;                      // theta in the specimen, degrees
};

// Every probe of the scene whose face lies on a surface of `grid` (others are left out: the run
// refuses them with its own message).
std::vector<ProbeBeam> probe_beams(const Scene& scene, const VoxelGrid& grid);

// A probe on node plane `node_plane` of `plane`, in slice node coordinates (a, b) as
// analytic_wavefronts.hpp (node (a, b) of the slice image).
struct SliceProbe {
    std::string name;
    std::vector<std::vector<std::array<double, 2>>> faces;  // each closed
    bool cut = false;  // the slice passes through the face (else the faces are its projection)
    std::vector<std::array<double, 2>> beam;
    bool focused = false;
};
std::vector<SliceProbe> slice_probes(const std::vector<ProbeBeam>& beams, const VoxelGrid& grid, SlicePlane plane,
                                     int node_plane);

}  // namespace voxwave
