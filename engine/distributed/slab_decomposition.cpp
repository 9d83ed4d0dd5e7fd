#include "distributed/slab_decomposition.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "core/errors.hpp"

namespace voxwave {

void check_slab_count(int planes, int count) {
    if (count < 1) throw InputError("", "ranks", "need at least one rank");
    if (count > planes)
        throw InputError("", "ranks",
                         std::to_string(count) + " ranks but the model has only " + std::to_string(planes) +
                             " element planes along its longest axis (at least one plane per rank)");
}

std::vector<Slab> partition_axis(const VoxelGrid& grid, int axis, int count) {
    const int nk = grid.n[std::size_t(axis)];
    check_slab_count(nk, count);
    // Work of each element plane across `axis`.
    std::vector<double> work(std::size_t(nk), 0.0);
    const int nx = grid.n[0], ny = grid.n[1], nz = grid.n[2];
    std::size_t e = 0;
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i, ++e) {
                const int c[3] = {i, j, k};
                work[std::size_t(c[axis])] += grid.ids[e] == kVoidId ? 0.25 : 1.0;
            }
    std::vector<double> cum(std::size_t(nk) + 1, 0.0);
    for (int k = 0; k < nk; ++k) cum[std::size_t(k) + 1] = cum[std::size_t(k)] + work[std::size_t(k)];
    std::vector<Slab> slabs(static_cast<std::size_t>(count));
    int k = 0;
    for (int s = 0; s < count; ++s) {
        Slab& sl = slabs[std::size_t(s)];
        sl.index = s;
        sl.count = count;
        sl.k0 = k;
        if (s + 1 == count) {
            sl.k1 = nk;
        } else {
            // First plane boundary whose cumulative work reaches the range's share, leaving at
            // least one plane for each later range.
            const double target = cum[std::size_t(nk)] * double(s + 1) / double(count);
            int b = int(std::lower_bound(cum.begin(), cum.end(), target) - cum.begin());
            if (b > 0 && target - cum[std::size_t(b - 1)] < cum[std::size_t(b)] - target) --b;  // nearer boundary
            sl.k1 = std::clamp(b, k + 1, nk - (count - 1 - s));
        }
        k = sl.k1;
    }
    return slabs;
}

void check_process_grid(const VoxelGrid& grid, const ProcessGrid& g, int ranks, const std::string& field) {
    if (g.count() != ranks)
        throw InputError("", field,
                         "process grid " + to_string(g) + " has " + std::to_string(g.count()) + " ranks, the job has " +
                             std::to_string(ranks));
    for (int a = 0; a < 3; ++a)
        if (g.ranks[std::size_t(a)] > grid.n[std::size_t(a)])
            throw InputError("", field,
                             "process grid " + to_string(g) + " puts " + std::to_string(g.ranks[std::size_t(a)]) +
                                 " ranks along " + "xyz"[a] + ", which has only " +
                                 std::to_string(grid.n[std::size_t(a)]) + " element planes");
}

ProcessGrid choose_process_grid(const VoxelGrid& grid, int ranks) {
    check_slab_count(grid.n[2], ranks);
    ProcessGrid best{{1, 1, ranks}};
    double best_cost = std::numeric_limits<double>::infinity();
    const double nx = grid.n[0] + 1;
    for (int py = 1; py <= ranks; ++py) {
        if (ranks % py != 0) continue;
        const int pz = ranks / py;
        const double ty = double(grid.n[1]) / py, tz = double(grid.n[2]) / pz;  // planes per rank
        if ((py > 1 && ty < kMinPlanesPerRank) || (pz > 1 && tz < kMinPlanesPerRank)) continue;
        // The busiest rank's ghost nodes sent per step: a plane to each neighbour across each
        // cut axis (one neighbour when the axis has two ranks, two in the middle of more).
        const double cost = std::min(2, pz - 1) * nx * (ty + 1) + std::min(2, py - 1) * nx * (tz + 1);
        if (cost < best_cost) {  // py ascending: slabs win a tie
            best_cost = cost;
            best = {{1, py, pz}};
        }
    }
    return best;
}

int Subdomain::neighbour(int axis, int side) const {
    std::array<int, 3> c = coord;
    c[std::size_t(axis)] += side == 0 ? -1 : 1;
    return c[0] + ranks[0] * (c[1] + ranks[1] * c[2]);
}
std::array<int, 3> Subdomain::g0() const {
    return {e0[0] - int(has_neighbour(0, 0)), e0[1] - int(has_neighbour(1, 0)), e0[2] - int(has_neighbour(2, 0))};
}
std::array<int, 3> Subdomain::g1() const {
    return {e1[0] + int(has_neighbour(0, 1)), e1[1] + int(has_neighbour(1, 1)), e1[2] + int(has_neighbour(2, 1))};
}

