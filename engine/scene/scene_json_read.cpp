// Scene files: strict parsing (docs/architecture.md#files-and-cli: unknown keys are an error) into a
// Scene, the caller's changes (command-line overrides), then validate_scene for the value checks,
// then the referenced files (sample wavelets, painted voxels) are read so that a bad reference
// fails at load time rather than mid-run.
#include <filesystem>
#include <limits>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "core/strict_json.hpp"
#include "model/stl_surface.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "scene/wavelet_samples.hpp"

namespace voxwave {
namespace {

using json::Json;
using json::ObjectReader;

class SceneParser {
public:
    SceneParser(std::string file, std::string base_dir, const SceneChange& change)
        : file_(std::move(file)), base_dir_(std::move(base_dir)), change_(change) {}

    Scene parse(const Json& doc) {
        ObjectReader top(doc, file_, "");
        top.allow({"format", "version", "grid", "materials", "background", "shapes", "voxels", "sources", "receivers",
                   "probes", "scan", "boundary", "damping", "run"});
        std::string format = top.string("format");
        if (format != "voxwave-scene")
            throw InputError(file_, "format", "expected \"voxwave-scene\" (got \"" + format + "\")");
        std::int64_t version = top.integer("version");
        if (version != 1)
            throw InputError(file_, "version",
                             "unsupported version " + std::to_string(version) + " (this build reads 1)");

        Scene s;
        s.base_dir = base_dir_;
        s.grid = grid(ObjectReader(top.at("grid"), file_, "grid"));
        const Json& materials = top.array_or_empty("materials");
        for (std::size_t i = 0; i < materials.size(); ++i)
            s.materials.push_back(material(ObjectReader(materials[i], file_, json::item("materials", i))));
        s.background = top.string_or("background", kVoidMaterialName);
        const Json& shapes = top.array_or_empty("shapes");
        for (std::size_t i = 0; i < shapes.size(); ++i)
            s.shapes.push_back(shape(ObjectReader(shapes[i], file_, json::item("shapes", i))));
        if (top.has("voxels")) s.voxels = voxels(ObjectReader(top.at("voxels"), file_, "voxels"));
        const Json& sources = top.array_or_empty("sources");
        for (std::size_t i = 0; i < sources.size(); ++i)
            s.sources.push_back(source(ObjectReader(sources[i], file_, json::item("sources", i)), i));
        const Json& receivers = top.array_or_empty("receivers");
        for (std::size_t i = 0; i < receivers.size(); ++i)
            s.receivers.push_back(receiver(ObjectReader(receivers[i], file_, json::item("receivers", i)), i));
        const Json& probes = top.array_or_empty("probes");
        for (std::size_t i = 0; i < probes.size(); ++i)
            s.probes.push_back(probe(ObjectReader(probes[i], file_, json::item("probes", i)), i));
        if (top.has("scan")) s.scan = scan(ObjectReader(top.at("scan"), file_, "scan"));
        if (top.has("boundary")) s.boundary = boundary(ObjectReader(top.at("boundary"), file_, "boundary"));
        if (top.has("damping")) s.damping = damping(ObjectReader(top.at("damping"), file_, "damping"));
        if (top.has("run")) {
            const ObjectReader r(top.at("run"), file_, "run");
            s.run = run(r);
            if (r.has("snapshots"))
                s.snapshots = snapshots(ObjectReader(r.at("snapshots"), file_, r.field("snapshots")));
        }

        s.grid.dimensions = static_cast<int>(grid_dimensions_);
        for (const auto& [field, count] : vectors_)
            if (count != grid_dimensions_)
                throw InputError(file_, field,
                                 "has " + std::to_string(count) + " entries but grid.size has " +
                                     std::to_string(grid_dimensions_) + " (a scene is 2D or 3D throughout)");

        if (change_) change_(s);
        validate_scene(s, file_);
        if (s.voxels) check_voxels_file(s);
        return s;
    }

