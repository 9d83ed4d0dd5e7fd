#include "wave/wave_problem.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "boundary/boundary_conditions.hpp"
#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "probe/delay_law.hpp"
#include "probe/probe_footprint.hpp"
#include "scene/rasterise.hpp"
#include "scene/run_rules.hpp"
#include "wave/plane_strain_element_matrix.hpp"
#include "wave/sem_element_matrix.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/voxel_element_matrix.hpp"

namespace voxwave {

RayleighCoefficients rayleigh_coefficients(double ratio, double f_low, double f_high) {
    const double w1 = 2.0 * std::numbers::pi * f_low, w2 = 2.0 * std::numbers::pi * f_high;
    return {2.0 * ratio * w1 * w2 / (w1 + w2), 2.0 * ratio / (w1 + w2)};
}

double central_difference_stable_dt(double omega_max, double beta) {
    const double xi = 0.5 * beta * omega_max;
    return 2.0 / omega_max * (std::sqrt(1.0 + xi * xi) - xi);
}

namespace {

std::string fmt(double v) {
    std::ostringstream s;
    s.precision(4);
    s << v;
    return s.str();
}

std::vector<double> nodal_masses(const VoxelGrid& g, const std::vector<Material>& mats) {
    std::vector<double> m(g.node_count(), 0.0);
    const double v8 = g.spacing * g.spacing * g.spacing / 8.0;
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                const MaterialId id = g.at(i, j, k);
                if (id == kVoidId) continue;
                const double me = mats[id - 1].density * v8;
                for (int c = 0; c < 2; ++c)
                    for (int b = 0; b < 2; ++b)
                        for (int a = 0; a < 2; ++a) m[g.node_index(i + a, j + b, k + c)] += me;
            }
    return m;
}

// Plane strain: the lower node plane of a one-layer grid, rho ds^2 / 4 per element node.
std::vector<double> plane_strain_nodal_masses(const VoxelGrid& g, const std::vector<Material>& mats) {
    const std::size_t rs = std::size_t(g.n[0] + 1);
    std::vector<double> m(rs * std::size_t(g.n[1] + 1), 0.0);
    for (int j = 0; j < g.n[1]; ++j)
        for (int i = 0; i < g.n[0]; ++i) {
            const MaterialId id = g.at(i, j, 0);
            if (id == kVoidId) continue;
            const double me = plane_strain_node_mass_share(g.spacing, mats[id - 1].density);
            for (int b = 0; b < 2; ++b)
                for (int a = 0; a < 2; ++a) m[std::size_t(i + a) + rs * std::size_t(j + b)] += me;
        }
    return m;
}

}  // namespace

double stable_time_step(const VoxelGrid& g, const std::vector<Material>& materials, Method method,
                        const DampingSpec& damping, int order, int dimensions) {
    std::array<bool, 256> used{};
    for (MaterialId id : g.ids) used[id] = true;
    const ElementMethod em = method == Method::Vfem ? ElementMethod::Vfem : ElementMethod::Ovfem;
    double omega2 = 0;
    for (std::size_t m = 0; m < materials.size() && m < 255; ++m)
        if (used[m + 1])
            omega2 = std::max(omega2, method == Method::Sem ? sem_element_max_omega2(order, g.spacing, materials[m])
                                      : dimensions == 2 ? plane_strain_element_max_omega2(em, g.spacing, materials[m])
                                                        : voxel_element_max_omega2(em, g.spacing, materials[m]));
    if (omega2 <= 0) return 0;
    const double beta =
        damping.type == "rayleigh" ? rayleigh_coefficients(damping.ratio, damping.f_low, damping.f_high).beta : 0.0;
    return central_difference_stable_dt(std::sqrt(omega2), beta);
}

void assert_run_rules(const WaveProblem& problem) {
    if (!tcovfem_stages_allowed(problem.stages))
        throw std::logic_error("wave problem: TCOVFEM stages " + std::to_string(problem.stages) +
                               " outside the run rules (the scene skipped validate_scene)");
    if (problem.method == Method::Sem && !sem_order_allowed(problem.order))
        throw std::logic_error("wave problem: sem order " + std::to_string(problem.order) +
                               " outside the run rules (the scene skipped validate_scene)");
    if (!precision_allowed(problem.method, problem.precision))
        throw std::logic_error(std::string("wave problem: ") + to_string(problem.method) + " has no " +
                               to_string(problem.precision) + " engine (the scene skipped validate_scene)");
}

WaveProblem build_wave_problem(const Scene& scene, const std::string& label) {
    return build_wave_problem(scene, rasterise(scene), label);
}