std::vector<Subdomain> partition_boxes(const VoxelGrid& grid, const ProcessGrid& g) {
    check_process_grid(grid, g, g.count(), "ranks");
    std::array<std::vector<Slab>, 3> cuts;
    for (int a = 0; a < 3; ++a) cuts[std::size_t(a)] = partition_axis(grid, a, g.ranks[std::size_t(a)]);
    std::vector<Subdomain> out;
    for (int cz = 0; cz < g.ranks[2]; ++cz)
        for (int cy = 0; cy < g.ranks[1]; ++cy)
            for (int cx = 0; cx < g.ranks[0]; ++cx) {
                Subdomain s;
                s.index = int(out.size());
                s.ranks = g.ranks;
                s.coord = {cx, cy, cz};
                for (std::size_t a = 0; a < 3; ++a) {
                    s.e0[a] = cuts[a][std::size_t(s.coord[a])].k0;
                    s.e1[a] = cuts[a][std::size_t(s.coord[a])].k1;
                }
                out.push_back(s);
            }
    return out;
}

HaloPlan halo_plan(const Subdomain& sub, int planes_per_element) {
    HaloPlan plan;
    const std::array<int, 3> g0 = sub.g0(), g1 = sub.g1();
    const int P = planes_per_element;
    for (std::size_t a = 0; a < 3; ++a) plan.nodes[a] = P * (g1[a] - g0[a]) + 1;
    for (int axis : {2, 1, 0}) {
        if (sub.ranks[std::size_t(axis)] == 1) continue;
        HaloPhase phase;
        phase.axis = axis;
        const int last = plan.nodes[std::size_t(axis)] - 1;
        for (int side = 0; side < 2; ++side) {
            if (!sub.has_neighbour(axis, side)) continue;
            HaloTransfer t;
            t.neighbour = sub.neighbour(axis, side);
            t.side = side;
            t.send.hi = t.recv.hi = plan.nodes;  // the whole local extent along the other axes
            // Local node plane 0 (or `last`) is the ghost, P (last - P) the seam both sides compute
            // (with the ghost element's inner planes between), and 2 P (last - 2 P) the
            // neighbour's ghost.
            const int send = side == 0 ? 2 * P : last - 2 * P, recv = side == 0 ? 0 : last;
            t.send.lo[std::size_t(axis)] = send;
            t.send.hi[std::size_t(axis)] = send + 1;
            t.recv.lo[std::size_t(axis)] = recv;
            t.recv.hi[std::size_t(axis)] = recv + 1;
            phase.transfers.push_back(t);
        }
        plan.phases.push_back(std::move(phase));
    }
    return plan;
}

