#include <algorithm>
#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "scene/rasterise.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "scene/snapshots.hpp"

namespace voxwave {
namespace {

class Validator {
public:
    Validator(const Scene& scene, const std::string& label) : scene_(scene), label_(label) {}

    InputError error(const std::string& field, const std::string& reason) const { return {label_, field, reason}; }

    void finite(const std::string& field, double v) const {
        if (!std::isfinite(v)) throw error(field, "must be a finite number");
    }
    void finite(const std::string& field, const Vec3& v) const {
        for (double x : v)
            if (!std::isfinite(x)) throw error(field, "must be finite numbers");
    }
    void positive(const std::string& field, double v) const {
        finite(field, v);
        if (v <= 0) throw error(field, "must be > 0 (got " + format_number(v) + ")");
    }
    void non_negative(const std::string& field, double v) const {
        finite(field, v);
        if (v < 0) throw error(field, "must be >= 0 (got " + format_number(v) + ")");
    }
    void nonzero(const std::string& field, const Vec3& v) const {
        finite(field, v);
        if (v[0] == 0 && v[1] == 0 && v[2] == 0) throw error(field, "must not be zero");
    }
    void known_material(const std::string& field, const std::string& name) const {
        try {
            scene_.material_id(name);
        } catch (const InputError& e) {
            throw error(field, e.reason());
        }
    }
    void faces(const std::string& field, const std::vector<std::string>& list) const {
        std::set<std::string> seen;
        for (std::size_t i = 0; i < list.size(); ++i) {
            std::string f = field + "[" + std::to_string(i) + "]";
            try {
                parse_boundary_face(list[i], f);
            } catch (const InputError& e) {
                throw error(f, e.reason());
            }
            if (!seen.insert(list[i]).second) throw error(f, "duplicate face '" + list[i] + "'");
        }
    }
    // Points are snapped to nodes, so one outside the box would silently land somewhere else.
    void inside_box(const std::string& field, const Vec3& p) const {
        finite(field, p);
        const GridSpec& g = scene_.grid;
        double tol = 1e-9 * std::max({g.size[0], g.size[1], g.size[2]});
        for (int a = 0; a < 3; ++a) {
            if (p[a] < g.origin[a] - tol || p[a] > g.origin[a] + g.size[a] + tol) {
                std::string box;
                for (int b = 0; b < 3; ++b)
                    box += (b ? " x [" : "[") + format_number(g.origin[b]) + ", " +
                           format_number(g.origin[b] + g.size[b]) + "]";
                throw error(field, "outside the model box " + box);
            }
        }
    }

    void grid() const {
        const GridSpec& g = scene_.grid;
        for (int a = 0; a < g.dimensions; ++a) positive("grid.size[" + std::to_string(a) + "]", g.size[a]);
        try {  // the spacing's range (check_spacing) and the element cap
            element_counts(g, g.spacing);
        } catch (const InputError& e) {
            throw error(e.field(), e.reason());
        }
        finite("grid.origin", g.origin);
    }

    void materials() const {
        if (scene_.materials.size() > 255)
            throw error("materials",
                        "at most 255 materials (ids are 8-bit; got " + std::to_string(scene_.materials.size()) + ")");
        std::set<std::string> names;
        for (std::size_t i = 0; i < scene_.materials.size(); ++i) {
            std::string field = "materials[" + std::to_string(i) + "]";
            validate_material(scene_.materials[i], label_, field);
            if (!names.insert(scene_.materials[i].name).second)
                throw error(field + ".name", "duplicate material '" + scene_.materials[i].name + "'");
        }
        known_material("background", scene_.background);
    }

    void shapes() const {
        for (std::size_t i = 0; i < scene_.shapes.size(); ++i) {
            std::string field = "shapes[" + std::to_string(i) + "]";
            known_material(field + ".material", scene_.shapes[i].material);
            validate_shape(scene_.shapes[i], label_, field, scene_.grid.dimensions);
        }
        if (scene_.voxels) {
            if (scene_.voxels->file.empty()) throw error("voxels.file", "must not be empty");
            if (scene_.voxels->dataset.empty()) throw error("voxels.dataset", "must not be empty");
        }
    }

