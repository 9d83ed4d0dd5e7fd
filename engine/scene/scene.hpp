// A scene: model + sources + receivers + boundary + damping + run settings (docs/architecture.md#files-and-cli).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "model/material.hpp"
#include "model/shapes.hpp"

namespace voxwave {

struct GridSpec {
    Vec3 size{0, 0, 0};  // metres; element counts are round(size / spacing)
    double spacing = 0;
    Vec3 origin{0, 0, 0};
    // 3, or 2 for a plane-strain scene (grid.size with two entries): every vector of the scene
    // then has two entries and reads with z = 0; the model is one element layer.
    int dimensions = 3;
    bool plane_strain() const { return dimensions == 2; }
    bool operator==(const GridSpec&) const = default;
};

struct VoxelsRef {
    std::string file;     // as written in the scene (relative paths are relative to the scene file)
    std::string dataset;  // e.g. "/model/material_ids"
    bool operator==(const VoxelsRef&) const = default;
};

enum class WaveletType { Ricker, ToneBurst, Bandpass, Samples };

struct Wavelet {
    WaveletType type = WaveletType::Ricker;
    double frequency = 0;          // ricker, tone_burst (Hz)
    double cycles = 0;             // tone_burst
    double f_low = 0, f_high = 0;  // bandpass (Hz)
    double delay = 0;              // ricker, tone_burst, bandpass (s)
    std::string file, dataset;     // samples: CSV (one value per line, or "t,value") or HDF5
    double sample_dt = 0;          // samples: spacing of the samples (s); JSON key "dt"
    std::vector<double> samples;   // samples: loaded by the reader (not written back)
    bool operator==(const Wavelet&) const = default;
};

struct Source {
    std::string name;
    Vec3 position{0, 0, 0};
    Vec3 direction{0, 0, 1};  // non-zero; normalised by the engine
    double amplitude = 1.0;   // newtons
    Wavelet wavelet;
    bool operator==(const Source&) const = default;
};

struct Receiver {
    std::string name;
    Vec3 position{0, 0, 0};
    bool operator==(const Receiver&) const = default;
};

// A probe's delay law (engine/probe/delay_law.hpp computes it): "none", "steer" (plane wave at
// `angle` degrees from the normal, in the plane of normal and array_axis, positive towards
// +array_axis), "focus" (cylindrical focus at `depth` on the steered ray) or "custom" (`delays`,
// one per element, seconds). `velocity` (m/s) absent: vp of the material under the probe (vs in
// shear mode).
struct DelayLawSpec {
    std::string type = "none";
    double angle = 0;  // degrees
    double depth = 0;  // metres (focus)
    std::optional<double> velocity;
    std::vector<double> delays;  // custom
    bool operator==(const DelayLawSpec&) const = default;
};

// An angle-beam wedge under a probe (docs/architecture.md#probes-and-scans): a block of
// `material` (a name in the scene's materials, e.g. the library's "rexolite") `height` thick
// along the normal, `length` along array_axis and `width` across it, painted at rasterisation on
// the surface where the probe's centre lies; the probe then sits on its top face. The slope of
// `angle` degrees (the incidence in the wedge, towards +array_axis) is realised by the delay law
// (engine/probe/delay_law.hpp): voxel faces are axis-aligned, so the block's top is flat.
// length or width 0: defaults from the probe (probe_wedge_block).
struct WedgeSpec {
    std::string material;
    double angle = 0;   // degrees, in (0, 90)
    double height = 0;  // metres
    double length = 0, width = 0;
    bool operator==(const WedgeSpec&) const = default;
};

// A contact transducer on a surface of the model (engine/probe): a piston (one element, a disk
// or a rectangle) or a linear array of `elements` rectangles `element_width` x `elevation` at
// `pitch` along `array_axis`. Transmitting, its face carries the traction amplitude x wavelet
// along the normal (mode "normal") or the polarization (mode "shear"), each element delayed by
// its law; receiving, it records the mean particle velocity along the same direction over each
// element's face.
struct ProbeSpec {
    std::string name;
    std::string type = "piston";   // "piston" | "array"
    Vec3 center{0, 0, 0};          // metres: centre of the active face, on a surface of the model
    Vec3 normal{0, 0, 1};          // into the specimen, along a grid axis
    std::string shape = "disk";    // piston: "disk" | "rect"
    double diameter = 0;           // disk
    double width = 0, length = 0;  // rect: width along array_axis, length across it
    Vec3 array_axis{1, 0, 0};      // array (and a rect's width direction): in the face
    int elements = 1;
    double pitch = 0, element_width = 0, elevation = 0;  // array
    std::string mode = "normal";                         // "normal" | "shear"
    Vec3 polarization{0, 0, 0};                          // shear: traction direction, in the face
    double amplitude = 1.0;                              // Pa
    Wavelet wavelet;
    DelayLawSpec delay_law;
    std::optional<WedgeSpec> wedge;          // centre: on the specimen, under the wedge
    int active_first = 0, active_count = 0;  // "active": [first, count]; count 0 = every element
    bool transmit = true, receive = true;
    bool operator==(const ProbeSpec&) const = default;
    bool is_array() const { return type == "array"; }
    int element_count() const { return is_array() ? elements : 1; }
};

// The block a probe's wedge paints (an array with normal and array_axis along grid axes): from
// the surface through `center` back against the normal by the wedge's height, centred on the
// probe, the wedge's length (default: the aperture, (N - 1) pitch + element_width, plus
// 2 height tan(angle), the beam's sideways shift through the block, on each side) along the
// axis and its width (default: the elevation) across it. The one home of the wedge's geometry:
// rasterise paints it, validate_scene checks it fits the grid, probe_footprint lifts the face
// onto its top.
BoxShape probe_wedge_block(const ProbeSpec& probe);

// Shots of one probe moved over the model: "single" (one shot), "linear" (`positions` shots
// `step` apart: a B-scan) or "raster" (`positions2` lines `step2` apart of `positions` shots
// each: a C-scan). A gate [start, end] (s) makes each shot's gated peak amplitude the C-scan.
// Array acquisitions of an array probe where it stands (docs/architecture.md#imaging): "fmc"
// (full matrix capture: one shot per element, that element firing alone, every element
// receiving) and "pwi" (one plane-wave shot per entry of `angles`, degrees from the normal
// towards +array_axis).
struct ScanSpec {
    std::string probe;
    std::string type = "single";
    Vec3 step{0, 0, 0};
    int positions = 1;
    Vec3 step2{0, 0, 0};
    int positions2 = 1;
    bool gated = false;
    double gate_start = 0, gate_end = 0;
    std::vector<double> angles;  // pwi: degrees
    bool operator==(const ScanSpec&) const = default;
    bool array_acquisition() const { return type == "fmc" || type == "pwi"; }
};

// The six faces of the box as scenes name them. A face's index is 2 axis + (1 on the upper side):
// x-, x+, y-, y+, z-, z+. engine/boundary builds the per-face conditions from these names.
inline constexpr std::array<const char*, 6> kBoundaryFaceNames = {"x-", "x+", "y-", "y+", "z-", "z+"};
// Index of a face name in kBoundaryFaceNames; any other string throws
// InputError("", field, "unknown face '...' (expected x-, x+, y-, y+, z- or z+)").
int parse_boundary_face(const std::string& name, const std::string& field);

// Absorbing layers on the named faces, all of one type and thickness:
//   "pml"     a convolutional PML with complex frequency shift (engine/boundary/pml_layer.hpp);
//             what a new scene gets;
//   "sponge"  mass-proportional damping that grows quadratically from 0 at the inner edge of the
//             layer to its maximum on the face (engine/boundary/sponge_layer.hpp). A scene file
//             whose absorbing block names no type means this (files written before the PML).
// The PML keys are optional; absent, the defaults of scene/run_rules.hpp apply (kPml*).
struct AbsorbingSpec {
    std::vector<std::string> faces;
    double thickness = 0;              // metres
    std::string type = "pml";          // "pml" or "sponge"
    std::optional<double> reflection;  // PML: target reflection coefficient R of the layer at normal incidence
    std::optional<double> kappa_max;   // PML: real coordinate stretch on the face (>= 1)
    std::optional<double> alpha_max;   // PML: frequency shift at the layer's inner edge (1/s)
    std::optional<double> frequency;   // PML: frequency (Hz) for alpha_max's default; absent: the sources'
    bool operator==(const AbsorbingSpec&) const = default;
    bool pml() const { return type == "pml"; }
};

struct BoundarySpec {
    std::vector<Vec3> fixed_points;        // snapped to the nearest node, all 3 components fixed
    std::vector<std::string> fixed_faces;  // every node on these faces fixed
    AbsorbingSpec absorbing;
    bool operator==(const BoundarySpec&) const = default;
};

struct DampingSpec {
    std::string type = "none";  // "none" or "rayleigh"
    double ratio = 0;           // damping ratio reached at f_low and f_high
    double f_low = 0, f_high = 0;
    bool operator==(const DampingSpec&) const = default;
};

// run.snapshots: 3D wavefield snapshots written into the result file, with an XDMF file beside it
// (scene/snapshots.hpp; docs/architecture.md#wavefield-snapshots). Exactly one of `every` and
// `times` chooses the steps; the region (metres, inside the grid box) and the stride choose the
// nodes.
struct SnapshotRegion {
    Vec3 min{0, 0, 0}, max{0, 0, 0};
    bool operator==(const SnapshotRegion&) const = default;
};

struct SnapshotSpec {
    std::int64_t every = 0;                // a snapshot every `every` steps (n = every, 2 every, ...); 0: times
    std::vector<double> times;             // or at these times (s, ascending), each at its nearest step
    std::vector<std::string> fields{"u"};  // "u" displacement, "v" velocity
    std::optional<SnapshotRegion> region;  // absent: the whole grid
    std::int64_t stride = 1;               // every stride-th node along each axis
    bool operator==(const SnapshotSpec&) const = default;
};

enum class Method { Vfem, Ovfem, Tcovfem, Sem };
enum class Precision { Fp64, Fp32 };

struct RunSpec {
    Method method = Method::Ovfem;
    Precision precision = Precision::Fp64;
    int stages = 8;          // TCOVFEM INT8 digits M; the default is the most accurate (run_rules.hpp)
    double dt = 0;           // 0: kAutoDtFraction of the stable limit (run_rules.hpp)
    double duration = 0;     // seconds; ignored when steps > 0
    std::int64_t steps = 0;  // when > 0 takes precedence over duration
    Backend backend = Backend::Auto;
    int order = 4;  // SEM polynomial order p (run_rules.hpp); last, so brace-initialised specs keep their meaning
    bool operator==(const RunSpec&) const = default;
};

struct Scene {
    GridSpec grid;
    std::vector<Material> materials;  // material id = index + 1; id 0 is void
    std::string background = "void";
    std::vector<Shape> shapes;
    std::optional<VoxelsRef> voxels;
    std::vector<Source> sources;
    std::vector<Receiver> receivers;
    std::vector<ProbeSpec> probes;
    std::optional<ScanSpec> scan;
    BoundarySpec boundary;
    DampingSpec damping;
    RunSpec run;
    // The JSON key run.snapshots, kept beside RunSpec so that RunSpec stays a literal type (the
    // run rules check its defaults at compile time, in CUDA translation units too).
    std::optional<SnapshotSpec> snapshots;

    std::string base_dir;  // directory of the scene file (for relative paths); not serialised

    bool operator==(const Scene& o) const;  // compares everything except base_dir
    // Material id for a name: 0 for "void", index+1 otherwise; throws InputError if unknown.
    int material_id(const std::string& name) const;
};

const char* to_string(Method m);
const char* to_string(Precision p);
const char* to_string(WaveletType t);
// Parsers throw InputError("", field, "unknown method 'x' (expected vfem, ovfem, tcovfem or sem)").
Method parse_method(const std::string& s, const std::string& field = "method");
Precision parse_precision(const std::string& s, const std::string& field = "precision");
WaveletType parse_wavelet_type(const std::string& s, const std::string& field = "type");

// A path as written in a scene (voxels file, sample file) made usable: absolute paths and paths
// with an empty base_dir are returned unchanged, relative ones are taken from base_dir.
std::string resolve_path(const std::string& base_dir, const std::string& file);

// The scene as it must be written into `new_base_dir` (Save as into another folder): every
// relative file reference (voxels, sample wavelets) is rewritten to reach the same file from
// there (relative when both lie under one root, else absolute), and base_dir becomes new_base_dir.
void rebase_file_references(Scene& scene, const std::string& new_base_dir);

}  // namespace voxwave
