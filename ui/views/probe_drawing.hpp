// What the slice editor and the 3D view draw of a probe (docs/architecture.md#probes-and-scans):
// its elements' faces, the outline of the whole face and the beam's direction, in model
// coordinates (metres). A probe on a wedge is drawn on the block's top, where its face lies.
#pragma once

#include <array>
#include <vector>

#include "scene/scene.hpp"

namespace voxwave::ui {

struct ProbeDrawing {
    Vec3 face_center{};                         // the face's centre (on a wedge: on its top)
    std::vector<std::array<Vec3, 4>> elements;  // each element's corners (a disk: its bounding square)
    std::vector<Vec3> outline;                  // closed polygon round the face (a disk: 32 points)
    Vec3 along{1, 0, 0}, across{0, 1, 0};       // unit: the face's axes, along the array axis and across it
    Vec3 beam{};                                // unit: the beam's direction in the specimen
    double beam_angle = 0;                      // degrees from the normal, towards +array_axis
};

// The beam's angle in the specimen: the law's angle for steer and focus; for law none on a
// wedge, the wedge's incidence refracted by Snell's law at the speeds given (wedge_velocity,
// velocity; 0 when unknown: the incidence itself); 0 otherwise.
double probe_beam_angle(const ProbeSpec& probe, double wedge_velocity = 0, double velocity = 0);

ProbeDrawing probe_drawing(const ProbeSpec& probe, double wedge_velocity = 0, double velocity = 0);

}  // namespace voxwave::ui