    void wavelet(const std::string& field, const Wavelet& w) const {
        switch (w.type) {
            case WaveletType::Ricker:
                positive(field + ".frequency", w.frequency);
                non_negative(field + ".delay", w.delay);
                break;
            case WaveletType::ToneBurst:
                positive(field + ".frequency", w.frequency);
                positive(field + ".cycles", w.cycles);
                non_negative(field + ".delay", w.delay);
                break;
            case WaveletType::Bandpass:
                positive(field + ".f_low", w.f_low);
                positive(field + ".f_high", w.f_high);
                if (w.f_high <= w.f_low)
                    throw error(field + ".f_high", "must be > f_low (got " + format_number(w.f_high) +
                                                       " <= " + format_number(w.f_low) + ")");
                non_negative(field + ".delay", w.delay);
                break;
            case WaveletType::Samples:
                if (w.file.empty()) throw error(field + ".file", "must not be empty");
                positive(field + ".dt", w.sample_dt);
                if (w.samples.empty()) throw error(field + ".file", "no samples loaded");
                for (double v : w.samples) finite(field + ".file", v);
                break;
        }
    }

    void sources_and_receivers() const {
        for (std::size_t i = 0; i < scene_.sources.size(); ++i) {
            const Source& s = scene_.sources[i];
            std::string field = "sources[" + std::to_string(i) + "]";
            if (s.name.empty()) throw error(field + ".name", "must not be empty");
            inside_box(field + ".position", s.position);
            nonzero(field + ".direction", s.direction);
            finite(field + ".amplitude", s.amplitude);
            wavelet(field + ".wavelet", s.wavelet);
        }
        // Receiver names label the traces in the result file, so they must tell traces apart.
        std::set<std::string> names;
        for (std::size_t i = 0; i < scene_.receivers.size(); ++i) {
            const Receiver& r = scene_.receivers[i];
            std::string field = "receivers[" + std::to_string(i) + "]";
            if (r.name.empty()) throw error(field + ".name", "must not be empty");
            if (!names.insert(r.name).second) throw error(field + ".name", "duplicate receiver name '" + r.name + "'");
            inside_box(field + ".position", r.position);
        }
    }

    void boundary() const {
        const BoundarySpec& b = scene_.boundary;
        for (std::size_t i = 0; i < b.fixed_points.size(); ++i)
            inside_box("boundary.fixed_points[" + std::to_string(i) + "]", b.fixed_points[i]);
        faces("boundary.fixed_faces", b.fixed_faces);
        const AbsorbingSpec& a = b.absorbing;
        if (a.type != "pml" && a.type != "sponge")
            throw error("boundary.absorbing.type", "unknown absorbing type '" + a.type + "' (expected pml or sponge)");
        faces("boundary.absorbing.faces", a.faces);
        if (a.faces.empty())
            non_negative("boundary.absorbing.thickness", a.thickness);
        else
            positive("boundary.absorbing.thickness", a.thickness);
        for (std::size_t i = 0; i < a.faces.size(); ++i) {
            const int axis = parse_boundary_face(a.faces[i], "boundary.absorbing.faces") / 2;
            const double half = 0.5 * scene_.grid.size[std::size_t(axis)];
            if (a.thickness > half)
                throw error("boundary.absorbing.thickness", "must be at most half the box along " +
                                                                std::string(1, "xyz"[axis]) + " (" +
                                                                format_number(half) + " m) for face " + a.faces[i] +
                                                                " (got " + format_number(a.thickness) + ")");
            // A PML absorbs by stretching the field towards a free face; a held face behind it
            // is a sponge's option (fixed with a layer), not the PML's.
            if (a.pml() && std::find(b.fixed_faces.begin(), b.fixed_faces.end(), a.faces[i]) != b.fixed_faces.end())
                throw error("boundary.absorbing.faces[" + std::to_string(i) + "]",
                            "face " + a.faces[i] + " is also in boundary.fixed_faces; a PML face must not be fixed");
        }
        const std::pair<const char*, const std::optional<double>*> pml_keys[] = {{"reflection", &a.reflection},
                                                                                 {"kappa_max", &a.kappa_max},
                                                                                 {"alpha_max", &a.alpha_max},
                                                                                 {"frequency", &a.frequency}};
        for (const auto& [key, value] : pml_keys)
            if (!a.pml() && value->has_value())
                throw error(std::string("boundary.absorbing.") + key,
                            "a PML key, but the layer is a sponge (type sponge takes only faces and thickness)");
        if (a.reflection && !pml_reflection_allowed(*a.reflection))
            throw error("boundary.absorbing.reflection",
                        "must be between 0 and 1, exclusive (got " + format_number(*a.reflection) + ")");
        if (a.kappa_max) {
            finite("boundary.absorbing.kappa_max", *a.kappa_max);
            if (!pml_kappa_max_allowed(*a.kappa_max))
                throw error("boundary.absorbing.kappa_max", "must be >= 1 (got " + format_number(*a.kappa_max) + ")");
        }
        if (a.alpha_max) non_negative("boundary.absorbing.alpha_max", *a.alpha_max);
        if (a.frequency) positive("boundary.absorbing.frequency", *a.frequency);
    }

