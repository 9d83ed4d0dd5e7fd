// The boundary module: what holds and what absorbs at the six faces of the box.
//
// BoundaryConditions is the one description of the boundary: a FaceCondition for each face (free,
// fixed, absorbing of a type, or fixed with a sponge behind it) and the fixed points. It is built
// once from the scene's BoundarySpec (boundary_conditions() below). boundary_nodes()
// (boundary_nodes.hpp) turns it, on a voxel grid, into what the steppers consume: the per-node
// damping of the sponge layers, the PML's per-axis profiles and the fixed nodes (a PML's outer
// face among them). WaveProblem carries that result; every stepper (CPU, CUDA split and fused,
// TCOVFEM) reads the sponge through update_coefficients(), the CPU stepper builds the PML's
// tables (pml_tables, pml_layer.hpp), and the distributed run gives each subdomain its share
// (BoundaryNodes::node_box) and turns it with the model (BoundaryNodes::turned).
//
// How an absorbing type plugs in (the sponge and the convolutional PML are the two):
//  1. AbsorbingType gets a value and a name (to_string); boundary_conditions() sets it on the
//     faces whose scene entry asks for it (boundary.absorbing.type), with its parameters in
//     FaceCondition (thickness is shared by every type; the PML adds its reflection target,
//     kappa_max, alpha_max, frequency). The scene keys and their checks live in scene/scene.hpp,
//     scene/run_rules.hpp (defaults, ranges) and scene/scene_validate.cpp.
//  2. One file pair in this folder builds its layer from the BoundaryConditions and the grid:
//     sponge_layer.cpp builds the sponge's node damping, which adds into BoundaryNodes::node_damping
//     (mass-proportional damping, which the update factors already apply). pml_layer.cpp builds
//     the PML's 1-D profiles d, kappa, alpha along each axis (PmlLayer) and, from them, the flat
//     tables a kernel runs on (pml_tables: the layer's elements and nodes, their poles, recursion
//     factors and filter coefficients; memory for those only).
//  3. BoundaryNodes gets a member holding that layer, with its share in node_range() and
//     node_box() and its turn in turned(), so subdomains and turned models carry it exactly as
//     they carry the sponge (the PML keeps its whole profiles and an offset per axis).
//  4. Its kernels run where the layer is non-empty, beside the steppers' kernels: the PML's CPU
//     pass (wave/pml_correction_cpu.hpp) adds the layer elements' force corrections after the
//     stiffness product and replaces u+ at the layer's nodes
//     after the update. The CPU stepper then takes product and update as two passes (its fused
//     sweep never holds a finished force). The CUDA steppers run the same arithmetic
//     (pml_element_kernel.hpp is host-device) in wave/pml_correction_cuda.cuh: one kernel over the
//     layer's elements, one over its nodes, around the product in the split design and on u+
//     after the fused kernel. The rest of each stepper is unchanged.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "model/shapes.hpp"
#include "scene/scene.hpp"

namespace voxwave {

enum class AbsorbingType {
    None,    // no absorbing layer on the face
    Sponge,  // mass-proportional damping growing quadratically towards the face (sponge_layer.hpp)
    Pml,     // convolutional PML with complex frequency shift (pml_layer.hpp)
};
const char* to_string(AbsorbingType t);

struct FaceCondition {
    bool fixed = false;  // every node on the face held, all three components
    AbsorbingType absorbing = AbsorbingType::None;
    double thickness = 0;  // metres, of the absorbing layer (0 without one)
    // PML only (pml_layer.hpp): the target reflection R, the real stretch on the face, the
    // frequency shift at the inner edge (absent: 2 pi frequency) and the frequency it is tuned to
    // (0: none known, the layer takes vp / (4 thickness)).
    double reflection = 0;
    double kappa_max = 1;
    std::optional<double> alpha_max;
    double frequency = 0;

    bool free() const { return !fixed && absorbing == AbsorbingType::None; }
    bool operator==(const FaceCondition&) const = default;
};

struct BoundaryConditions {
    // Indexed like kBoundaryFaceNames: x-, x+, y-, y+, z-, z+ (index = 2 axis + upper side).
    std::array<FaceCondition, 6> faces{};
    std::vector<Vec3> fixed_points;  // metres; each snapped to its nearest node, all three components held

    // Whether any face carries an absorbing layer of type t.
    bool absorbs(AbsorbingType t) const;
    bool operator==(const BoundaryConditions&) const = default;
};

inline int face_axis(int face) { return face / 2; }
inline bool face_is_upper(int face) { return face % 2 == 1; }

// The conditions a scene's boundary asks for: the faces of boundary.fixed_faces fixed, those of
// boundary.absorbing.faces a layer of boundary.absorbing.type and thickness, a PML with the
// scene's keys or their defaults (scene/run_rules.hpp; source_frequency is the frequency of the
// sources, pml_default_frequency, used when the scene names none). Throws InputError("",
// "boundary.<list>[i]", ...) for a face name that is not one of kBoundaryFaceNames.
BoundaryConditions boundary_conditions(const BoundarySpec& spec, double source_frequency = 0);

}  // namespace voxwave
