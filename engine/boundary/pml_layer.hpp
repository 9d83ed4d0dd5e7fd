// The convolutional PML with complex frequency shift (CFS-PML; Kuzuoglu & Mittra 1996, Roden &
// Gedney 2000, Komatitsch & Martin 2007), applied to the voxel elements by complex coordinate
// stretching (docs/architecture.md#boundaries states the formulation and why).
//
// Along an axis a with a layer, the coordinate is stretched by
//     s_a(omega) = kappa_a + d_a / (alpha_a + i omega),
// with profiles over the depth x into the layer (0 at its inner edge, L on the face):
//     d(x) = d0 (x/L)^2,  d0 = -3 vp ln(R) / (2 L),   kappa(x) = 1 + (kappa_max - 1)(x/L)^2,
//     alpha(x) = alpha_max (1 - x/L),
// vp the fastest P-wave speed of the model and R the target reflection. Axes without a layer
// have s = 1. An element takes the profiles at its centre (s_a constant over the element), a
// node at its position (for its lumped mass). With S = s_x s_y s_z the equation times S is
//     rho S (i omega)^2 u_i = d_j ( C_ijkl [S / (s_j s_l)] d_l u_k ),
// so an element's stiffness acts on its displacement-gradient moments through the six filters
// F_jl = S / (s_j s_l) (F_jl = s_m for j != l, m the third axis; F_jj = s_m s_n / s_j), and a
// node's mass through S. Each is rational with poles at the alphas and beta = alpha + d / kappa,
// written in the Newton form over a chain of the item's poles p_1..p_K,
//     F = c0 + sum_k a_k / ((z + p_1) ... (z + p_k)):
// in time, the moments times c0 plus the chained convolutions phi_k = exp(-p_k t) * phi_{k-1}
// (phi_0 the moments), each advanced by a second-order recursion (its input linear over each
// step). Its coefficients stay bounded where poles coincide or nearly do (partial fractions'
// residues grow as 1 / their differences and cancel, amplifying rounding).
//
// This header holds the layer's 1-D profiles (what BoundaryNodes carries, slices and turns) and
// the flat tables a stepper's correction kernel runs on: the layer's elements and nodes with
// their poles, recursion factors and filter coefficients (memory for those only).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "boundary/boundary_conditions.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave {

// Profiles along one axis, by element (at centres) or node index; empty where no face of the
// axis has a PML (s = 1 there).
struct PmlProfile {
    std::vector<double> d, kappa, alpha;
    bool empty() const { return d.empty(); }
    bool operator==(const PmlProfile&) const = default;
};

struct PmlLayer {
    std::array<int, 3> n{0, 0, 0};  // elements along each axis of the grid the layer is for (a subdomain's)
    // The whole model's profiles (element[a]: one per element plane along a, node[a]: one per node
    // plane), and where the grid's index 0 lies in them: a subdomain keeps the planes beyond its own,
    // whose elements stretch the mass of its shared nodes too.
    std::array<PmlProfile, 3> element{};
    std::array<PmlProfile, 3> node{};
    std::array<int, 3> offset{0, 0, 0};

    bool empty() const { return element[0].empty() && element[1].empty() && element[2].empty(); }
    // The node planes [first / plane, last / plane) of the z axis (a slab; plane = the nodes of
    // one z plane), renumbered from 0: n and offset change, the profiles stay whole.
    PmlLayer node_range(std::size_t first, std::size_t last) const;
    // The box of elements [e0, e0 + n) (a subdomain of a distributed run), its index 0 at e0:
    // n and offset change, the profiles stay whole.
    PmlLayer element_box(const std::array<int, 3>& e0, const std::array<int, 3>& n) const;
    // The layer of the model with axes turned: new axis a is old axis from[a].
    PmlLayer turned(const std::array<int, 3>& from) const;
    bool operator==(const PmlLayer&) const = default;
};

// d0 of a PML of thickness L (metres), target reflection R, fastest P wave vp (m/s).
double pml_peak_damping(double vp, double thickness, double reflection);

// The profiles of every PML face of bc on grid g; empty when no face has a PML.
PmlLayer pml_layer(const BoundaryConditions& bc, const VoxelGrid& g, double vp_max);

// One point's stretch: s_a = kappa_a + d_a / (alpha_a + i omega) for a = x, y, z.
struct PmlStretch {
    std::array<double, 3> d{0, 0, 0}, kappa{1, 1, 1}, alpha{0, 0, 0};
    bool identity(int a) const { return d[std::size_t(a)] == 0 && kappa[std::size_t(a)] == 1; }
    bool identity() const { return identity(0) && identity(1) && identity(2); }
};

