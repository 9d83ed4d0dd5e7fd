#include "distributed/halo_exchange_mpi.hpp"

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

MpiHaloExchange::MpiHaloExchange(const MpiWorld& world, HaloPlan plan) : world_(world), plan_(std::move(plan)) {}
MpiHaloExchange::~MpiHaloExchange() = default;

void MpiHaloExchange::swap_boxes(std::size_t phase, const std::vector<const void*>& send,
                                 const std::vector<void*>& recv, const std::vector<std::size_t>& bytes) const {
    const HaloPhase& ph = plan_.phases[phase];
#if VOXWAVE_HAVE_MPI
    MPI_Request req[4];
    int n = 0;
    auto ok = [](int rc) {
        if (rc != MPI_SUCCESS) throw RuntimeError("MPI exchange of the ghost nodes failed");
    };
    for (std::size_t t = 0; t < ph.transfers.size(); ++t) {
        const HaloTransfer& tr = ph.transfers[t];
        // Two ranks are neighbours across one axis only, and each phase is one message per
        // direction between them: the axis is tag enough.
        const int tag = 8 + ph.axis;
        ok(MPI_Irecv(recv[t], int(bytes[t]), MPI_BYTE, tr.neighbour, tag, MPI_COMM_WORLD, &req[n++]));
        ok(MPI_Isend(send[t], int(bytes[t]), MPI_BYTE, tr.neighbour, tag, MPI_COMM_WORLD, &req[n++]));
    }
    ok(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
#else
    (void)send, (void)recv, (void)bytes;
    if (!ph.transfers.empty()) throw RuntimeError("a subdomain with neighbours needs MPI");
#endif
}

template <class Real, class Entry>
void MpiHaloExchange::exchange_host_impl(const std::array<Real*, 3>& u, const Entry& entry) {
    run_phases(
        3 * sizeof(Real),
        [&](const HaloTransfer& tr, std::size_t t, std::size_t bytes) {
            send_[t].resize(bytes);
            recv_[t].resize(bytes);
            pack_box(u, plan_.nodes, tr.send, reinterpret_cast<Real*>(send_[t].data()), entry);
            return HostBoxes{send_[t].data(), recv_[t].data()};
        },
        [] {},
        [&](const HaloTransfer& tr, std::size_t t, std::size_t) {
            unpack_box(reinterpret_cast<const Real*>(recv_[t].data()), plan_.nodes, tr.recv, u, entry);
        });
}

void MpiHaloExchange::exchange_host(const std::array<double*, 3>& u) { exchange_host_impl(u, SameEntry{}); }
void MpiHaloExchange::exchange_host(const std::array<float*, 3>& u) { exchange_host_impl(u, SameEntry{}); }
void MpiHaloExchange::exchange_host(const std::array<double*, 3>& u, const NodeEntry& entry) {
    exchange_host_impl(u, entry);
}
void MpiHaloExchange::exchange_host(const std::array<float*, 3>& u, const NodeEntry& entry) {
    exchange_host_impl(u, entry);
}

}  // namespace voxwave
