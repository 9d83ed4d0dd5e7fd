// Scene files: every field is written, defaults included, so that write -> read gives back an
// equal Scene (doubles use nlohmann's shortest round-trip form).
#include "core/atomic_file.hpp"
#include "core/json_format.hpp"
#include "scene/scene_io.hpp"

namespace voxwave {
namespace {

using OJson = nlohmann::ordered_json;

// A 2D scene writes two entries (its z is 0).
// Probes, scans and STL placements are 3D only (2D scenes refuse them), hence the default.
OJson vec(const Vec3& v, int dimensions = 3) {
    return dimensions == 2 ? OJson::array({v[0], v[1]}) : OJson::array({v[0], v[1], v[2]});
}

OJson shape_json(const Shape& s, int d) {
    OJson j;
    std::visit(
        [&](const auto& g) {
            using T = std::decay_t<decltype(g)>;
            if constexpr (std::is_same_v<T, BoxShape>) {
                j["type"] = "box";
                j["material"] = s.material;
                j["min"] = vec(g.min, d);
                j["max"] = vec(g.max, d);
            } else if constexpr (std::is_same_v<T, CylinderShape>) {
                j["type"] = "cylinder";
                j["material"] = s.material;
                j["center"] = vec(g.center, d);
                j["axis"] = vec(g.axis, d);
                j["radius"] = g.radius;
                j["length"] = g.length;
            } else if constexpr (std::is_same_v<T, SphereShape>) {
                j["type"] = "sphere";
                j["material"] = s.material;
                j["center"] = vec(g.center, d);
                j["radius"] = g.radius;
            } else if constexpr (std::is_same_v<T, StlShape>) {
                j["type"] = "stl";
                j["material"] = s.material;
                j["file"] = g.file;
                j["scale"] = g.scale;
                j["translate"] = vec(g.translate, 3);
            } else {
                j["type"] = "aggregate";
                j["material"] = s.material;
                j["min"] = vec(g.min, d);
                j["max"] = vec(g.max, d);
                j["fraction"] = g.fraction;
                j["radius_min"] = g.radius_min;
                j["radius_max"] = g.radius_max;
                j["seed"] = g.seed;
            }
        },
        s.geometry);
    return j;
}

OJson wavelet_json(const Wavelet& w) {
    OJson j;
    j["type"] = to_string(w.type);
    switch (w.type) {
        case WaveletType::Ricker:
            j["frequency"] = w.frequency;
            j["delay"] = w.delay;
            break;
        case WaveletType::ToneBurst:
            j["frequency"] = w.frequency;
            j["cycles"] = w.cycles;
            j["delay"] = w.delay;
            break;
        case WaveletType::Bandpass:
            j["f_low"] = w.f_low;
            j["f_high"] = w.f_high;
            j["delay"] = w.delay;
            break;
        case WaveletType::Samples:
            // The samples themselves stay in their file, which the reader loads again.
            j["file"] = w.file;
            if (!w.dataset.empty()) j["dataset"] = w.dataset;
            j["dt"] = w.sample_dt;
            break;
    }
    return j;
}

// Every key of the probe, so that the file shows what the run used (the keys the other probe
// type uses keep their defaults).
OJson probe_json(const ProbeSpec& p) {
    OJson j = {{"name", p.name},
               {"type", p.type},
               {"center", vec(p.center, 3)},
               {"normal", vec(p.normal, 3)},
               {"mode", p.mode},
               {"amplitude", p.amplitude},
               {"wavelet", wavelet_json(p.wavelet)},
               {"transmit", p.transmit},
               {"receive", p.receive}};
    // Every geometric key, whichever the type uses, so that any scene that reads writes back equal.
    j["shape"] = p.shape;
    j["diameter"] = p.diameter;
    j["width"] = p.width;
    j["length"] = p.length;
    j["array_axis"] = vec(p.array_axis, 3);
    j["elements"] = p.elements;
    j["pitch"] = p.pitch;
    j["element_width"] = p.element_width;
    j["elevation"] = p.elevation;
    j["polarization"] = vec(p.polarization, 3);
    const DelayLawSpec& d = p.delay_law;
    OJson law = {{"type", d.type}, {"angle", d.angle}, {"depth", d.depth}};
    if (d.velocity) law["velocity"] = *d.velocity;
    if (!d.delays.empty()) law["delays"] = d.delays;
    j["delay_law"] = law;
    if (p.active_count > 0) j["active"] = {p.active_first, p.active_count};
    if (p.wedge)
        j["wedge"] = {{"material", p.wedge->material},
                      {"angle", p.wedge->angle},
                      {"height", p.wedge->height},
                      {"length", p.wedge->length},
                      {"width", p.wedge->width}};
    return j;
}

}  // namespace

std::string scene_to_json_text(const Scene& s) {
    const int d = s.grid.dimensions;
    OJson j;
    j["format"] = "voxwave-scene";
    j["version"] = 1;
    j["grid"] = {{"size", vec(s.grid.size, d)}, {"spacing", s.grid.spacing}, {"origin", vec(s.grid.origin, d)}};

    j["materials"] = OJson::array();
    for (const Material& m : s.materials) {
        OJson mj = {{"name", m.name}, {"density", m.density}, {"vp", m.vp}, {"vs", m.vs}, {"color", m.color}};
        if (!m.source.empty()) mj["source"] = m.source;
        j["materials"].push_back(mj);
    }
    j["background"] = s.background;

    j["shapes"] = OJson::array();
    for (const Shape& shape : s.shapes) j["shapes"].push_back(shape_json(shape, d));
    if (s.voxels) j["voxels"] = {{"file", s.voxels->file}, {"dataset", s.voxels->dataset}};

    j["sources"] = OJson::array();
    for (const Source& src : s.sources)
        j["sources"].push_back({{"name", src.name},
                                {"position", vec(src.position, d)},
                                {"direction", vec(src.direction, d)},
                                {"amplitude", src.amplitude},
                                {"wavelet", wavelet_json(src.wavelet)}});
    j["receivers"] = OJson::array();
    for (const Receiver& r : s.receivers)
        j["receivers"].push_back({{"name", r.name}, {"position", vec(r.position, d)}});

    // Written only when present, so that a scene without probes keeps its file unchanged.
    if (!s.probes.empty()) {
        j["probes"] = OJson::array();
        for (const ProbeSpec& p : s.probes) j["probes"].push_back(probe_json(p));
    }
    if (s.scan) {
        const ScanSpec& sc = *s.scan;
        OJson scan = {{"probe", sc.probe},         {"type", sc.type},           {"step", vec(sc.step, 3)},
                      {"positions", sc.positions}, {"step2", vec(sc.step2, 3)}, {"positions2", sc.positions2}};
        if (sc.gated) scan["gate"] = {{"start", sc.gate_start}, {"end", sc.gate_end}};
        if (!sc.angles.empty()) scan["angles"] = sc.angles;
        j["scan"] = scan;
    }

    OJson points = OJson::array();
    for (const Vec3& p : s.boundary.fixed_points) points.push_back(vec(p, d));
    const AbsorbingSpec& a = s.boundary.absorbing;
    OJson absorbing = {{"type", a.type}, {"faces", a.faces}, {"thickness", a.thickness}};
    for (auto [key, value] : {std::pair{"reflection", &a.reflection}, std::pair{"kappa_max", &a.kappa_max},
                              std::pair{"alpha_max", &a.alpha_max}, std::pair{"frequency", &a.frequency}})
        if (value->has_value()) absorbing[key] = **value;
    j["boundary"] = {{"fixed_points", points}, {"fixed_faces", s.boundary.fixed_faces}, {"absorbing", absorbing}};
    j["damping"] = {
        {"type", s.damping.type}, {"ratio", s.damping.ratio}, {"f_low", s.damping.f_low}, {"f_high", s.damping.f_high}};
    j["run"] = {{"method", to_string(s.run.method)},
                {"precision", to_string(s.run.precision)},
                {"stages", s.run.stages},
                {"order", s.run.order},
                {"dt", s.run.dt},
                {"duration", s.run.duration},
                {"steps", s.run.steps},
                {"backend", to_string(s.run.backend)}};
    if (const auto& snap = s.snapshots) {
        OJson sj;
        if (snap->every > 0) sj["every"] = snap->every;
        if (!snap->times.empty()) sj["times"] = snap->times;
        sj["fields"] = snap->fields;
        if (snap->region) sj["region"] = {{"min", vec(snap->region->min, 3)}, {"max", vec(snap->region->max, 3)}};
        sj["stride"] = snap->stride;
        j["run"]["snapshots"] = sj;
    }
    return json::format_json(j);
}

void write_scene_json(const std::string& path, const Scene& scene) {
    // A file that would not read back is worse than no file.
    validate_scene(scene, path);
    write_text_atomically(path, scene_to_json_text(scene));
}

}  // namespace voxwave
