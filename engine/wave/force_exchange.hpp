// The seam between one slab of a distributed run and its neighbours (issue 8).
//
// A slab owns element planes [k0, k1) of the whole model and holds node planes k0 .. k1; the
// node plane it shares with the slab below (local plane 0) or above (local plane nz) receives
// forces from elements on both sides. Each step every slab computes the partial nodal forces of
// its own elements, then a ForceExchange adds the neighbour's partial forces on the shared
// planes, so both copies of a shared node see the same total (a + b == b + a in IEEE
// arithmetic: the copies stay bit-identical) and take the same central-difference update.
//
// The steppers know nothing of MPI or NCCL: they call this interface. No MPI, NCCL or CUDA
// types appear here, so CPU-only code can include it.
#pragma once

#include <array>
#include <cstddef>

namespace voxwave {

// Where the shared node planes of a slab's force vector lie (SoA, [component * nodes + node]).
struct SlabForceLayout {
    std::size_t nodes = 0;        // nodes of the slab
    std::size_t plane_nodes = 0;  // nodes per node plane, (nx + 1)(ny + 1)
    int nz = 0;                   // element planes of the slab: node planes 0 .. nz
};

class ForceExchange {
public:
    virtual ~ForceExchange() = default;
    // Local node plane 0 is shared with the slab below / plane nz with the slab above.
    virtual bool shares_lower() const = 0;
    virtual bool shares_upper() const = 0;

    // CPU engine, host memory, blocking: f's shared planes hold this slab's partial forces on
    // entry and the totals on return.
    virtual void exchange_host(const std::array<double*, 3>& f, const SlabForceLayout& layout) = 0;
    virtual void exchange_host(const std::array<float*, 3>& f, const SlabForceLayout& layout) = 0;

    // CUDA engine, device memory: `f` is the device SoA force vector (double when fp64, else
    // float) and `stream` a cudaStream_t on which the shared planes' partial forces are complete.
    // start() enqueues the transfer on `stream` (or begins a host-staged copy); finish() makes
    // the totals ready on `stream`. The engine launches the interior elements between the two,
    // which is what hides the exchange.
    virtual void start_device(void* f, bool fp64, const SlabForceLayout& layout, void* stream) = 0;
    virtual void finish_device(void* f, bool fp64, const SlabForceLayout& layout, void* stream) = 0;
    // What the device path moves per step (both directions, all shared planes), bytes.
    virtual std::size_t bytes_per_step(bool fp64, const SlabForceLayout& layout) const {
        const std::size_t planes = std::size_t(shares_lower()) + std::size_t(shares_upper());
        return 2 * planes * 3 * layout.plane_nodes * (fp64 ? 8 : 4);
    }
};

}  // namespace voxwave