SubdomainProblem make_subdomain_problem(const WaveProblem& whole, const Subdomain& sub) {
    const VoxelGrid& g = whole.grid;
    const std::array<int, 3> g0 = sub.g0(), g1 = sub.g1();
    for (std::size_t a = 0; a < 3; ++a)
        if (g0[a] < 0 || g1[a] > g.n[a] || sub.e1[a] <= sub.e0[a])
            throw RuntimeError("make_subdomain_problem: bad subdomain");
    SubdomainProblem out;
    out.sub = sub;
    out.node_origin = g0;
    WaveProblem& p = out.problem;
    p.grid.n = {g1[0] - g0[0], g1[1] - g0[1], g1[2] - g0[2]};
    p.grid.spacing = g.spacing;
    for (std::size_t a = 0; a < 3; ++a) p.grid.origin[a] = g.origin[a] + double(g0[a]) * g.spacing;
    p.grid.ids.resize(p.grid.element_count());
    std::size_t e = 0;
    for (int k = g0[2]; k < g1[2]; ++k)
        for (int j = g0[1]; j < g1[1]; ++j)
            for (int i = g0[0]; i < g1[0]; ++i) p.grid.ids[e++] = g.ids[g.element_index(i, j, k)];
    p.materials = whole.materials;
    p.method = whole.method;
    p.precision = whole.precision;
    p.stages = whole.stages;
    p.order = whole.order;
    p.backend = whole.backend;
    p.dt = whole.dt;
    p.dt_stable = whole.dt_stable;
    p.steps = whole.steps;
    p.rayleigh = whole.rayleigh;

    // Node coordinates: P node planes per element plane (the voxel corners: 1; sem: p), so
    // element plane e starts at node plane P e.
    const int P = whole.node_planes_per_element();
    const std::array<int, 3> n0{P * g0[0], P * g0[1], P * g0[2]}, n1{P * g1[0], P * g1[1], P * g1[2]};
    const std::array<int, 3> wn{P * g.n[0], P * g.n[1], P * g.n[2]};  // the whole node grid's last planes
    const std::size_t wx = std::size_t(wn[0] + 1), wy = std::size_t(wn[1] + 1);
    const std::size_t lx = std::size_t(n1[0] - n0[0] + 1), ly = std::size_t(n1[1] - n0[1] + 1);
    // Local index of global node `n`, or false when it lies outside the extended box.
    auto local = [&](std::size_t n, std::size_t& l, std::array<int, 3>* at = nullptr) {
        const std::array<int, 3> c{int(n % wx), int((n / wx) % wy), int(n / (wx * wy))};
        for (std::size_t a = 0; a < 3; ++a)
            if (c[a] < n0[a] || c[a] > n1[a]) return false;
        l = std::size_t(c[0] - n0[0]) + lx * (std::size_t(c[1] - n0[1]) + ly * std::size_t(c[2] - n0[2]));
        if (at) *at = c;
        return true;
    };
    p.node_mass.resize(lx * ly * std::size_t(n1[2] - n0[2] + 1));
    std::size_t l = 0;
    for (int k = n0[2]; k <= n1[2]; ++k)
        for (int j = n0[1]; j <= n1[1]; ++j)
            for (int i = n0[0]; i <= n1[0]; ++i)
                p.node_mass[l++] = whole.node_mass[std::size_t(i) + wx * (std::size_t(j) + wy * std::size_t(k))];
    if (P == 1) {
        p.boundary = whole.boundary.node_box(g.n, g0, g1);
    } else {
        // The nodes' data by node box, the PML's element profiles by element box.
        BoundaryNodes nodes_only = whole.boundary;
        nodes_only.pml = {};
        p.boundary = nodes_only.node_box(wn, n0, n1);
        p.boundary.pml = whole.boundary.pml.element_box(g0, p.grid.n);
    }
    // The ghost nodes: held here, filled from the neighbours after each step.
    const HaloPlan plan = halo_plan(sub, P);
    for (const HaloPhase& ph : plan.phases)
        for (const HaloTransfer& t : ph.transfers)
            for (std::size_t i = 0; i < t.recv.count(); ++i)
                p.boundary.fixed_nodes.push_back(box_node(t.recv.lo.data(), t.recv.hi.data(), lx, ly, i));
    std::sort(p.boundary.fixed_nodes.begin(), p.boundary.fixed_nodes.end());
    p.boundary.fixed_nodes.erase(std::unique(p.boundary.fixed_nodes.begin(), p.boundary.fixed_nodes.end()),
                                 p.boundary.fixed_nodes.end());
    for (const SourceTerm& s : whole.sources)
        if (local(s.node, l)) {
            SourceTerm c = s;
            c.node = l;
            p.sources.push_back(std::move(c));
        }
    // Whether global node n is this box's (then l is its local index).
    auto owned = [&](std::size_t n, std::size_t& l) {
        std::array<int, 3> c{};
        if (!local(n, l, &c)) return false;
        for (std::size_t a = 0; a < 3; ++a)
            if (!((c[a] >= P * sub.e0[a] && c[a] < P * sub.e1[a]) || (c[a] == wn[a] && sub.e1[a] == g.n[a])))
                return false;
        return true;
    };
    for (std::size_t r = 0; r < whole.receivers.size(); ++r) {
        if (!owned(whole.receivers[r].node, l)) continue;
        ReceiverPoint rp = whole.receivers[r];
        rp.node = l;
        p.receivers.push_back(std::move(rp));
        out.receiver_of.push_back(r);
    }
    if (!whole.snapshots.empty()) {
        p.snapshots = whole.snapshots;
        for (std::size_t i = 0; i < whole.snapshot_nodes.size(); ++i)
            if (owned(whole.snapshot_nodes[i], l)) {
                p.snapshot_nodes.push_back(l);
                out.snapshot_point_of.push_back(i);
            }
        p.snapshots.grid.count = {int(p.snapshot_nodes.size()), 1, 1};
    }
    // Every receiver of a slab is a plain one: the whole problem's probes are recorded after the gather.
    p.scene_receiver_count = p.receivers.size();
    p.scene_source_count = p.sources.size();
    return out;
}

}  // namespace voxwave