    std::vector<ProbeSpec> probe_library(const Json& doc) const {
        ObjectReader top(doc, file_, "");
        top.allow({"format", "version", "probes"});
        const std::string format = top.string("format");
        if (format != "voxwave-probes")
            throw InputError(file_, "format", "expected \"voxwave-probes\" (got \"" + format + "\")");
        if (const std::int64_t version = top.integer("version"); version != 1)
            throw InputError(file_, "version",
                             "unsupported version " + std::to_string(version) + " (this build reads 1)");
        std::vector<ProbeSpec> out;
        const Json& probes = json::to_array(top.at("probes"), file_, "probes");
        for (std::size_t i = 0; i < probes.size(); ++i)
            out.push_back(probe(ObjectReader(probes[i], file_, json::item("probes", i)), i, false));
        return out;
    }

private:
    // A position, direction or extent: [x, y, z], or [x, y] in a 2D scene (z = 0). The count is
    // kept, and every vector must have as many entries as grid.size.
    Vec3 vec(const Json& v, const std::string& field) const {
        if (!v.is_array() || (v.size() != 2 && v.size() != 3))
            throw InputError(file_, field, "expected an array of 3 numbers (or 2 in a 2D scene)");
        Vec3 out{0, 0, 0};
        for (std::size_t i = 0; i < v.size(); ++i) {
            out[i] = json::to_number(v[i], file_, json::item(field, i));
        }
        vectors_.emplace_back(field, v.size());
        return out;
    }
    Vec3 vec(const ObjectReader& r, std::string_view key) const { return vec(r.at(key), r.field(key)); }
    Vec3 vec_or(const ObjectReader& r, std::string_view key, const Vec3& fallback) const {
        return r.has(key) ? vec(r, key) : fallback;
    }

    GridSpec grid(const ObjectReader& r) const {
        r.allow({"size", "spacing", "origin"});
        GridSpec g;
        g.size = vec(r, "size");
        grid_dimensions_ = vectors_.back().second;
        g.spacing = r.number("spacing");
        g.origin = vec_or(r, "origin", {0, 0, 0});
        return g;
    }

    Material material(const ObjectReader& r) const {
        r.allow({"name", "density", "vp", "vs", "color", "source"});
        Material m;
        m.name = r.string("name");
        m.density = r.number("density");
        m.vp = r.number("vp");
        m.vs = r.number("vs");
        m.color = r.string_or("color", m.color);
        m.source = r.string_or("source", "");
        return m;
    }

    Shape shape(const ObjectReader& r) const {
        std::string type = r.string("type");
        Shape s;
        if (type == "box") {
            r.allow({"type", "material", "min", "max"});
            s.geometry = BoxShape{vec(r, "min"), vec(r, "max")};
        } else if (type == "cylinder") {
            r.allow({"type", "material", "center", "axis", "radius", "length"});
            s.geometry = CylinderShape{vec(r, "center"), vec(r, "axis"), r.number("radius"), r.number("length")};
        } else if (type == "sphere") {
            r.allow({"type", "material", "center", "radius"});
            s.geometry = SphereShape{vec(r, "center"), r.number("radius")};
        } else if (type == "aggregate") {
            r.allow({"type", "material", "min", "max", "fraction", "radius_min", "radius_max", "seed"});
            s.geometry = AggregateShape{vec(r, "min"),          vec(r, "max"),          r.number("fraction"),
                                        r.number("radius_min"), r.number("radius_max"), r.unsigned_or("seed", 1)};
        } else if (type == "stl") {
            r.allow({"type", "material", "file", "scale", "translate"});
            s.geometry = stl(r);
        } else {
            throw InputError(file_, r.field("type"),
                             "unknown shape type '" + type + "' (expected box, cylinder, sphere, aggregate or stl)");
        }
        s.material = r.string("material");
        return s;
    }