// The six stiffness filters of an element, indexed xx, yy, zz, xy, xz, yz.
inline constexpr int kPmlFilters = 6;
constexpr int pml_filter(int j, int l) { return j == l ? j : j + l + 2; }  // xy -> 3, xz -> 4, yz -> 5

// Flat tables of the layer for a correction kernel, both for the elements (stiffness filters on
// the 21 distinct gradient moments of the voxel element, voxel_element_kernel.hpp) and for the
// nodes (the mass term). Poles of an item are [first_pole[i], first_pole[i + 1]), in its chain's
// order.
struct PmlTables {
    // Per pole of the chained convolution phi_k' = -p_k phi_k + phi_{k-1}, advanced over one step
    // dt with its input linear: phi_k+ = decay phi_k + w_old phi_{k-1}- + w_new phi_{k-1}+.
    struct Poles {
        std::vector<double> p, decay, w_old, w_new;
        void add(double pole, double dt);
        std::size_t size() const { return p.size(); }
    };

    // Elements: the layer's non-void elements (x-fastest index, ascending), their poles, and per
    // element the six filters' F_jl(infinity) - 1 and per pole their Newton coefficients a_k
    // (kPmlFilters each).
    std::vector<std::size_t> element;
    std::vector<std::size_t> element_first_pole;  // element.size() + 1 entries
    Poles element_poles;
    std::vector<double> filter_const;   // kPmlFilters per element
    std::vector<double> filter_newton;  // kPmlFilters per element pole

    // Nodes with mass whose S is not 1. Their mass term m S (i omega)^2 u is advanced as the
    // central difference of the stretched displacement y = S u = c0 u + sum_k a_k phi_k(u),
    //     (1 + h) y+ = 2 y - (1 - h) y- - dt^2 / m f,
    // and u+ follows from y+ (each phi_k+ is linear in u+, pml_node_update). In a
    // stretched corner the mass and the stiffness then see the same filter (their product
    // S (i omega)^2 + k S is central differences on y, stable under the interior's step).
    std::vector<std::size_t> node;
    std::vector<std::size_t> node_first_pole;  // node.size() + 1 entries
    Poles node_poles;
    std::vector<double> node_scale;   // c0 = S(infinity) = kappa_x kappa_y kappa_z per node
    std::vector<double> node_newton;  // a_k per node pole

    bool empty() const { return element.empty() && node.empty(); }
    // What the tables hold (a layer pass's memory_bytes adds its memory variables).
    std::size_t bytes() const {
        const std::size_t doubles = 4 * (element_poles.size() + node_poles.size()) + filter_const.size() +
                                    filter_newton.size() + node_scale.size() + node_newton.size();
        const std::size_t indices = element.size() + element_first_pole.size() + node.size() + node_first_pole.size();
        return doubles * sizeof(double) + indices * sizeof(std::size_t);
    }
};

// The tables of layer on grid g (whose voids carry no element), node masses `node_mass` (the
// nodes without mass are not moved), step dt. The nodes are the voxel corners, or with
// `node_planes_per_element` P > 1 a grid of P n_a + 1 nodes along each axis (sem's GLL nodes):
// a node inside an element along an axis has that element alone around it along the axis.
PmlTables pml_tables(const PmlLayer& layer, const VoxelGrid& g, const std::vector<double>& node_mass, double dt,
                     int node_planes_per_element = 1);

// The layer's elements by class: elements with the same depths into the layer along each axis
// have the same poles and filter coefficients, so a correction pass reads them from a few
// thousand rows (that stay in cache) instead of one row per element. Exact: rows of equal values
// only.
struct PmlElementClasses {
    std::vector<std::uint32_t> of_element;  // class of each layer element (PmlTables::element order)
    std::vector<std::size_t> first_pole;    // classes + 1 entries: the class's poles, in chain order
    PmlTables::Poles poles;
    std::vector<double> filter_const;   // kPmlFilters per class
    std::vector<double> filter_newton;  // kPmlFilters per class pole
    std::size_t size() const { return first_pole.empty() ? 0 : first_pole.size() - 1; }
};
PmlElementClasses pml_element_classes(const PmlTables& t);

// The stretch of node (i, j, k) of the layer's grid.
PmlStretch pml_node_stretch(const PmlLayer& layer, int i, int j, int k);

// The largest d dt the tables use: a layer thinner than about 4 elements asks for more, where the
// explicit step of its filters would no longer be stable (d is capped there, the layer
// absorbing less, and stays stable).
inline constexpr double kPmlMaxDampingPerStep = 1.5;

}  // namespace voxwave
