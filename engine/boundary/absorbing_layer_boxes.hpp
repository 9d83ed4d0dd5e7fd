// Where the absorbing layers lie in the box, for drawing them (the GUI's slice editor and 3D
// view): each layer covers its face and reaches `thickness` into the model along the face's
// axis, across the whole box along the other two (as sponge_layer and pml_layer grade it).
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "boundary/boundary_conditions.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave {

struct AbsorbingLayerBox {
    int face = 0;  // index into kBoundaryFaceNames
    AbsorbingType type = AbsorbingType::None;
    std::array<double, 3> lo{}, hi{};  // metres
};

// A layer's thickness in cells of a grid of spacing ds (not rounded: the layer grades by
// distance, so 10.5 cells is a layer that ends halfway through the eleventh cell).
inline double absorbing_layer_cells(double thickness, double ds) { return ds > 0 ? thickness / ds : 0.0; }

// The box of each absorbing face of bc on grid g, in face order; a layer thicker than the box
// stops at the opposite face.
inline std::vector<AbsorbingLayerBox> absorbing_layer_boxes(const BoundaryConditions& bc, const VoxelGrid& g) {
    std::vector<AbsorbingLayerBox> out;
    const auto ext = g.extent();
    for (int f = 0; f < 6; ++f) {
        const FaceCondition& fc = bc.faces[std::size_t(f)];
        if (fc.absorbing == AbsorbingType::None || !(fc.thickness > 0)) continue;
        AbsorbingLayerBox b;
        b.face = f;
        b.type = fc.absorbing;
        for (std::size_t a = 0; a < 3; ++a) {
            b.lo[a] = g.origin[a];
            b.hi[a] = g.origin[a] + ext[a];
        }
        const auto a = std::size_t(face_axis(f));
        const double t = std::min(fc.thickness, ext[a]);
        if (face_is_upper(f))
            b.lo[a] = b.hi[a] - t;
        else
            b.hi[a] = b.lo[a] + t;
        out.push_back(b);
    }
    return out;
}

}  // namespace voxwave
