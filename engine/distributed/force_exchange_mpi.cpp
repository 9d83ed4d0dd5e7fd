#include "distributed/force_exchange_mpi.hpp"

#include <cstring>

#include "core/errors.hpp"

#if VOXWAVE_HAVE_MPI
#include <mpi.h>
#endif

namespace voxwave {

HaloTransport parse_halo_transport(const std::string& s, const std::string& field) {
    if (s == "auto" || s.empty()) return HaloTransport::Auto;
    if (s == "nccl") return HaloTransport::Nccl;
    if (s == "host") return HaloTransport::HostStaged;
    throw InputError("", field, "'" + s + "' is not one of auto, nccl, host");
}

const char* to_string(HaloTransport t) {
    switch (t) {
        case HaloTransport::Nccl:
            return "nccl";
        case HaloTransport::HostStaged:
            return "host";
        default:
            return "auto";
    }
}

MpiForceExchange::MpiForceExchange(const MpiWorld& world, const Slab& slab) : world_(world), slab_(slab) {}
MpiForceExchange::~MpiForceExchange() = default;

void MpiForceExchange::swap_planes(const void* send_lower, const void* send_upper, void* recv_lower, void* recv_upper,
                                   std::size_t bytes) const {
#if VOXWAVE_HAVE_MPI
    MPI_Request req[4];
    int n = 0;
    const int tag = 8;  // one message per direction and step between two neighbours
    const int count = int(bytes);
    auto ok = [](int rc) {
        if (rc != MPI_SUCCESS) throw RuntimeError("MPI exchange of the shared node planes failed");
    };
    if (slab_.shares_lower()) {
        ok(MPI_Irecv(recv_lower, count, MPI_BYTE, world_.rank() - 1, tag, MPI_COMM_WORLD, &req[n++]));
        ok(MPI_Isend(send_lower, count, MPI_BYTE, world_.rank() - 1, tag, MPI_COMM_WORLD, &req[n++]));
    }
    if (slab_.shares_upper()) {
        ok(MPI_Irecv(recv_upper, count, MPI_BYTE, world_.rank() + 1, tag, MPI_COMM_WORLD, &req[n++]));
        ok(MPI_Isend(send_upper, count, MPI_BYTE, world_.rank() + 1, tag, MPI_COMM_WORLD, &req[n++]));
    }
    ok(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
#else
    (void)send_lower, (void)send_upper, (void)recv_lower, (void)recv_upper, (void)bytes;
    if (slab_.shares_lower() || slab_.shares_upper()) throw RuntimeError("a slab with neighbours needs MPI");
#endif
}

template <class Real>
void MpiForceExchange::exchange_host_impl(const std::array<Real*, 3>& f, const SlabForceLayout& l) {
    const std::size_t pn = l.plane_nodes, bytes = 3 * pn * sizeof(Real);
    const std::size_t plane_of[2] = {0, std::size_t(l.nz) * pn};  // first node of local plane 0 / nz
    const bool shared[2] = {slab_.shares_lower(), slab_.shares_upper()};
    for (int side = 0; side < 2; ++side) {
        if (!shared[side]) continue;
        send_[side].resize(bytes);
        recv_[side].resize(bytes);
        for (int c = 0; c < 3; ++c)
            std::memcpy(send_[side].data() + std::size_t(c) * pn * sizeof(Real), f[std::size_t(c)] + plane_of[side],
                        pn * sizeof(Real));
    }
    swap_planes(send_[0].data(), send_[1].data(), recv_[0].data(), recv_[1].data(), bytes);
    for (int side = 0; side < 2; ++side) {
        if (!shared[side]) continue;
        for (int c = 0; c < 3; ++c) {
            const Real* in = reinterpret_cast<const Real*>(recv_[side].data()) + std::size_t(c) * pn;
            Real* out = f[std::size_t(c)] + plane_of[side];
            // own + neighbour: the neighbour adds the same two numbers, and IEEE addition is
            // commutative, so both copies of the shared node get the same bits.
            for (std::size_t i = 0; i < pn; ++i) out[i] = out[i] + in[i];
        }
    }
}

void MpiForceExchange::exchange_host(const std::array<double*, 3>& f, const SlabForceLayout& l) {
    exchange_host_impl(f, l);
}
void MpiForceExchange::exchange_host(const std::array<float*, 3>& f, const SlabForceLayout& l) {
    exchange_host_impl(f, l);
}

}  // namespace voxwave
