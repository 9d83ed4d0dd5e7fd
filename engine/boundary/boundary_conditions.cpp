#include "boundary/boundary_conditions.hpp"

#include "scene/run_rules.hpp"

namespace voxwave {

const char* to_string(AbsorbingType t) {
    switch (t) {
        case AbsorbingType::None:
            return "none";
        case AbsorbingType::Sponge:
            return "sponge";
        case AbsorbingType::Pml:
            return "pml";
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

BoundaryConditions boundary_conditions(const BoundarySpec& spec, double source_frequency) {
    BoundaryConditions bc;
    bc.fixed_points = spec.fixed_points;
    for (std::size_t i = 0; i < spec.fixed_faces.size(); ++i)
        bc.faces[std::size_t(face_of(spec.fixed_faces, i, "boundary.fixed_faces"))].fixed = true;
    for (std::size_t i = 0; i < spec.absorbing.faces.size(); ++i) {
        FaceCondition& f = bc.faces[std::size_t(face_of(spec.absorbing.faces, i, "boundary.absorbing.faces"))];
        const AbsorbingSpec& a = spec.absorbing;
        f.thickness = a.thickness;
        if (!a.pml()) {
            f.absorbing = AbsorbingType::Sponge;
            continue;
        }
        f.absorbing = AbsorbingType::Pml;
        f.reflection = a.reflection.value_or(kPmlDefaultReflection);
        f.kappa_max = a.kappa_max.value_or(kPmlDefaultKappaMax);
        f.alpha_max = a.alpha_max;
        f.frequency = a.frequency.value_or(source_frequency);
    }
    return bc;
}

}  // namespace voxwave