    void damping() const {
        const DampingSpec& d = scene_.damping;
        if (d.type != "none" && d.type != "rayleigh")
            throw error("damping.type", "unknown damping type '" + d.type + "' (expected none or rayleigh)");
        finite("damping.ratio", d.ratio);
        if (d.ratio < 0 || d.ratio >= 1)
            throw error("damping.ratio", "must be in [0, 1) (got " + format_number(d.ratio) + ")");
        if (d.type == "rayleigh") {
            positive("damping.f_low", d.f_low);
            positive("damping.f_high", d.f_high);
            if (d.f_high < d.f_low)
                throw error("damping.f_high",
                            "must be >= f_low (got " + format_number(d.f_high) + " < " + format_number(d.f_low) + ")");
        } else {
            non_negative("damping.f_low", d.f_low);
            non_negative("damping.f_high", d.f_high);
        }
    }

    // A 2D (plane-strain) scene: one layer in z at z = 0, and what the 2D engines have.
    void plane_strain() const {
        const GridSpec& g = scene_.grid;
        if (g.dimensions != 2 && g.dimensions != 3)
            throw error("grid.size", "must have 3 entries, or 2 for a plane-strain scene");
        if (!g.plane_strain()) return;
        if (g.size[2] != 0 || g.origin[2] != 0) throw error("grid.size", "a 2D scene has no z extent");
        for (std::size_t i = 0; i < scene_.shapes.size(); ++i)
            if (std::holds_alternative<CylinderShape>(scene_.shapes[i].geometry))
                throw error("shapes[" + std::to_string(i) + "].type",
                            "a 2D scene has no cylinders (a disk is a sphere, a strip a box)");
        if (scene_.voxels) throw error("voxels", "painted voxel files are 3D; a 2D scene paints with shapes");
        for (std::size_t i = 0; i < scene_.sources.size(); ++i)
            if (scene_.sources[i].direction[2] != 0)
                throw error("sources[" + std::to_string(i) + "].direction",
                            "a 2D scene's forces lie in the x-y plane (z must be 0)");
        if (scene_.run.method == Method::Tcovfem)
            throw error("run.method", "tcovfem has no 2D engine (use vfem or ovfem)");
        if (scene_.run.method == Method::Sem) throw error("run.method", "sem has no 2D engine (use vfem or ovfem)");
        if (scene_.snapshots) throw error("run.snapshots", "a 2D scene does not write wavefield snapshots yet");
        const BoundarySpec& b = scene_.boundary;
        if (!b.absorbing.faces.empty() && b.absorbing.pml())
            throw error("boundary.absorbing.type", "the PML is 3D only; a 2D scene absorbs with type \"sponge\"");
        for (const auto* list : {&b.fixed_faces, &b.absorbing.faces})
            for (std::size_t i = 0; i < list->size(); ++i)
                if ((*list)[i] == "z-" || (*list)[i] == "z+")
                    throw error(
                        std::string(list == &b.fixed_faces ? "boundary.fixed_faces[" : "boundary.absorbing.faces[") +
                            std::to_string(i) + "]",
                        "a 2D scene has no face " + (*list)[i] + " (its faces are x-, x+, y- and y+)");
    }

    void run() const {
        const RunSpec& r = scene_.run;
        check_tcovfem_stages(r.stages, label_, "run.stages");
        check_precision(r.method, r.precision, label_, "run.precision");
        check_sem_order(r.order, label_, "run.order");
        const AbsorbingSpec& a = scene_.boundary.absorbing;
        if (!method_has_pml(r.method) && a.pml() && !a.faces.empty())
            throw error("boundary.absorbing.type",
                        std::string(to_string(r.method)) + " has no PML; use type sponge or another method");
        non_negative("run.dt", r.dt);
        non_negative("run.duration", r.duration);
        if (r.steps < 0) throw error("run.steps", "must be >= 0 (got " + std::to_string(r.steps) + ")");
        if (scene_.snapshots) {
            // The snapshot rules sample the voxel corners; a spectral run's nodes are its GLL grid.
            if (r.method == Method::Sem)
                throw error("run.snapshots", "sem runs do not write wavefield snapshots yet; use vfem, ovfem or tcovfem");
            validate_snapshot_spec(*scene_.snapshots, scene_.grid, label_);
        }
    }

private:
    const Scene& scene_;
    const std::string& label_;
};

}  // namespace

void validate_scene(const Scene& scene, const std::string& file_label) {
    Validator v(scene, file_label);
    v.plane_strain();
    v.grid();
    v.materials();
    v.shapes();
    v.sources_and_receivers();
    v.boundary();
    v.damping();
    v.run();
}

}  // namespace voxwave
