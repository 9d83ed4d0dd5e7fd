// Everything the time loop needs, derived once from a scene: the voxelised model, nodal
// masses, constraints, damping, source and receiver nodes, the checked time step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "boundary/boundary_nodes.hpp"
#include "model/voxel_grid.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene.hpp"
#include "scene/snapshots.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

struct SourceTerm {
    std::string name;
    std::size_t node = 0;
    Vec3 snapped{};
    Vec3 force{};  // amplitude (N) times the unit direction
    Wavelet wavelet;
    double time_shift = 0;  // s: the force is force x wavelet(t - time_shift) (a probe element's delay)
};

struct ReceiverPoint {
    std::string name;
    std::size_t node = 0;
    Vec3 snapped{};
};

// A receiving probe (engine/probe): each element's signal is sum_k weight_k v(receiver_k) . direction,
// the weights the element's consistent nodal weights over its area (so they sum to 1): the mean
// particle velocity over its face. Elements outside the active aperture have no receivers.
struct ProbeChannels {
    std::string name;
    bool array = false;
    Vec3 direction{};
    std::vector<double> delays;  // per element, s (the transmit law)
    int active_first = 0, active_count = 0;
    std::vector<std::vector<std::pair<std::size_t, double>>> elements;  // (index into receivers, weight)
};

struct RayleighCoefficients {
    double alpha = 0;  // mass-proportional, 1/s
    double beta = 0;   // stiffness-proportional, s
};

// alpha, beta such that the damping ratio equals `ratio` at f_low and f_high (Hz).
RayleighCoefficients rayleigh_coefficients(double ratio, double f_low, double f_high);

// Largest stable central-difference step for angular frequency omega_max and stiffness damping
// beta: (2 / omega) (sqrt(1 + xi^2) - xi), xi = beta omega / 2 (the lagged stiffness-damping
// term of our update has exactly this bound).
double central_difference_stable_dt(double omega_max, double beta);

// The largest stable central-difference step of a model (0 when every voxel is void); `order`
// is the spectral elements' p (method sem only); dimensions 2 takes the plane-strain square element.
double stable_time_step(const VoxelGrid& grid, const std::vector<Material>& materials, Method method,
                        const DampingSpec& damping, int order = kSemMaxOrder, int dimensions = 3);

struct WaveProblem {
    // 3, or 2 for plane strain: then grid has one element layer (n[2] = 1), the nodes are its lower
    // node plane (node_count() of them, x-fastest), masses are per unit thickness (rho ds^2 / 4 an
    // element node), and sources, receivers and fixed points have two components.
    int dimensions = 3;
    VoxelGrid grid;
    std::vector<Material> materials;  // materials[id - 1]
    Method method = Method::Ovfem;
    Precision precision = Precision::Fp64;
    int stages = kTcovfemMaxStages;
    int order = kSemMaxOrder;  // method sem: the GLL order p
    Backend backend = Backend::Auto;
    double dt = 0, dt_stable = 0;
    std::int64_t steps = 0;
    RayleighCoefficients rayleigh;
    // The per-node data below is on the problem's node grid: the voxel corners, or for method sem
    // the GLL nodes of sem_mesh(grid, order) (sem_mesh.hpp); node_count() says how many.
    std::vector<double> node_mass;         // per node, the lumped mass of its elements' shares
    BoundaryNodes boundary;                // sponge damping and fixed nodes (engine/boundary)
    std::vector<SourceTerm> sources;       // the scene's, then the probes' nodal forces
    std::size_t scene_source_count = 0;    // sources [0, this) are the scene's
    std::vector<ReceiverPoint> receivers;  // the scene's, then the probes' face nodes
    std::vector<ProbeChannels> probes;     // receiving probes, in the scene's order
    std::size_t scene_receiver_count = 0;  // receivers [0, this) are the scene's
    // run.snapshots: the plan (nodes, steps, fields; no values yet) and the sampled nodes in the
    // order of a snapshot's values. Empty without snapshots.
    SnapshotSeries snapshots;
    std::vector<std::size_t> snapshot_nodes;

    // The method's nodes: the voxel corners, the GLL grid (sem) or the lower node plane (2D).
    std::size_t node_count() const { return node_mass.size(); }
    // Node planes per element plane along each axis: 1 for the voxel corners, p for sem's GLL
    // grid, whose nodes along an axis of n elements are then node_planes_per_element() n + 1.
    int node_planes_per_element() const { return method == Method::Sem ? order : 1; }
    ElementMethod element_method() const { return method == Method::Vfem ? ElementMethod::Vfem : ElementMethod::Ovfem; }
};

// Rasterises at scene.grid.spacing and checks what a run needs beyond validate_scene, whose
// checks `scene` must have passed (a scene read by read_scene_json has; the GUI validates its
// document before a run). Throws InputError naming `label` and the field: a dt above the
// model's stable limit ("run.dt"), sources or receivers on a node with no element, no duration,
// no materials in the model...
WaveProblem build_wave_problem(const Scene& scene, const std::string& label);
// The same on a model already voxelised at scene.grid.spacing (the GUI's painted grid).
WaveProblem build_wave_problem(const Scene& scene, VoxelGrid model, const std::string& label);

// The scene's probe `index` placed on the problem's model (engine/probe/probe_footprint.hpp):
// transmitting, its elements' consistent nodal forces become sources (each element's delay in
// time_shift); receiving, its face nodes become receivers after the ones already there and its
// channels are added to problem.probes. `center` replaces the probe's centre (a scan's shot).
// Throws InputError(label, "probes[i].field", "probe 'NAME': reason") where it does not fit.
void add_probe(WaveProblem& problem, const ProbeSpec& probe, const Vec3& center, std::size_t index,
               const std::string& label);

// The run rules (scene/run_rules.hpp) every engine relies on: TCOVFEM's stages and the
// precision of the method. std::logic_error when broken: validate_scene refuses such a scene,
// so the caller built or changed the problem without it.
void assert_run_rules(const WaveProblem& problem);

}  // namespace voxwave