WaveProblem build_wave_problem(const Scene& scene, VoxelGrid model, const std::string& label) {
    if (model.spacing != scene.grid.spacing || model.element_count() != model.ids.size())
        throw InputError(label, "grid", "the voxel model does not match the scene's grid");
    WaveProblem p;
    p.grid = std::move(model);
    p.materials = scene.materials;
    p.method = scene.run.method;
    p.precision = scene.run.precision;
    p.stages = scene.run.stages;
    p.order = scene.run.order;
    p.backend = scene.run.backend;
    p.dimensions = scene.grid.dimensions;
    assert_run_rules(p);
    if (p.dimensions == 2 && p.grid.n[2] != 1)
        throw InputError(label, "grid", "a plane-strain (2D) model has one element layer");
    const VoxelGrid& g = p.grid;

    // Materials present, for the CFL bound.
    std::array<bool, 256> used{};
    for (MaterialId id : g.ids) used[id] = true;
    double vp_max = 0;
    for (std::size_t m = 0; m < p.materials.size(); ++m)
        if (used[m + 1]) vp_max = std::max(vp_max, p.materials[m].vp);
    if (vp_max <= 0) throw InputError(label, "shapes", "the model has no elements (every voxel is void)");

    if (scene.damping.type == "rayleigh")
        p.rayleigh = rayleigh_coefficients(scene.damping.ratio, scene.damping.f_low, scene.damping.f_high);
    p.dt_stable = stable_time_step(g, p.materials, p.method, scene.damping, p.order, p.dimensions);
    p.dt = run_time_step(scene.run.dt, p.dt_stable);
    if (!time_step_stable(p.dt, p.dt_stable))
        throw InputError(label, "run.dt",
                         fmt(p.dt) + " s is above the stable limit " + fmt(p.dt_stable) + " s of " +
                             to_string(p.method) + " at spacing " + fmt(g.spacing) + " m");
    if (scene.run.steps > 0) {
        p.steps = scene.run.steps;
    } else if (scene.run.duration > 0) {
        const double n = scene.run.duration / p.dt;
        p.steps = static_cast<std::int64_t>(std::abs(n - std::round(n)) < 1e-6 ? std::round(n) : std::ceil(n));
    } else {
        throw InputError(label, "run.duration", "give a duration or a number of steps");
    }

    // The PML's default frequency comes from every wavelet that drives the model: the probes' too.
    std::vector<Source> drives = scene.sources;
    for (const ProbeSpec& probe : scene.probes)
        if (probe.transmit)
            drives.push_back(Source{probe.name, probe.center, probe.normal, probe.amplitude, probe.wavelet});
    const BoundaryConditions bc = boundary_conditions(scene.boundary, pml_default_frequency(drives));
    // Sources, receivers and fixed points snap to the nearest node of the method's node grid.
    std::function<std::pair<std::size_t, Vec3>(const Vec3&)> snap;
    if (p.method == Method::Sem) {
        const SemMesh mesh = sem_mesh(g, p.order);
        p.node_mass = sem_node_masses(mesh, g, p.materials);
        p.boundary = sem_boundary_nodes(bc, mesh, g, vp_max);
        snap = [mesh, &g](const Vec3& x) {
            const auto n = sem_nearest_node(mesh, g, x);
            return std::pair{mesh.node_index(n[0], n[1], n[2]), mesh.node_position(n[0], n[1], n[2])};
        };
    } else {
        p.node_mass = p.dimensions == 2 ? plane_strain_nodal_masses(g, p.materials) : nodal_masses(g, p.materials);
        p.boundary = boundary_nodes(bc, g, vp_max);
        // Plane strain: the nodes are the lower node plane (validate_scene keeps the z faces free and
        // the points at z = 0, so the plane's share is the whole boundary).
        if (p.dimensions == 2) p.boundary = p.boundary.node_range(0, p.node_count());
        snap = [&g](const Vec3& x) {
            const auto n = nearest_node(g, x);
            return std::pair{g.node_index(n[0], n[1], n[2]), g.node_position(n[0], n[1], n[2])};
        };
    }

    for (std::size_t s = 0; s < scene.sources.size(); ++s) {
        const Source& src = scene.sources[s];
        const std::string field = "sources[" + std::to_string(s) + "].position";
        SourceTerm t;
        t.name = src.name;
        std::tie(t.node, t.snapped) = snap(src.position);
        if (p.node_mass[t.node] <= 0) throw InputError(label, field, "the nearest node touches no element (void)");
        const double dn = std::sqrt(src.direction[0] * src.direction[0] + src.direction[1] * src.direction[1] +
                                    src.direction[2] * src.direction[2]);
        if (!(dn > 0)) throw InputError(label, "sources[" + std::to_string(s) + "].direction", "must be non-zero");
        for (int c = 0; c < 3; ++c) t.force[c] = src.amplitude * src.direction[c] / dn;
        t.wavelet = src.wavelet;
        p.sources.push_back(std::move(t));
    }
    for (std::size_t r = 0; r < scene.receivers.size(); ++r) {
        ReceiverPoint rp;
        rp.name = scene.receivers[r].name;
        std::tie(rp.node, rp.snapped) = snap(scene.receivers[r].position);
        if (p.node_mass[rp.node] <= 0)
            throw InputError(label, "receivers[" + std::to_string(r) + "].position",
                             "the nearest node touches no element (void)");
        p.receivers.push_back(std::move(rp));
    }
    p.scene_source_count = p.sources.size();
    p.scene_receiver_count = p.receivers.size();
    for (std::size_t i = 0; i < scene.probes.size(); ++i)
        add_probe(p, scene.probes[i], scene.probes[i].center, i, label);
    if (scene.snapshots) {
        p.snapshots = plan_snapshots(*scene.snapshots, g, p.dt, p.steps, label);
        p.snapshot_nodes = snapshot_nodes(p.snapshots.grid, g);
    }
    return p;
}

