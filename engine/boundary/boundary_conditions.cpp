#include "boundary/boundary_conditions.hpp"

namespace voxwave {

const char* to_string(AbsorbingType t) {
    switch (t) {
        case AbsorbingType::None:
            return "none";
        case AbsorbingType::Sponge:
            return "sponge";
    }
    return "?";
}

bool BoundaryConditions::absorbs(AbsorbingType t) const {
    for (const FaceCondition& f : faces)
        if (f.absorbing == t) return true;
    return false;
}

namespace {

int face_of(const std::vector<std::string>& list, std::size_t i, const std::string& field) {
    return parse_boundary_face(list[i], field + "[" + std::to_string(i) + "]");
}

}  // namespace

BoundaryConditions boundary_conditions(const BoundarySpec& spec) {
    BoundaryConditions bc;
    bc.fixed_points = spec.fixed_points;
    for (std::size_t i = 0; i < spec.fixed_faces.size(); ++i)
        bc.faces[std::size_t(face_of(spec.fixed_faces, i, "boundary.fixed_faces"))].fixed = true;
    for (std::size_t i = 0; i < spec.absorbing.faces.size(); ++i) {
        FaceCondition& f = bc.faces[std::size_t(face_of(spec.absorbing.faces, i, "boundary.absorbing.faces"))];
        f.absorbing = AbsorbingType::Sponge;
        f.thickness = spec.absorbing.thickness;
    }
    return bc;
}

}  // namespace voxwave
