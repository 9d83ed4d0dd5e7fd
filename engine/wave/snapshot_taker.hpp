// Takes a run's wavefield snapshots (run.snapshots; docs/architecture.md#wavefield-snapshots) the
// same way on every backend: at a snapshot step n the engine hands over u^n and u^{n-1} at the
// snapshot nodes before the step and u^{n+1} after it; v is the receivers' central difference
// (u^{n+1} - u^{n-1}) / 2 dt.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "scene/snapshots.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

class SnapshotTaker {
public:
    // `out` becomes the problem's plan and receives the values.
    SnapshotTaker(const WaveProblem& problem, SnapshotSeries& out);

    // The step of the next snapshot (the largest int64 when none is left).
    std::int64_t next_step() const {
        return next_ < out_.steps.size() ? out_.steps[next_] : std::numeric_limits<std::int64_t>::max();
    }
    bool due(std::int64_t n) const { return n == next_step(); }
    bool wants_velocity() const { return velocity_; }

    // Values at the snapshot nodes, [point * 3 + c]. before_step gets u^n and (when v is asked
    // for) u^{n-1}; after_step u^{n+1}, and is needed only when v is asked for.
    void before_step(std::vector<double> u, std::vector<double> u_prev);
    void after_step(const std::vector<double>& u_next);

    // The same from an engine's accessor value(node, component).
    template <class At>
    std::vector<double> gather(At value) const {
        std::vector<double> out(nodes_.size() * 3);
        for (std::size_t i = 0; i < nodes_.size(); ++i)
            for (int c = 0; c < 3; ++c) out[i * 3 + c] = value(nodes_[i], c);
        return out;
    }
    template <class At, class AtPrevious>
    void before_step(At u, AtPrevious u_prev) {
        before_step(gather(u), velocity_ ? gather(u_prev) : std::vector<double>{});
    }
    template <class At>
    void after_step(At u_next) {
        if (velocity_) after_step(gather(u_next));
    }

private:
    SnapshotSeries& out_;
    const std::vector<std::size_t>& nodes_;
    double dt_;
    bool displacement_, velocity_;
    std::size_t next_ = 0;
    std::vector<double> u_prev_;  // u^{n-1} of the pending snapshot
};

}  // namespace voxwave