void add_probe(WaveProblem& p, const ProbeSpec& spec, const Vec3& center, std::size_t index, const std::string& label) {
    const std::string field = "probes[" + std::to_string(index) + "]";
    ProbeSpec placed = spec;
    placed.center = center;
    const ProbeFootprint face = probe_footprint(placed, p.grid, label, field);
    const double velocity = probe_law_velocity(spec, face, p.materials);
    const bool law_needs_velocity = spec.delay_law.type == "steer" || spec.delay_law.type == "focus";
    if (law_needs_velocity && !(velocity > 0))
        throw InputError(label, field + ".delay_law.velocity",
                         "probe '" + spec.name + "': the material under it has no " +
                             (spec.mode == "shear" ? "shear" : "P") + " wave speed; give the law a velocity");
    const int n = spec.element_count();
    const int first = spec.active_count > 0 ? spec.active_first : 0;
    const int count = spec.active_count > 0 ? spec.active_count : n;
    // The law of the active aperture, about its own centre (a sub-aperture is a smaller probe
    // there); a custom law gives every element's delay itself.
    std::vector<double> delays(std::size_t(n), 0.0);
    if (spec.delay_law.type == "custom") {
        delays = delay_law_delays(spec.delay_law, face.offsets, velocity);
    } else {
        const double mid = 0.5 * (face.offsets[std::size_t(first)] + face.offsets[std::size_t(first + count - 1)]);
        std::vector<double> local;
        for (int e = first; e < first + count; ++e) local.push_back(face.offsets[std::size_t(e)] - mid);
        std::vector<double> d;
        if (spec.wedge) {
            // Every element on the block's flat top, the wedge's height above the specimen.
            const double c_wedge = face.material != kVoidId ? p.materials[face.material - 1].vp : 0;
            const std::vector<double> heights(local.size(), face.wedge_height);
            try {
                d = wedge_delay_law_delays(spec.delay_law, spec.wedge->angle, local, heights, c_wedge, velocity);
            } catch (const std::invalid_argument&) {
                throw InputError(label, field + ".delay_law.angle",
                                 "probe '" + spec.name + "': no ray in the wedge (" + format_number(c_wedge) +
                                     " m/s) refracts to " + format_number(spec.delay_law.angle) +
                                     " degrees in the specimen (" + format_number(velocity) + " m/s)");
            }
        } else {
            d = delay_law_delays(spec.delay_law, local, velocity);
        }
        std::copy(d.begin(), d.end(), delays.begin() + first);
    }
    const std::size_t nx1 = std::size_t(p.grid.n[0]) + 1, ny1 = std::size_t(p.grid.n[1]) + 1;
    auto position_of = [&](std::size_t node) {
        return p.grid.node_position(int(node % nx1), int(node / nx1 % ny1), int(node / (nx1 * ny1)));
    };
    for (int e = 0; e < n; ++e)
        if (e < first || e >= first + count) delays[std::size_t(e)] = 0;
    if (spec.transmit) {
        for (int e = first; e < first + count; ++e)
            for (const NodalWeight& w : face.elements[std::size_t(e)]) {
                SourceTerm t;
                t.name = spec.name + "[" + std::to_string(e) + "]";
                t.node = w.node;
                t.snapped = position_of(w.node);
                for (int c = 0; c < 3; ++c) t.force[c] = spec.amplitude * w.weight * face.direction[c];
                t.wavelet = spec.wavelet;
                t.time_shift = delays[std::size_t(e)];
                p.sources.push_back(std::move(t));
            }
    }
    if (!spec.receive) return;
    ProbeChannels ch;
    ch.name = spec.name;
    ch.array = spec.is_array();
    ch.direction = face.direction;
    ch.delays = delays;
    ch.active_first = first;
    ch.active_count = count;
    ch.elements.resize(std::size_t(n));
    std::map<std::size_t, std::size_t> receiver_of;  // node -> index into p.receivers
    for (int e = first; e < first + count; ++e) {
        const double area = face.areas[std::size_t(e)];
        for (const NodalWeight& w : face.elements[std::size_t(e)]) {
            auto [it, added] = receiver_of.emplace(w.node, p.receivers.size());
            if (added) {
                ReceiverPoint rp;
                rp.name = spec.name + "#" + std::to_string(w.node);
                rp.node = w.node;
                rp.snapped = position_of(w.node);
                p.receivers.push_back(std::move(rp));
            }
            ch.elements[std::size_t(e)].push_back({it->second, w.weight / area});
        }
    }
    p.probes.push_back(std::move(ch));
}

}  // namespace voxwave