    // The surface is read, checked closed and placed now, so a bad file fails at load time.
    StlShape stl(const ObjectReader& r) const {
        StlShape s{r.string("file"), r.number_or("scale", 1.0), r.vec3_or("translate", {0, 0, 0}), nullptr};
        if (s.file.empty()) throw InputError(file_, r.field("file"), "must name an STL file");
        if (!(s.scale > 0))
            throw InputError(file_, r.field("scale"), "must be > 0 (got " + format_number(s.scale) + ")");
        try {
            s.mesh = load_stl_surface(resolve_path(base_dir_, s.file), s.scale, s.translate);
        } catch (const InputError& e) {
            throw InputError(file_, r.field("file"), e.what());
        }
        return s;
    }

    VoxelsRef voxels(const ObjectReader& r) const {
        r.allow({"file", "dataset"});
        return {r.string("file"), r.string_or("dataset", "/model/material_ids")};
    }

    Source source(const ObjectReader& r, std::size_t index) const {
        r.allow({"name", "position", "direction", "amplitude", "wavelet"});
        Source s;
        s.name = r.string_or("name", "S" + std::to_string(index + 1));
        s.position = vec(r, "position");
        s.direction = vec_or(r, "direction", grid_dimensions_ == 2 ? Vec3{0, 1, 0} : s.direction);
        s.amplitude = r.number_or("amplitude", s.amplitude);
        s.wavelet = wavelet(ObjectReader(r.at("wavelet"), file_, r.field("wavelet")));
        return s;
    }

    Wavelet wavelet(const ObjectReader& r) const {
        Wavelet w;
        try {
            w.type = parse_wavelet_type(r.string("type"), r.field("type"));
        } catch (const InputError& e) {
            throw e.with_file(file_);
        }
        switch (w.type) {
            case WaveletType::Ricker:
                r.allow({"type", "frequency", "delay"});
                w.frequency = r.number("frequency");
                // A Ricker wavelet is negligible beyond 1.2 / f from its peak: start from rest.
                w.delay = r.number_or("delay", w.frequency > 0 ? 1.2 / w.frequency : 0);
                break;
            case WaveletType::ToneBurst:
                r.allow({"type", "frequency", "cycles", "delay"});
                w.frequency = r.number("frequency");
                w.cycles = r.number_or("cycles", 5);
                w.delay = r.number_or("delay", 0);
                break;
            case WaveletType::Bandpass:
                r.allow({"type", "f_low", "f_high", "delay"});
                w.f_low = r.number("f_low");
                w.f_high = r.number("f_high");
                w.delay = r.number_or("delay", w.f_low > 0 ? 2.0 / w.f_low : 0);
                break;
            case WaveletType::Samples:
                r.allow({"type", "file", "dataset", "dt"});
                w.file = r.string("file");
                w.dataset = r.string_or("dataset", "");
                w.sample_dt = r.number("dt");
                load_samples(r, w);
                break;
        }
        return w;
    }

    void load_samples(const ObjectReader& r, Wavelet& w) const {
        if (w.file.empty()) throw InputError(file_, r.field("file"), "must not be empty");
        const std::string path = resolve_path(base_dir_, w.file);
        if (is_hdf5_path(path) && w.dataset.empty())
            throw InputError(file_, r.field("dataset"), "required for an HDF5 sample file");
        if (!is_hdf5_path(path) && !w.dataset.empty())
            throw InputError(file_, r.field("dataset"), "only used with HDF5 sample files (.h5, .hdf5)");
        try {
            w.samples = load_wavelet_samples(path, w.dataset);
        } catch (const InputError& e) {
            // One line that names both the scene field and the place in the sample file.
            bool in_dataset = !w.dataset.empty() && e.field() == w.dataset;
            throw InputError(file_, r.field(in_dataset ? "dataset" : "file"), e.what());
        }
    }

