#include "distributed/axis_permutation.hpp"

#include <algorithm>

namespace voxwave {

AxisTurn longest_axis_last(const VoxelGrid& g) {
    AxisTurn t;
    if (g.n[2] >= g.n[0] && g.n[2] >= g.n[1]) return t;
    if (g.n[0] >= g.n[1])
        t.from = {1, 2, 0};  // x longest: (x, y, z) -> (y, z, x)
    else
        t.from = {2, 0, 1};  // y longest: (x, y, z) -> (z, x, y)
    return t;
}

namespace {

// Index in the turned array of the item at old (i, j, k) of an array with old extents m.
struct IndexMap {
    std::array<int, 3> from, m;
    std::size_t operator()(const std::array<int, 3>& old) const {
        const std::array<int, 3> e{m[std::size_t(from[0])], m[std::size_t(from[1])], m[std::size_t(from[2])]};
        const std::array<int, 3> q{old[std::size_t(from[0])], old[std::size_t(from[1])], old[std::size_t(from[2])]};
        return std::size_t(q[0]) + std::size_t(e[0]) * (std::size_t(q[1]) + std::size_t(e[1]) * std::size_t(q[2]));
    }
    std::array<int, 3> unflatten(std::size_t idx) const {
        const std::size_t a = std::size_t(m[0]), b = std::size_t(m[1]);
        return {int(idx % a), int((idx / a) % b), int(idx / (a * b))};
    }
    std::size_t operator()(std::size_t old_flat) const { return (*this)(unflatten(old_flat)); }
};

template <class T>
std::vector<T> turn_array(const std::vector<T>& v, const IndexMap& map) {
    if (v.empty()) return {};
    std::vector<T> out(v.size());
    for (int k = 0; k < map.m[2]; ++k)
        for (int j = 0; j < map.m[1]; ++j)
            for (int i = 0; i < map.m[0]; ++i) {
                const std::size_t old =
                    std::size_t(i) + std::size_t(map.m[0]) * (std::size_t(j) + std::size_t(map.m[1]) * std::size_t(k));
                out[map({i, j, k})] = v[old];
            }
    return out;
}

Vec3 turn_vec(const Vec3& v, const std::array<int, 3>& from) {
    return {v[std::size_t(from[0])], v[std::size_t(from[1])], v[std::size_t(from[2])]};
}

}  // namespace

WaveProblem turn_axes(const WaveProblem& p, const AxisTurn& t) {
    if (t.identity()) return p;
    const VoxelGrid& g = p.grid;
    const IndexMap elements{t.from, g.n};
    const int P = p.node_planes_per_element();  // the voxel corners, or sem's GLL nodes
    const IndexMap nodes{t.from, {P * g.n[0] + 1, P * g.n[1] + 1, P * g.n[2] + 1}};
    WaveProblem q = p;
    q.grid.n = {g.n[std::size_t(t.from[0])], g.n[std::size_t(t.from[1])], g.n[std::size_t(t.from[2])]};
    q.grid.origin = turn_vec(g.origin, t.from);
    q.grid.ids = turn_array(g.ids, elements);
    q.node_mass = turn_array(p.node_mass, nodes);
    q.boundary = p.boundary.turned([&nodes](std::size_t n) { return nodes(n); }, t.from);
    for (SourceTerm& s : q.sources) {
        s.node = nodes(s.node);
        s.snapped = turn_vec(s.snapped, t.from);
        s.force = turn_vec(s.force, t.from);
    }
    for (ReceiverPoint& r : q.receivers) {
        r.node = nodes(r.node);
        r.snapped = turn_vec(r.snapped, t.from);
    }
    // The same points in the same order (the series' grid stays the problem's): their values come
    // out in turned components, which turn_components_back turns back.
    for (std::size_t& n : q.snapshot_nodes) n = nodes(n);
    return q;
}

void turn_components_back(std::vector<double>& v, const AxisTurn& t) {
    if (t.identity()) return;
    // Turned component d is original component from[d].
    for (std::size_t i = 0; i + 2 < v.size(); i += 3) {
        const std::array<double, 3> turned{v[i], v[i + 1], v[i + 2]};
        for (int d = 0; d < 3; ++d) v[i + std::size_t(t.from[std::size_t(d)])] = turned[std::size_t(d)];
    }
}

void turn_result_back(Result& r, const AxisTurn& t, const WaveProblem& original) {
    r.receiver_positions.clear();
    for (const auto& rec : original.receivers) r.receiver_positions.push_back(rec.snapped);
    for (std::vector<double>* v : {&r.displacement, &r.velocity}) turn_components_back(*v, t);
    for (std::vector<double>& v : r.snapshots.u) turn_components_back(v, t);
    for (std::vector<double>& v : r.snapshots.v) turn_components_back(v, t);
}

}  // namespace voxwave
