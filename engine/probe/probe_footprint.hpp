// Where a probe touches the voxel model (docs/architecture.md#probes-and-scans): its face on a
// node plane of the grid, and each element's footprint as consistent nodal weights of the
// surface integral over the voxel faces below it,
//
//     w_i = integral over the footprint of N_i dS    (m^2; sum_i w_i = the footprint's area),
//
// N_i the bilinear shape function of face node i. A uniform traction t on the footprint is then
// the nodal forces w_i t, and the mean of a field over it is sum_i w_i f_i / sum_i w_i. Footprints
// below one voxel are resolved by area weighting: an axis-aligned rectangle exactly (the overlap
// with each voxel face integrated in closed form), a disk or a turned rectangle by a 16 x 16
// midpoint rule on each voxel face.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/material.hpp"
#include "model/voxel_grid.hpp"
#include "scene/scene.hpp"

namespace voxwave {

struct NodalWeight {
    std::size_t node = 0;
    double weight = 0;  // m^2
};

struct ProbeFootprint {
    int normal_axis = 2;                             // the grid axis of the normal
    Vec3 center{};                                   // the probe's centre moved onto the face's node plane
    Vec3 normal{}, axis{}, direction{};              // unit: into the specimen, along the array, traction / reception
    std::vector<double> offsets;                     // element centres along `axis` (delay_law.hpp), metres
    std::vector<std::vector<NodalWeight>> elements;  // per element, nodes in increasing order
    std::vector<double> areas;                       // per element: sum of its weights, m^2
    MaterialId material = kVoidId;                   // of the element under the centre (a wedge's: the wedge)
    MaterialId specimen = kVoidId;                   // of the element under the centre, below any wedge
    double wedge_height = 0;                         // metres from the face down to the specimen (0: no wedge)
};

// The probe `probe` (scene field `field`) on a wedge has its face on the wedge block's top:
// its centre moved back against the normal by the wedge's height.
// The probe `probe` (scene field `field`, e.g. "probes[0]") on `grid`. Throws
// InputError(label, field.key, "probe 'NAME': reason") when its face lies on no surface of the
// model (material on the specimen side and void or the grid's edge behind it, under every part of
// every footprint) or a footprint reaches outside the grid.
ProbeFootprint probe_footprint(const ProbeSpec& probe, const VoxelGrid& grid, const std::string& label,
                               const std::string& field);

// The wave speed of the probe's default law in the specimen: vp of the material under it (under
// its wedge), vs in shear mode or, on a wedge, when the wedge's angle is past the first critical
// angle (sin(angle) > c_wedge / vp: only the shear wave refracts, the angle-beam design).
double probe_law_velocity(const ProbeSpec& probe, const ProbeFootprint& footprint,
                          const std::vector<Material>& materials);

}  // namespace voxwave