    Receiver receiver(const ObjectReader& r, std::size_t index) const {
        r.allow({"name", "position"});
        return {r.string_or("name", "R" + std::to_string(index + 1)), vec(r, "position")};
    }

    // A library entry (`placed` false) has no centre yet: the user puts it on the model.
    ProbeSpec probe(const ObjectReader& r, std::size_t index, bool placed = true) const {
        r.allow({"name",      "type",   "center",       "normal",    "shape",   "diameter",
                 "width",     "length", "array_axis",   "elements",  "pitch",   "element_width",
                 "elevation", "mode",   "polarization", "amplitude", "wavelet", "delay_law",
                 "wedge",     "active", "transmit",     "receive"});
        ProbeSpec p;
        p.name = r.string_or("name", "P" + std::to_string(index + 1));
        p.type = r.string_or("type", p.type);
        p.center = placed ? r.vec3("center") : r.vec3_or("center", p.center);
        p.normal = r.vec3_or("normal", p.normal);
        p.shape = r.string_or("shape", p.shape);
        p.diameter = r.number_or("diameter", 0);
        p.width = r.number_or("width", 0);
        p.length = r.number_or("length", 0);
        p.array_axis = r.vec3_or("array_axis", p.array_axis);
        const std::int64_t elements = r.integer_or("elements", 1);
        if (elements < 1 || elements > kMaxProbeElements)
            throw InputError(file_, r.field("elements"),
                             "probe '" + p.name + "': must be 1 to " + std::to_string(kMaxProbeElements) + " (got " +
                                 std::to_string(elements) + ")");
        p.elements = static_cast<int>(elements);
        p.pitch = r.number_or("pitch", 0);
        p.element_width = r.number_or("element_width", 0);
        p.elevation = r.number_or("elevation", 0);
        p.mode = r.string_or("mode", p.mode);
        p.polarization = r.vec3_or("polarization", p.polarization);
        p.amplitude = r.number_or("amplitude", p.amplitude);
        p.wavelet = wavelet(ObjectReader(r.at("wavelet"), file_, r.field("wavelet")));
        if (r.has("delay_law")) p.delay_law = delay_law(ObjectReader(r.at("delay_law"), file_, r.field("delay_law")));
        if (r.has("wedge")) {
            ObjectReader w(r.at("wedge"), file_, r.field("wedge"));
            w.allow({"material", "angle", "height", "length", "width"});
            WedgeSpec wedge;
            wedge.material = w.string("material");
            wedge.angle = w.number("angle");
            wedge.height = w.number("height");
            wedge.length = w.number_or("length", 0);
            wedge.width = w.number_or("width", 0);
            p.wedge = wedge;
        }
        if (r.has("active")) {
            const Json& a = json::to_array(r.at("active"), file_, r.field("active"));
            if (a.size() != 2)
                throw InputError(file_, r.field("active"), "probe '" + p.name + "': expected [first, count]");
            const std::int64_t first = json::to_integer(a[0], file_, json::item(r.field("active"), 0));
            const std::int64_t count = json::to_integer(a[1], file_, json::item(r.field("active"), 1));
            if (first < 0 || count < 1 || first + count > elements)
                throw InputError(file_, r.field("active"),
                                 "probe '" + p.name + "': [" + std::to_string(first) + ", " + std::to_string(count) +
                                     "] is not a sub-aperture of " + std::to_string(elements) + " elements");
            p.active_first = static_cast<int>(first);
            p.active_count = static_cast<int>(count);
        }
        p.transmit = boolean_or(r, "transmit", true);
        p.receive = boolean_or(r, "receive", true);
        return p;
    }

    bool boolean_or(const ObjectReader& r, std::string_view key, bool fallback) const {
        if (!r.has(key)) return fallback;
        const Json& v = r.at(key);
        if (!v.is_boolean()) throw InputError(file_, r.field(key), "expected true or false");
        return v.get<bool>();
    }

