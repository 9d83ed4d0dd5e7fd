#include "model/material.hpp"

#include <cctype>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"

namespace voxwave {
namespace {

bool is_color(const std::string& c) {
    if (c.size() != 7 || c[0] != '#') return false;
    for (std::size_t i = 1; i < 7; ++i)
        if (!std::isxdigit(static_cast<unsigned char>(c[i]))) return false;
    return true;
}

}  // namespace

double Material::poisson_ratio() const {
    double p2 = vp * vp, s2 = vs * vs;
    return (p2 - 2.0 * s2) / (2.0 * (p2 - s2));
}

void validate_material(const Material& m, const std::string& file, const std::string& field) {
    auto at = [&](const char* key) { return field.empty() ? std::string(key) : field + "." + key; };
    if (m.name.empty()) throw InputError(file, at("name"), "must not be empty");
    if (m.name == kVoidMaterialName)
        throw InputError(file, at("name"), "'void' is reserved (it means no element) and cannot be redefined");

    auto check = [&](const char* key, double v, bool zero_ok) {
        if (!std::isfinite(v)) throw InputError(file, at(key), "must be a finite number");
        if (zero_ok ? v < 0 : v <= 0)
            throw InputError(file, at(key),
                             std::string(zero_ok ? "must be >= 0" : "must be > 0") + " (got " + format_number(v) + ")");
    };
    check("density", m.density, false);
    check("vp", m.vp, false);
    check("vs", m.vs, true);
    // A non-positive bulk modulus has no stable elastic solution (the wave equation blows up).
    if (!(m.vp * m.vp > 4.0 / 3.0 * m.vs * m.vs))
        throw InputError(file, at("vs"),
                         "must be below sqrt(3)/2 vp = " + format_number(std::sqrt(0.75) * m.vp) +
                             " m/s so that the bulk modulus is positive (got " + format_number(m.vs) + ")");
    if (!is_color(m.color)) throw InputError(file, at("color"), "must look like #rrggbb (got '" + m.color + "')");
}

}  // namespace voxwave
