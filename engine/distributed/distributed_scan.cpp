#include "distributed/distributed_scan.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "distributed/distributed_run.hpp"
#include "wave/probe_scan.hpp"

namespace voxwave {

Result run_probe_scan_distributed(const Scene& scene, VoxelGrid model, const std::string& label, const MpiWorld& world,
                                  const ProgressFn& progress, std::string* backend_note, std::size_t batch) {
    ScanShare share;
    share.rank = world.rank();
    share.ranks = world.size();
    std::string why;
    share.cuda_device = device_for_local_rank(world.local_rank(), int(cuda_devices(&why).size()));
    Result mine;
    std::exception_ptr failure;
    try {
        mine = run_probe_scan(scene, std::move(model), label, progress, backend_note, share, nullptr, batch);
    } catch (...) {
        failure = std::current_exception();
    }
    if (!world.all(!failure)) {
        if (failure) std::rethrow_exception(failure);
        throw RuntimeError("the scan failed on another rank");
    }
    if (world.size() == 1) return mine;
    const double wall = world.max(mine.wall_seconds);  // the scan took as long as its slowest rank
    // The shots' time loops of the slowest rank: with the shots shared evenly, 1 / K of one
    // process's, whatever the ranks' start-up costs.
    const double loops = world.max(mine.wall_seconds - mine.setup_seconds);
    // Every rank's shot loops and set-up (its model, its groups' device set-up), for rank 0's
    // note: which rank the slowest is, and whether set-up or loops made it so.
    const std::vector<double> times =
        world.gather(std::vector<double>{mine.wall_seconds - mine.setup_seconds, mine.setup_seconds});
    if (world.rank() == 0 && backend_note && times.size() == 2 * std::size_t(world.size())) {
        std::string each = "; shot loops / set-up by rank (s):";
        for (int r = 0; r < world.size(); ++r) {
            char t[64];
            std::snprintf(t, sizeof t, "%s %d: %.3f / %.3f", r ? "," : "", r, times[2 * std::size_t(r)],
                          times[2 * std::size_t(r) + 1]);
            each += t;
        }
        *backend_note += each;
    }

    ScanRecord& rec = *mine.scan;
    const std::vector<double> signals = world.gather(rec.shot_signals);
    const std::vector<double> cscan = world.gather(rec.cscan);
    if (world.rank() != 0) return Result{};
    // Rank r's rows are its shots in increasing order, rank after rank: put each in its place.
    const std::size_t shots = rec.shot_positions.size();
    const std::size_t row = rec.shot_signals.size() / shared_shots(shots, share).size();  // rank 0 has shot 0
    rec.shot_signals.assign(shots * row, 0.0);
    if (rec.gated) rec.cscan.assign(shots, 0.0);
    std::size_t at = 0;
    for (int r = 0; r < world.size(); ++r) {
        ScanShare theirs = share;
        theirs.rank = r;
        for (std::size_t k : shared_shots(shots, theirs)) {
            std::copy(signals.begin() + std::ptrdiff_t(at * row), signals.begin() + std::ptrdiff_t((at + 1) * row),
                      rec.shot_signals.begin() + std::ptrdiff_t(k * row));
            if (rec.gated) rec.cscan[k] = cscan[at];
            ++at;
        }
    }
    if (at * row != signals.size()) throw RuntimeError("run_probe_scan_distributed: the ranks' rows do not add up");
    mine.wall_seconds = wall;
    mine.setup_seconds = wall - loops;
    return mine;
}

}  // namespace voxwave
