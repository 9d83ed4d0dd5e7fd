#include "distributed/slab_decomposition.hpp"

#include <algorithm>
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

std::vector<Slab> partition_slabs(const VoxelGrid& grid, int count) {
    const int nz = grid.n[2];
    check_slab_count(nz, count);
    const std::size_t plane = std::size_t(grid.n[0]) * std::size_t(grid.n[1]);
    std::vector<double> cum(std::size_t(nz) + 1, 0.0);
    for (int k = 0; k < nz; ++k) {
        const MaterialId* ids = grid.ids.data() + std::size_t(k) * plane;
        const std::size_t solid = plane - std::size_t(std::count(ids, ids + plane, kVoidId));
        cum[std::size_t(k) + 1] = cum[std::size_t(k)] + double(solid) + 0.25 * double(plane - solid);
    }
    std::vector<Slab> slabs(static_cast<std::size_t>(count));
    int k = 0;
    for (int s = 0; s < count; ++s) {
        Slab& sl = slabs[std::size_t(s)];
        sl.index = s;
        sl.count = count;
        sl.k0 = k;
        if (s + 1 == count) {
            sl.k1 = nz;
        } else {
            // First plane boundary whose cumulative work reaches the slab's share, leaving at
            // least one plane for each later slab.
            const double target = cum[std::size_t(nz)] * double(s + 1) / double(count);
            int b = int(std::lower_bound(cum.begin(), cum.end(), target) - cum.begin());
            if (b > 0 && target - cum[std::size_t(b - 1)] < cum[std::size_t(b)] - target) --b;  // nearer boundary
            sl.k1 = std::clamp(b, k + 1, nz - (count - 1 - s));
        }
        k = sl.k1;
    }
    return slabs;
}

int owner_of_node_plane(const std::vector<Slab>& slabs, int kn) {
    for (const Slab& s : slabs)
        if (kn >= s.k0 && kn < s.k1) return s.index;
    return slabs.back().index;  // the top node plane
}

std::vector<double> restrict_to_slab(const std::vector<double>& v, const VoxelGrid& whole, const Slab& slab) {
    if (v.empty()) return {};
    const std::size_t plane = std::size_t(whole.n[0] + 1) * std::size_t(whole.n[1] + 1);
    return std::vector<double>(v.begin() + std::ptrdiff_t(std::size_t(slab.k0) * plane),
                               v.begin() + std::ptrdiff_t(std::size_t(slab.k1 + 1) * plane));
}

SlabProblem make_slab_problem(const WaveProblem& whole, const Slab& slab) {
    const VoxelGrid& g = whole.grid;
    if (slab.k0 < 0 || slab.k1 > g.n[2] || slab.k1 <= slab.k0) throw RuntimeError("make_slab_problem: bad slab");
    SlabProblem out;
    out.slab = slab;
    WaveProblem& p = out.problem;
    p.grid.n = {g.n[0], g.n[1], slab.k1 - slab.k0};
    p.grid.spacing = g.spacing;
    p.grid.origin = {g.origin[0], g.origin[1], g.origin[2] + double(slab.k0) * g.spacing};
    const std::size_t eplane = std::size_t(g.n[0]) * std::size_t(g.n[1]);
    p.grid.ids.assign(g.ids.begin() + std::ptrdiff_t(std::size_t(slab.k0) * eplane),
                      g.ids.begin() + std::ptrdiff_t(std::size_t(slab.k1) * eplane));
    p.materials = whole.materials;
    p.method = whole.method;
    p.precision = whole.precision;
    p.stages = whole.stages;
    p.backend = whole.backend;
    p.dt = whole.dt;
    p.dt_stable = whole.dt_stable;
    p.steps = whole.steps;
    p.rayleigh = whole.rayleigh;
    p.node_mass = restrict_to_slab(whole.node_mass, g, slab);

    const std::size_t nplane = std::size_t(g.n[0] + 1) * std::size_t(g.n[1] + 1);
    const std::size_t first = std::size_t(slab.k0) * nplane, last = std::size_t(slab.k1 + 1) * nplane;  // [first, last)
    out.node_offset = first;
    p.boundary = whole.boundary.node_range(first, last);
    for (const SourceTerm& s : whole.sources)
        if (s.node >= first && s.node < last) {
            SourceTerm local = s;
            local.node = s.node - first;
            p.sources.push_back(std::move(local));
        }
    for (std::size_t r = 0; r < whole.receivers.size(); ++r) {
        const ReceiverPoint& rp = whole.receivers[r];
        const int kn = int(rp.node / nplane);
        const bool owned = (kn >= slab.k0 && kn < slab.k1) || (kn == g.n[2] && !slab.shares_upper());
        if (!owned) continue;
        ReceiverPoint local = rp;
        local.node = rp.node - first;
        p.receivers.push_back(std::move(local));
        out.receiver_of.push_back(r);
    }
    // Every receiver of a slab is a plain one: the whole problem's probes are recorded after the gather.
    p.scene_receiver_count = p.receivers.size();
    p.scene_source_count = p.sources.size();
    return out;
}

}  // namespace voxwave