    DelayLawSpec delay_law(const ObjectReader& r) const {
        r.allow({"type", "angle", "depth", "velocity", "delays"});
        DelayLawSpec d;
        d.type = r.string_or("type", d.type);
        d.angle = r.number_or("angle", 0);
        d.depth = r.number_or("depth", 0);
        if (r.has("velocity")) d.velocity = r.number("velocity");
        const Json& delays = r.array_or_empty("delays");
        for (std::size_t i = 0; i < delays.size(); ++i)
            d.delays.push_back(json::to_number(delays[i], file_, json::item(r.field("delays"), i)));
        return d;
    }

    ScanSpec scan(const ObjectReader& r) const {
        r.allow({"probe", "type", "step", "positions", "step2", "positions2", "gate", "angles"});
        ScanSpec s;
        s.probe = r.string("probe");
        s.type = r.string_or("type", s.type);
        s.step = r.vec3_or("step", s.step);
        s.step2 = r.vec3_or("step2", s.step2);
        for (auto [key, value] : {std::pair{"positions", &s.positions}, std::pair{"positions2", &s.positions2}}) {
            const std::int64_t n = r.integer_or(key, 1);
            if (n < 1 || n > kMaxScanPositions)
                throw InputError(
                    file_, r.field(key),
                    "must be 1 to " + std::to_string(kMaxScanPositions) + " (got " + std::to_string(n) + ")");
            *value = static_cast<int>(n);
        }
        if (r.has("gate")) {
            ObjectReader g(r.at("gate"), file_, r.field("gate"));
            g.allow({"start", "end"});
            s.gated = true;
            s.gate_start = g.number("start");
            s.gate_end = g.number("end");
        }
        const Json& angles = r.array_or_empty("angles");
        for (std::size_t i = 0; i < angles.size(); ++i)
            s.angles.push_back(json::to_number(angles[i], file_, json::item(r.field("angles"), i)));
        return s;
    }

    BoundarySpec boundary(const ObjectReader& r) const {
        r.allow({"fixed_points", "fixed_faces", "absorbing"});
        BoundarySpec b;
        const Json& points = r.array_or_empty("fixed_points");
        for (std::size_t i = 0; i < points.size(); ++i)
            b.fixed_points.push_back(vec(points[i], json::item(r.field("fixed_points"), i)));
        b.fixed_faces = r.strings_or("fixed_faces");
        if (r.has("absorbing")) {
            ObjectReader a(r.at("absorbing"), file_, r.field("absorbing"));
            a.allow({"faces", "thickness", "type", "reflection", "kappa_max", "alpha_max", "frequency"});
            b.absorbing.faces = a.strings_or("faces");
            b.absorbing.thickness = b.absorbing.faces.empty() ? a.number_or("thickness", 0) : a.number("thickness");
            // No type: a file from before the PML, whose only layer was the sponge (with no
            // faces there is no layer, and the block reads as a new scene's).
            b.absorbing.type = a.string_or("type", b.absorbing.faces.empty() ? "pml" : "sponge");
            for (auto [key, value] :
                 {std::pair{"reflection", &b.absorbing.reflection}, std::pair{"kappa_max", &b.absorbing.kappa_max},
                  std::pair{"alpha_max", &b.absorbing.alpha_max}, std::pair{"frequency", &b.absorbing.frequency}})
                if (a.has(key)) *value = a.number(key);
        }
        return b;
    }

    DampingSpec damping(const ObjectReader& r) const {
        r.allow({"type", "ratio", "f_low", "f_high"});
        DampingSpec d;
        d.type = r.string_or("type", d.type);
        if (d.type == "rayleigh") {
            d.ratio = r.number("ratio");
            d.f_low = r.number("f_low");
            d.f_high = r.number("f_high");
        } else {
            d.ratio = r.number_or("ratio", 0);
            d.f_low = r.number_or("f_low", 0);
            d.f_high = r.number_or("f_high", 0);
        }
        return d;
    }

