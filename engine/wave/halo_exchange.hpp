// The seam between one subdomain of a distributed run and its neighbours.
//
// A subdomain owns a box of the whole model's elements and holds, beside them, one ghost element
// layer on every side where it has a neighbour (engine/distributed/subdomain.hpp). Every node of
// the owned box then has all its elements locally, so the stepper runs its ordinary single-model
// step (the fused step included) and gets complete u+ on those nodes; only the outermost node
// layer on a ghost side (the ghost nodes) is not computed here. After each step a HaloExchange
// copies the neighbours' values of u+ into the ghost nodes: displacements, never forces.
//
// The exchange runs in phases, one per cut axis in the plan's order; a phase's boxes span the
// whole local extent of the other axes, so the ghost nodes of an edge or corner arrive with the
// later phase from a neighbour that received them in an earlier one (no diagonal messages).
//
// The steppers know nothing of MPI or NCCL: they call this interface. No MPI, NCCL or CUDA types
// appear here, so CPU-only code can include it, and the box arithmetic below (VOXWAVE_HD) is the
// one home of the packing order for the host and the device paths.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "core/host_device.hpp"

namespace voxwave {

// A box of local node indices, [lo, hi) along each axis.
struct NodeBox {
    std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};
    std::size_t count() const {
        return std::size_t(hi[0] - lo[0]) * std::size_t(hi[1] - lo[1]) * std::size_t(hi[2] - lo[2]);
    }
};

// The local node index of the i-th node of box (lo, hi) (x fastest) in an array of `nx` x `ny`
// node columns: the order in which every transport packs and unpacks.
VOXWAVE_HD std::size_t box_node(const int* lo, const int* hi, std::size_t nx, std::size_t ny, std::size_t i) {
    const std::size_t bx = std::size_t(hi[0] - lo[0]), by = std::size_t(hi[1] - lo[1]);
    const std::size_t x = i % bx, y = (i / bx) % by, z = i / (bx * by);
    return (std::size_t(lo[0]) + x) + nx * ((std::size_t(lo[1]) + y) + ny * (std::size_t(lo[2]) + z));
}

// One neighbour's share of a phase: the box of owned nodes it needs (send) and the box of ghost
// nodes it fills (recv), the same size.
struct HaloTransfer {
    int neighbour = -1;  // its rank
    int side = 0;        // 0: lower, 1: upper along the phase's axis
    NodeBox send, recv;
};
struct HaloPhase {
    int axis = 2;
    std::vector<HaloTransfer> transfers;  // one or two
};
struct HaloPlan {
    std::array<int, 3> nodes{0, 0, 0};  // local node extents (elements + 1 along each axis)
    std::vector<HaloPhase> phases;      // in order; empty for a subdomain without neighbours
    std::size_t node_count() const { return std::size_t(nodes[0]) * std::size_t(nodes[1]) * std::size_t(nodes[2]); }
    // Nodes sent per step (each transfer's send box), over all phases.
    std::size_t sent_nodes() const {
        std::size_t n = 0;
        for (const HaloPhase& p : phases)
            for (const HaloTransfer& t : p.transfers) n += t.send.count();
        return n;
    }
    // The largest box of any transfer (the staging buffers' size).
    std::size_t largest_box() const {
        std::size_t n = 0;
        for (const HaloPhase& p : phases)
            for (const HaloTransfer& t : p.transfers) n = n > t.send.count() ? n : t.send.count();
        return n;
    }
};

// Where a host state holds node n of the x-fastest numbering (plan.nodes) in each component: n
// itself, or for a state kept in an order of its own (the CPU sem stepper's sweep order) that
// order's entry, so that the exchange moves the state in place.
using NodeEntry = std::function<std::size_t(std::size_t)>;
struct SameEntry {
    std::size_t operator()(std::size_t n) const { return n; }
};

