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

    // What a probe's keys must say on their own; where its face lies on the voxelised model
    // (a surface under every footprint, elements inside the grid) is checked when the model
    // exists (engine/probe, probe_footprint).
    void probes() const {
        std::set<std::string> names;
        for (std::size_t i = 0; i < scene_.probes.size(); ++i) {
            const ProbeSpec& p = scene_.probes[i];
            const std::string field = "probes[" + std::to_string(i) + "]";
            const std::string who = "probe '" + p.name + "': ";
            auto fail = [&](const std::string& key, const std::string& reason) {
                return error(field + "." + key, who + reason);
            };
            auto positive_key = [&](const std::string& key, double v) {
                if (!std::isfinite(v) || v <= 0) throw fail(key, "must be > 0 (got " + format_number(v) + ")");
            };
            if (p.name.empty()) throw error(field + ".name", "must not be empty");
            // The name is a group of the result file (/probes/<name>).
            if (p.name.find_first_of("/\n") != std::string::npos || p.name == "." || p.name == "..")
                throw fail("name", "must not contain '/' or a line break, nor be . or ..");
            if (!names.insert(p.name).second) throw fail("name", "duplicate probe name");
            inside_box(field + ".center", p.center);
            nonzero(field + ".normal", p.normal);
            if (axis_of(p.normal) < 0)
                throw fail("normal", "must lie along a grid axis: probes sit on voxel faces, which are axis-aligned");
            if (p.type != "piston" && p.type != "array")
                throw fail("type", "unknown probe type '" + p.type + "' (expected piston or array)");
            const bool uses_axis = p.is_array() || p.shape == "rect";
            if (uses_axis) {
                nonzero(field + ".array_axis", p.array_axis);
                if (std::abs(cosine(p.array_axis, p.normal)) > 1e-6)
                    throw fail("array_axis", "must be normal to the probe's normal (it lies in the face)");
            }
            if (p.is_array()) {
                positive_key("pitch", p.pitch);
                positive_key("element_width", p.element_width);
                positive_key("elevation", p.elevation);
                if (p.element_width > p.pitch)
                    throw fail("element_width",
                               "must be at most the pitch (" + format_number(p.pitch) + " m): elements would overlap");
            } else {
                if (p.elements != 1) throw fail("elements", "a piston has one element (use type array)");
                if (p.shape == "disk") {
                    positive_key("diameter", p.diameter);
                } else if (p.shape == "rect") {
                    positive_key("width", p.width);
                    positive_key("length", p.length);
                } else {
                    throw fail("shape", "unknown piston shape '" + p.shape + "' (expected disk or rect)");
                }
            }
            if (p.mode == "shear") {
                nonzero(field + ".polarization", p.polarization);
                if (std::abs(cosine(p.polarization, p.normal)) > 1e-6)
                    throw fail("polarization", "must lie in the face (normal to the probe's normal) for shear");
            } else if (p.mode != "normal") {
                throw fail("mode", "unknown mode '" + p.mode + "' (expected normal or shear)");
            }
            finite(field + ".amplitude", p.amplitude);
            wavelet(field + ".wavelet", p.wavelet);
            delay_law(p, field + ".delay_law", who);
            if (p.wedge) wedge(p, field + ".wedge", who);
            if (!p.transmit && !p.receive) throw fail("transmit", "neither transmits nor receives");
        }
    }

    void delay_law(const ProbeSpec& p, const std::string& field, const std::string& who) const {
        const DelayLawSpec& d = p.delay_law;
        auto fail = [&](const std::string& key, const std::string& reason) {
            return error(field + (key.empty() ? "" : "." + key), who + reason);
        };
        if (d.type != "none" && d.type != "steer" && d.type != "focus" && d.type != "custom")
            throw fail("type", "unknown delay law '" + d.type + "' (expected none, steer, focus or custom)");
        if (d.type != "none" && !p.is_array())
            throw fail("type", "a piston is one element: its delay law must be none");
        finite(field + ".angle", d.angle);
        if (!probe_law_angle_allowed(d.angle))
            throw fail("angle", "must lie strictly between -90 and 90 degrees from the normal (got " +
                                    format_number(d.angle) + ")");
        if (d.type == "focus" && !(std::isfinite(d.depth) && d.depth > 0))
            throw fail("depth", "must be > 0 for a focus (got " + format_number(d.depth) + ")");
        if (d.velocity && !(std::isfinite(*d.velocity) && *d.velocity > 0))
            throw fail("velocity", "must be > 0 (got " + format_number(*d.velocity) + ")");
        if (d.type == "custom") {
            if (int(d.delays.size()) != p.elements)
                throw fail("delays", "a custom law needs one delay per element (" + std::to_string(p.elements) +
                                         ", got " + std::to_string(d.delays.size()) + ")");
            for (std::size_t e = 0; e < d.delays.size(); ++e)
                if (!std::isfinite(d.delays[e]) || d.delays[e] < 0)
                    throw error(field + ".delays[" + std::to_string(e) + "]",
                                who + "must be >= 0 s (got " + format_number(d.delays[e]) + ")");
        } else if (!d.delays.empty()) {
            throw fail("delays", "only a custom law takes delays");
        }
    }

    void wedge(const ProbeSpec& p, const std::string& field, const std::string& who) const {
        const WedgeSpec& w = *p.wedge;
        auto fail = [&](const std::string& key, const std::string& reason) {
            return error(field + "." + key, who + reason);
        };
        try {
            if (scene_.material_id(w.material) == kVoidId)
                throw fail("material", "a wedge must be a material, not void");
        } catch (const InputError& e) {
            if (e.field() != "material") throw;
            throw fail("material", e.reason());
        }
        finite(field + ".angle", w.angle);
        if (!(w.angle > 0 && w.angle < 90))
            throw fail("angle", "must lie strictly between 0 and 90 degrees (got " + format_number(w.angle) + ")");
        if (!(std::isfinite(w.height) && w.height > 0))
            throw fail("height", "must be > 0 (got " + format_number(w.height) + ")");
        for (auto [key, v] : {std::pair{"length", w.length}, std::pair{"width", w.width}})
            if (!(std::isfinite(v) && v >= 0))
                throw fail(key, "must be >= 0 (0: the probe's own extent; got " + format_number(v) + ")");
        // The slope is realised by the array's law over a flat, axis-aligned block
        // (docs/architecture.md#probes-and-scans): a piston has no law to realise it with.
        const std::string probe_field = field.substr(0, field.size() - 6);  // without ".wedge"
        if (!p.is_array())
            throw error(probe_field + ".type",
                        who + "a wedge needs an array probe (its slope is realised by the delay law)");
        if (axis_of(p.array_axis) < 0)
            throw error(probe_field + ".array_axis",
                        who + "must lie along a grid axis on a wedge (the block is painted from axis-aligned voxels)");
        if (p.delay_law.type == "custom")
            throw error(probe_field + ".delay_law.type",
                        who + "a wedge takes a none, steer or focus law (a custom law gives every delay itself)");
        const double aperture = (p.elements - 1) * p.pitch + p.element_width;
        if (w.length > 0 && w.length < aperture * (1 - 1e-9))
            throw fail("length", "must cover the array's aperture (" + format_number(aperture) + " m)");
        if (w.width > 0 && w.width < p.elevation * (1 - 1e-9))
            throw fail("width", "must cover the elements' elevation (" + format_number(p.elevation) + " m)");
        const BoxShape box = probe_wedge_block(p);
        const GridSpec& g = scene_.grid;
        const double tol = 1e-9 * std::max({g.size[0], g.size[1], g.size[2]});
        for (int a = 0; a < 3; ++a)
            if (box.min[a] < g.origin[a] - tol || box.max[a] > g.origin[a] + g.size[a] + tol) {
                const std::string key = p.normal[a] != 0 ? "height" : p.array_axis[a] != 0 ? "length" : "width";
                throw fail(key, std::string("the wedge reaches outside the grid along ") + "xyz"[a] + " (" +
                                    format_number(box.min[a]) + " to " + format_number(box.max[a]) +
                                    " m; the grid spans " + format_number(g.origin[a]) + " to " +
                                    format_number(g.origin[a] + g.size[a]) + " m)");
            }
    }

    void scan() const {
        if (!scene_.scan) return;
        const ScanSpec& s = *scene_.scan;
        const bool known = std::any_of(scene_.probes.begin(), scene_.probes.end(),
                                       [&](const ProbeSpec& p) { return p.name == s.probe; });
        if (!known) throw error("scan.probe", "no probe named '" + s.probe + "' in probes");
        for (const ProbeSpec& p : scene_.probes)
            if (p.name == s.probe && s.array_acquisition()) return array_acquisition_scan(s, p);
        if (!s.angles.empty()) throw error("scan.angles", "only a pwi scan has angles");
        if (s.type != "single" && s.type != "linear" && s.type != "raster")
            throw error("scan.type",
                        "unknown scan type '" + s.type + "' (expected single, linear, raster, fmc or pwi)");
        finite("scan.step", s.step);
        finite("scan.step2", s.step2);
        if (s.type == "single" && (s.positions != 1 || s.positions2 != 1))
            throw error("scan.positions", "a single scan is one shot (use type linear or raster)");
        if (s.type != "single" && s.positions > 1 && s.step == Vec3{0, 0, 0})
            throw error("scan.step", "must not be zero for " + std::to_string(s.positions) + " positions");
        if (s.type == "linear" && s.positions2 != 1)
            throw error("scan.positions2", "a linear scan has one line (use type raster)");
        if (s.type == "raster" && s.positions2 > 1 && s.step2 == Vec3{0, 0, 0})
            throw error("scan.step2", "must not be zero for " + std::to_string(s.positions2) + " lines");
        if (s.gated) {
            non_negative("scan.gate.start", s.gate_start);
            finite("scan.gate.end", s.gate_end);
            if (s.gate_end <= s.gate_start)
                throw error("scan.gate.end", "must be after the start (" + format_number(s.gate_start) + " s)");
        }
    }

    // An FMC or PWI of an array probe where it stands (docs/architecture.md#imaging): the shots are
    // its elements or the angles, so nothing moves, nothing is gated, and the acquisition's frame
    // is the probe's face on the specimen.
    void array_acquisition_scan(const ScanSpec& s, const ProbeSpec& p) const {
        const std::string what = "an " + s.type + " scan";
        if (!p.is_array()) throw error("scan.probe", what + " needs an array probe; '" + p.name + "' is a " + p.type);
        if (!p.transmit || !p.receive)
            throw error("scan.probe", "probe '" + p.name + "' must transmit and receive for " + what);
        if (p.active_count > 0)
            throw error("scan.probe", "probe '" + p.name + "': " + what +
                                          " uses every element; remove the probe's active sub-aperture");
        if (p.wedge)
            throw error("scan.type", "probe '" + p.name + "': " + what +
                                         " images from the specimen's surface; imaging through a wedge is not "
                                         "supported (remove the wedge)");
        if (s.positions != 1 || s.step != Vec3{0, 0, 0})
            throw error(s.positions != 1 ? "scan.positions" : "scan.step",
                        what + " is taken where the probe stands, one shot per " +
                            (s.type == "fmc" ? "element" : "angle") + ": leave positions and step out");
        if (s.positions2 != 1 || s.step2 != Vec3{0, 0, 0})
            throw error(s.positions2 != 1 ? "scan.positions2" : "scan.step2",
                        what + " is taken where the probe stands: leave positions2 and step2 out");
        if (s.gated) throw error("scan.gate", what + " is imaged (voxwave-cli image), not gated: leave the gate out");
        if (s.type == "fmc") {
            if (!s.angles.empty()) throw error("scan.angles", "only a pwi scan has angles");
            return;
        }
        if (s.angles.empty())
            throw error("scan.angles", "a pwi scan needs at least one angle (degrees from the normal)");
        if (s.angles.size() > std::size_t(kMaxScanPositions))
            throw error("scan.angles", "at most " + std::to_string(kMaxScanPositions) + " angles (got " +
                                           std::to_string(s.angles.size()) + ")");
        for (std::size_t i = 0; i < s.angles.size(); ++i) {
            const std::string field = "scan.angles[" + std::to_string(i) + "]";
            finite(field, s.angles[i]);
            if (!probe_law_angle_allowed(s.angles[i]))
                throw error(field, "must lie strictly between -90 and 90 degrees from the normal (got " +
                                       format_number(s.angles[i]) + ")");
        }
    }

    static double cosine(const Vec3& a, const Vec3& b) {
        const double na = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        const double nb = std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
        return (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (na * nb);
    }
    // 0, 1 or 2 when v points along that axis (within 1e-6 of its length), else -1.
    static int axis_of(const Vec3& v) {
        for (int a = 0; a < 3; ++a) {
            Vec3 e{0, 0, 0};
            e[std::size_t(a)] = 1;
            if (std::abs(std::abs(cosine(v, e)) - 1) < 1e-12) return a;
        }
        return -1;
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
            else if (std::holds_alternative<StlShape>(scene_.shapes[i].geometry))
                throw error("shapes[" + std::to_string(i) + "].type",
                            "an STL surface is 3D; a 2D scene paints with shapes");
        if (scene_.voxels) throw error("voxels", "painted voxel files are 3D; a 2D scene paints with shapes");
        for (std::size_t i = 0; i < scene_.sources.size(); ++i)
            if (scene_.sources[i].direction[2] != 0)
                throw error("sources[" + std::to_string(i) + "].direction",
                            "a 2D scene's forces lie in the x-y plane (z must be 0)");
        if (scene_.run.method == Method::Tcovfem)
            throw error("run.method", "tcovfem has no 2D engine (use vfem or ovfem)");
        if (scene_.run.method == Method::Sem) throw error("run.method", "sem has no 2D engine (use vfem or ovfem)");
        if (!scene_.probes.empty()) throw error("probes", "a 2D scene has no probes yet (use sources and receivers)");
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
        non_negative("run.dt", r.dt);
        non_negative("run.duration", r.duration);
        if (r.steps < 0) throw error("run.steps", "must be >= 0 (got " + std::to_string(r.steps) + ")");
        // Probe footprints weight the voxel corners; a spectral run's nodes are its GLL grid.
        if (r.method == Method::Sem && !scene_.probes.empty())
            throw error("probes", "sem runs have no probes yet; use vfem, ovfem or tcovfem");
        if (scene_.snapshots) {
            // The snapshot rules sample the voxel corners; a spectral run's nodes are its GLL grid.
            if (r.method == Method::Sem)
                throw error("run.snapshots",
                            "sem runs do not write wavefield snapshots yet; use vfem, ovfem or tcovfem");
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
    v.probes();
    v.scan();
    v.boundary();
    v.damping();
    v.run();
}

}  // namespace voxwave
