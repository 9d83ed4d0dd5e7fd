// The boundary module: what holds and what absorbs at the six faces of the box.
//
// BoundaryConditions is the one description of the boundary: a FaceCondition for each face (free,
// fixed, absorbing of a type, or fixed with an absorbing layer behind it) and the fixed points. It
// is built once from the scene's BoundarySpec (boundary_conditions() below). boundary_nodes()
// (boundary_nodes.hpp) turns it, on a voxel grid, into what the steppers consume: the per-node
// damping of the sponge layers and the fixed nodes. WaveProblem carries that result; every
// stepper (CPU, CUDA split and fused, TCOVFEM) reads it through update_coefficients(), and the
// distributed run gives each slab its share (BoundaryNodes::node_range) and turns it with the
// model (BoundaryNodes::turned).
//
// How an absorbing type plugs in (the sponge is the one today; the convolutional PML is next):
//  1. AbsorbingType gets a value and a name (to_string); boundary_conditions() sets it on the
//     faces whose scene entry asks for it, with its parameters in FaceCondition (thickness is
//     shared by every type; a PML adds its reflection target, kappa_max, alpha_max, frequency).
//  2. One file pair in this folder builds its layer from the BoundaryConditions and the grid, as
//     sponge_layer.cpp builds the sponge's node damping. A type that only damps nodes adds into
//     BoundaryNodes::node_damping (mass-proportional damping, which the update factors already
//     apply). A CPML instead builds a layer of its own: the layer's elements and nodes, its
//     profiles d, kappa, alpha along each axis at those nodes, and the sizes of its memory
//     variables, which exist for the layer's elements and nodes only.
//  3. BoundaryNodes gets a member holding that layer, with its share in node_range() and its turn
//     in turned(), so slabs and turned models carry it exactly as they carry the sponge.
//  4. Its kernels (a CPU one and a CUDA one, beside the steppers' kernels) run where the layer is
//     non-empty: a CPML corrects the stiffness forces of its layer elements from the memory
//     variables and advances those each step; the steppers call them after the stiffness product
//     and before the node update. The fused steps (the CPU sweep, the CUDA fused kernels) never
//     hold a finished force in memory, so they hand the layer's node planes to the split product
//     and update, or apply the correction in the kernel where a plane's force is complete. The
//     rest of each stepper is unchanged.
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
    // frequency shift at the inner edge (absent: pi frequency) and the frequency it is tuned to
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
