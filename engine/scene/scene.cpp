#include "scene/scene.hpp"

#include <cmath>
#include <filesystem>
#include <numbers>

#include "core/errors.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave {
namespace {

template <class Enum, std::size_t N>
Enum parse_enum(const std::string& s, const std::string& field, const char* what, const char* const (&names)[N]) {
    for (std::size_t i = 0; i < N; ++i)
        if (s == names[i]) return static_cast<Enum>(i);
    std::string expected;
    for (std::size_t i = 0; i < N; ++i) expected += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i];
    throw InputError("", field, std::string("unknown ") + what + " '" + s + "' (expected " + expected + ")");
}

// Same order as the enums.
const char* const kMethods[] = {"vfem", "ovfem", "tcovfem", "sem"};
const char* const kPrecisions[] = {"fp64", "fp32"};
const char* const kWavelets[] = {"ricker", "tone_burst", "bandpass", "samples"};

}  // namespace

bool Scene::operator==(const Scene& o) const {
    return grid == o.grid && materials == o.materials && background == o.background && shapes == o.shapes &&
           voxels == o.voxels && sources == o.sources && receivers == o.receivers && probes == o.probes &&
           scan == o.scan && boundary == o.boundary && damping == o.damping && run == o.run && snapshots == o.snapshots;
}

int Scene::material_id(const std::string& name) const {
    if (name == kVoidMaterialName) return kVoidId;
    for (std::size_t i = 0; i < materials.size(); ++i)
        if (materials[i].name == name) return static_cast<int>(i) + 1;
    std::string known = "void";
    for (const auto& m : materials) known += ", " + m.name;
    throw InputError("", "material", "unknown material '" + name + "' (the scene defines: " + known + ")");
}

BoxShape probe_wedge_block(const ProbeSpec& p) {
    BoxShape box;
    if (!p.wedge) return box;
    // The beam leaves the aperture sideways by height tan(angle) on its way down: the default
    // length keeps that shift inside the block on both sides (a block only as long as the
    // aperture would reflect the beam's leading part off its end face).
    const double shift = p.wedge->height * std::tan(p.wedge->angle * std::numbers::pi / 180);
    const double length =
        p.wedge->length > 0 ? p.wedge->length : (p.elements - 1) * p.pitch + p.element_width + 2 * shift;
    const double width = p.wedge->width > 0 ? p.wedge->width : p.elevation;
    for (std::size_t a = 0; a < 3; ++a) {
        const double n = p.normal[a] > 0 ? 1.0 : p.normal[a] < 0 ? -1.0 : 0.0;
        const double u = std::abs(p.array_axis[a]) > 0 ? 1.0 : 0.0;
        // Along the normal the block spans [surface - height, surface] (towards -normal); along
        // the axis +-length / 2; along the third axis +-width / 2.
        const double lo = n > 0 ? -p.wedge->height : n < 0 ? 0.0 : u > 0 ? -0.5 * length : -0.5 * width;
        const double hi = n > 0 ? 0.0 : n < 0 ? p.wedge->height : u > 0 ? 0.5 * length : 0.5 * width;
        box.min[a] = p.center[a] + lo;
        box.max[a] = p.center[a] + hi;
    }
    return box;
}

int parse_boundary_face(const std::string& name, const std::string& field) {
    for (std::size_t f = 0; f < kBoundaryFaceNames.size(); ++f)
        if (name == kBoundaryFaceNames[f]) return static_cast<int>(f);
    throw InputError("", field, "unknown face '" + name + "' (expected x-, x+, y-, y+, z- or z+)");
}

const char* to_string(Method m) { return kMethods[static_cast<int>(m)]; }
const char* to_string(Precision p) { return kPrecisions[static_cast<int>(p)]; }
const char* to_string(WaveletType t) { return kWavelets[static_cast<int>(t)]; }

Method parse_method(const std::string& s, const std::string& field) {
    return parse_enum<Method>(s, field, "method", kMethods);
}
Precision parse_precision(const std::string& s, const std::string& field) {
    return parse_enum<Precision>(s, field, "precision", kPrecisions);
}
WaveletType parse_wavelet_type(const std::string& s, const std::string& field) {
    return parse_enum<WaveletType>(s, field, "wavelet type", kWavelets);
}

std::string resolve_path(const std::string& base_dir, const std::string& file) {
    std::filesystem::path p(file);
    if (base_dir.empty() || p.is_absolute()) return file;
    return (std::filesystem::path(base_dir) / p).string();
}

void rebase_file_references(Scene& scene, const std::string& new_base_dir) {
    namespace fs = std::filesystem;
    const fs::path to = fs::absolute(fs::path(new_base_dir)).lexically_normal();
    auto rebase = [&](std::string& file) {
        if (file.empty() || fs::path(file).is_absolute()) return;
        const fs::path from = fs::absolute(fs::path(resolve_path(scene.base_dir, file))).lexically_normal();
        const fs::path rel = from.lexically_relative(to);
        file = rel.empty() ? from.string() : rel.string();
    };
    if (scene.voxels) rebase(scene.voxels->file);
    for (Source& src : scene.sources)
        if (src.wavelet.type == WaveletType::Samples) rebase(src.wavelet.file);
    for (Shape& shape : scene.shapes)
        if (auto* stl = std::get_if<StlShape>(&shape.geometry)) rebase(stl->file);
    for (ProbeSpec& probe : scene.probes)
        if (probe.wavelet.type == WaveletType::Samples) rebase(probe.wavelet.file);
    scene.base_dir = to.string();
}

}  // namespace voxwave
