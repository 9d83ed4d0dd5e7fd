// Run rules: the limits a scene's run settings must keep, defined once.
//
// validate_scene applies them to user input (the check_* functions: one-line InputError naming
// file, field and reason); the engines assert them (the predicates: a broken one there is a
// caller that skipped validate_scene, a programming error); the GUI's controls take their ranges
// from the constants, so a panel never offers a value the validator refuses.
#pragma once

#include <cstdint>
#include <numbers>
#include <string>

#include "scene/scene.hpp"

namespace voxwave {

// TCOVFEM's INT8 digits M: an input is one INT64 of 7 M bits, and 8 digits of 7 bits are the
// 56 bits an FP64 product can hold exactly (tcovfem_int8.hpp).
inline constexpr int kTcovfemMinStages = 1;
inline constexpr int kTcovfemMaxStages = 8;
constexpr bool tcovfem_stages_allowed(std::int64_t stages) {
    return stages >= kTcovfemMinStages && stages <= kTcovfemMaxStages;
}
// A scene that names no M gets FP64-level accuracy (RunSpec is declared before these rules).
static_assert(RunSpec{}.stages == kTcovfemMaxStages);

// The spectral elements' polynomial order p (run.method "sem"): p = 1 is the trilinear voxel
// (VFEM with GLL-lumped mass), and above 4 the time step shrinks as p^-2 for little gain at the
// ppw the voxel models use. A scene that names none gets the most accurate.
inline constexpr int kSemMinOrder = 2;
inline constexpr int kSemMaxOrder = 4;
constexpr bool sem_order_allowed(std::int64_t order) { return order >= kSemMinOrder && order <= kSemMaxOrder; }
static_assert(RunSpec{}.order == kSemMaxOrder);

// TCOVFEM computes in INT8 digits and an FP64 diagonal: it has no FP32 variant. VFEM and OVFEM
// run in both precisions.
constexpr bool precision_allowed(Method method, Precision precision) {
    return method != Method::Tcovfem || precision == Precision::Fp64;
}
// The precision a method runs at when `wanted` is asked for: wanted where allowed, else FP64
// (the GUI's method switch keeps a scene valid this way).
constexpr Precision allowed_precision(Method method, Precision wanted) {
    return precision_allowed(method, wanted) ? wanted : Precision::Fp64;
}

// Voxel spacing in metres: 0.01 mm (a 2 cm specimen already has 8e9 elements there) to 1 m.
inline constexpr double kMinSpacing = 1e-5;
inline constexpr double kMaxSpacing = 1.0;
constexpr bool spacing_allowed(double spacing) { return spacing >= kMinSpacing && spacing <= kMaxSpacing; }

// Time step: a requested dt of 0 means kAutoDtFraction of the model's stable central-difference
// limit (a margin for the limit's own rounding); a requested dt must not exceed the limit.
inline constexpr double kAutoDtFraction = 0.9;
constexpr double run_time_step(double requested_dt, double dt_stable) {
    return requested_dt > 0 ? requested_dt : kAutoDtFraction * dt_stable;
}
constexpr bool time_step_stable(double dt, double dt_stable) { return dt <= dt_stable; }

// The PML's parameters (boundary.absorbing with type pml; engine/boundary/pml_layer.hpp uses them).
// Defaults: the design reflection R = 1e-3 of Komatitsch & Martin (2007), no real stretch
// (kappa_max = 1: the voxel elements need none to stay stable, and kappa > 1 only helps grazing
// evanescent waves), and the frequency shift alpha_max = 2 pi f with f the frequency key or,
// without it, pml_default_frequency of the sources. Why 2 pi f, not Komatitsch & Martin's pi f:
// measured with the setup (bench/results/boundary.md), the 10-cell layer's worst receiver
// (the corner) goes from -44.5 to -47.3 dB (VFEM), -45.6 to -48.2 (OVFEM), every receiver gains
// 2-3 dB (a 20-cell layer gives up 3.5-5 dB, still below -59 dB); a smaller
// alpha_max or R, or kappa_max > 1, reflects more on this grid (the discrete layer's own
// reflection of the low frequencies, whose stretch d / (alpha + i omega) a small alpha leaves
// steep, dominates the round trip to the held face). Both methods alike: not a per-method default.
inline constexpr double kPmlDefaultReflection = 1e-3;
inline constexpr double kPmlDefaultKappaMax = 1.0;
inline constexpr double kPmlDefaultAlphaPerHz = 2.0 * std::numbers::pi;  // alpha_max = this x frequency
constexpr bool pml_reflection_allowed(double r) { return r > 0 && r < 1; }
constexpr bool pml_kappa_max_allowed(double k) { return k >= 1; }
// The frequency the PML is tuned to when the scene names none: the highest centre frequency of the
// sources' wavelets (Ricker and tone burst: their frequency; band-pass: the geometric mean of its
// edges); 0 when no source has one (sampled wavelets), and the layer then takes vp / (4 L).
double pml_default_frequency(const std::vector<Source>& sources);

// Probes and scans (engine/probe): an array has 1 to kMaxProbeElements elements (the largest
// commercial linear arrays have 256; more is a typo, not a probe); a scan line or raster row
// 1 to kMaxScanPositions shots; a steering angle lies strictly inside (-90, 90) degrees from
// the normal (90 would be a wave along the surface, past it the beam leaves the specimen).
inline constexpr int kMaxProbeElements = 1024;
inline constexpr int kMaxScanPositions = 10000;
inline constexpr double kMaxProbeLawAngleDegrees = 90.0;
constexpr bool probe_law_angle_allowed(double degrees) {
    return degrees > -kMaxProbeLawAngleDegrees && degrees < kMaxProbeLawAngleDegrees;
}

// The user-facing checks, each throwing InputError(file, field, reason) with the one message of
// its rule (a command-line option passes its own name as the field).
void check_tcovfem_stages(std::int64_t stages, const std::string& file, const std::string& field);
void check_precision(Method method, Precision precision, const std::string& file, const std::string& field);
void check_sem_order(std::int64_t order, const std::string& file, const std::string& field);
void check_spacing(double spacing, const std::string& file, const std::string& field);

}  // namespace voxwave