// Host packing: the three components of box b of u (SoA, plan.nodes, node n at entry(n)) into
// out[c * count + i].
template <class Real, class Entry = SameEntry>
void pack_box(const std::array<Real*, 3>& u, const std::array<int, 3>& nodes, const NodeBox& b, Real* out,
              const Entry& entry = {}) {
    const std::size_t n = b.count();
    for (int c = 0; c < 3; ++c)
        for (std::size_t i = 0; i < n; ++i)
            out[std::size_t(c) * n + i] =
                u[std::size_t(c)]
                 [entry(box_node(b.lo.data(), b.hi.data(), std::size_t(nodes[0]), std::size_t(nodes[1]), i))];
}
template <class Real, class Entry = SameEntry>
void unpack_box(const Real* in, const std::array<int, 3>& nodes, const NodeBox& b, const std::array<Real*, 3>& u,
                const Entry& entry = {}) {
    const std::size_t n = b.count();
    for (int c = 0; c < 3; ++c)
        for (std::size_t i = 0; i < n; ++i)
            u[std::size_t(c)]
             [entry(box_node(b.lo.data(), b.hi.data(), std::size_t(nodes[0]), std::size_t(nodes[1]), i))] =
                 in[std::size_t(c) * n + i];
}

// A window of an overlapped step (the CUDA engine's, time_stepper_cuda.cu): node planes [lo, hi]
// along z, made from the element planes [e_lo, e_hi) (a node plane needs the element planes on
// both sides: one more each way, except at the subdomain's own faces).
struct OverlapWindow {
    int e_lo = 0, e_hi = 0, lo = 0, hi = 0;
};
// The windows of an overlapped step on a subdomain of nz element planes along z whose plan begins
// with a z phase: the edges the neighbours need first (node planes 0..2 next to a lower seam and
// nz - 2..nz next to an upper one: the ghost, the seam both sides compute and the plane the
// neighbour takes), then the interior between them, last. Together they cover 0..nz once. Empty
// when the plan has no z phase first or the interior would be empty (fewer than 6 node planes
// between two seams, 3 beside one): such a step keeps the plain order.
inline std::vector<OverlapWindow> overlap_windows(const HaloPlan& plan, int nz) {
    if (plan.phases.empty() || plan.phases[0].axis != 2) return {};
    bool lower = false, upper = false;
    for (const HaloTransfer& t : plan.phases[0].transfers) (t.side == 0 ? lower : upper) = true;
    const int a = lower ? 3 : 0, b = upper ? nz - 3 : nz;
    if (a > b) return {};
    auto window = [nz](int lo, int hi) { return OverlapWindow{lo > 0 ? lo - 1 : 0, hi < nz ? hi + 1 : nz, lo, hi}; };
    std::vector<OverlapWindow> w;
    if (lower) w.push_back(window(0, 2));
    if (upper) w.push_back(window(nz - 2, nz));
    w.push_back(window(a, b));
    return w;
}

class HaloExchange {
public:
    virtual ~HaloExchange() = default;
    virtual const HaloPlan& plan() const = 0;

    // CPU engine, host memory, blocking: u (SoA, plan().node_count() nodes) holds this step's
    // new displacement on the owned nodes on entry, and the neighbours' on the ghost nodes on
    // return.
    virtual void exchange_host(const std::array<double*, 3>& u) = 0;
    virtual void exchange_host(const std::array<float*, 3>& u) = 0;
    // The same for a state in an order of its own: node n of the x-fastest numbering at entry(n)
    // of each component (the CPU sem stepper's sweep order), moved in place.
    virtual void exchange_host(const std::array<double*, 3>& u, const NodeEntry& entry) = 0;
    virtual void exchange_host(const std::array<float*, 3>& u, const NodeEntry& entry) = 0;

    // CUDA engine, device memory: `u` is the device SoA displacement (double when fp64, else
    // float), complete on `stream`; the ghost nodes are filled in stream order on the same
    // stream (kernels pack and unpack; NCCL or host-staged MPI carries the boxes).
    void exchange_device(void* u, bool fp64, void* stream) {
        exchange_device_phases(u, fp64, stream, 0, plan().phases.size());
    }
    // The same for phases [first, end) of the plan only: an overlapped step (time_stepper_cuda.cu)
    // sends the z phase on a stream of its own while the interior is computed, and the later
    // phases after it. Every rank must run the same phases in the same order.
    virtual void exchange_device_phases(void* u, bool fp64, void* stream, std::size_t first, std::size_t end) = 0;
    // True when the device exchange waits on the host until its boxes have moved (host-staged MPI):
    // an overlapped step then queues the interior's kernels before it calls the exchange.
    virtual bool device_exchange_blocks_host() const { return false; }

    // What one step moves out of this rank (all phases, all neighbours), bytes; as much comes in.
    std::size_t bytes_per_step(bool fp64) const { return 3 * plan().sent_nodes() * (fp64 ? 8 : 4); }
};

}  // namespace voxwave