    RunSpec run(const ObjectReader& r) const {
        r.allow({"method", "precision", "stages", "order", "dt", "duration", "steps", "backend", "snapshots"});
        RunSpec s;
        try {
            if (r.has("method")) s.method = parse_method(r.string("method"), r.field("method"));
            if (r.has("precision")) s.precision = parse_precision(r.string("precision"), r.field("precision"));
            if (r.has("backend")) s.backend = parse_backend(r.string("backend"), r.field("backend"));
        } catch (const InputError& e) {
            throw e.file().empty() ? e.with_file(file_) : e;
        }
        const std::int64_t stages = r.integer_or("stages", s.stages);
        // A value RunSpec::stages cannot hold is out of the rule's range too; validate_scene
        // checks the range of every other value.
        if (stages < std::numeric_limits<int>::min() || stages > std::numeric_limits<int>::max())
            check_tcovfem_stages(stages, file_, r.field("stages"));
        s.stages = static_cast<int>(stages);
        const std::int64_t order = r.integer_or("order", s.order);
        if (!sem_order_allowed(order)) check_sem_order(order, file_, r.field("order"));
        s.order = static_cast<int>(order);
        s.dt = r.number_or("dt", s.dt);
        s.duration = r.number_or("duration", s.duration);
        s.steps = r.integer_or("steps", s.steps);
        return s;
    }

    SnapshotSpec snapshots(const ObjectReader& r) const {
        r.allow({"every", "times", "fields", "region", "stride"});
        SnapshotSpec s;
        s.every = r.integer_or("every", 0);
        const Json& times = r.array_or_empty("times");
        for (std::size_t i = 0; i < times.size(); ++i)
            s.times.push_back(json::to_number(times[i], file_, json::item(r.field("times"), i)));
        if (r.has("fields")) s.fields = r.strings_or("fields");
        if (r.has("region")) {
            ObjectReader g(r.at("region"), file_, r.field("region"));
            g.allow({"min", "max"});
            s.region = SnapshotRegion{g.vec3("min"), g.vec3("max")};
        }
        s.stride = r.integer_or("stride", 1);
        return s;
    }

    // The painted file must exist, be a valid voxel file and only use the scene's materials.
    void check_voxels_file(const Scene& s) const {
        const std::string path = resolve_path(base_dir_, s.voxels->file);
        try {
            VoxelGrid painted = read_voxels_h5(path, s.voxels->dataset);
            for (MaterialId id : painted.ids)
                if (id > s.materials.size())
                    throw InputError(path, s.voxels->dataset,
                                     "material id " + std::to_string(id) + " but the scene has " +
                                         std::to_string(s.materials.size()) + " materials");
        } catch (const InputError& e) {
            bool in_dataset = e.field().rfind(s.voxels->dataset, 0) == 0;
            throw InputError(file_, in_dataset ? "voxels.dataset" : "voxels.file", e.what());
        }
    }

    std::string file_;
    std::string base_dir_;
    const SceneChange& change_;
    mutable std::size_t grid_dimensions_ = 3;
    mutable std::vector<std::pair<std::string, std::size_t>> vectors_;  // every vector read: field, entries
};

}  // namespace

Scene parse_scene_json(const std::string& text, const std::string& file_label, const std::string& base_dir,
                       const SceneChange& change) {
    return SceneParser(file_label, base_dir, change).parse(json::parse_strict(text, file_label));
}

std::vector<ProbeSpec> read_probe_library(const std::string& path) {
    const std::string base = std::filesystem::path(path).parent_path().string();
    return SceneParser(path, base, {}).probe_library(json::parse_strict(json::read_text_file(path), path));
}

Scene read_scene_json(const std::string& path, const SceneChange& change) {
    return parse_scene_json(json::read_text_file(path), path, std::filesystem::path(path).parent_path().string(),
                            change);
}

}  // namespace voxwave
