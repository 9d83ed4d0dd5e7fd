// Isotropic elastic materials and the material library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace voxwave {

// One isotropic linear elastic medium, SI units.
struct Material {
    std::string name;
    double density = 0;  // kg/m^3
    double vp = 0;       // P-wave speed, m/s
    double vs = 0;       // S-wave speed, m/s
    std::string color = "#808080";
    std::string source;  // where the values come from (library entries); free text

    double shear_modulus() const { return density * vs * vs; }                         // G = rho vs^2
    double lame_lambda() const { return density * (vp * vp - 2.0 * vs * vs); }         // lambda
    double bulk_modulus() const { return density * (vp * vp - 4.0 / 3.0 * vs * vs); }  // kappa
    double poisson_ratio() const;

    bool operator==(const Material&) const = default;
};

// The reserved name of "no element here" (material id 0 in every voxel grid).
inline constexpr const char* kVoidMaterialName = "void";

// Throws InputError(file, field, reason) unless: name non-empty and not "void", every number
// finite, density > 0, vp > 0, vs >= 0, bulk modulus > 0 (i.e. vp > 2/sqrt(3) vs),
// color of the form #rrggbb. FIELD is prefixed with `field` (e.g. "materials[2]").
void validate_material(const Material& m, const std::string& file, const std::string& field);

// The material library shipped in assets/materials/library.json
// ({"format": "voxwave-materials", "version": 1, "materials": [ {name, density, vp, vs, color, source}, ... ]}).
// Throws InputError naming the file and the field on any problem.
std::vector<Material> load_material_library(const std::string& path);

// Writes `materials` as a library that load_material_library reads back equal, atomically (a
// failed write leaves the file as it was). Throws InputError(path, "materials[i]...", reason)
// for an entry load_material_library would refuse (validate_material, duplicate names, no
// source), writing nothing.
void write_material_library(const std::string& path, const std::vector<Material>& materials);

}  // namespace voxwave
