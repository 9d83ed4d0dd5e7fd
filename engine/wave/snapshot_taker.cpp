#include "wave/snapshot_taker.hpp"

#include "core/errors.hpp"

namespace voxwave {

SnapshotTaker::SnapshotTaker(const WaveProblem& problem, SnapshotSeries& out)
    : out_(out), nodes_(problem.snapshot_nodes), dt_(problem.dt) {
    out_ = problem.snapshots;
    displacement_ = out_.has("u");
    velocity_ = out_.has("v");
    if (out_.grid.point_count() != nodes_.size())
        throw RuntimeError("snapshots: " + std::to_string(nodes_.size()) + " nodes for a grid of " +
                           std::to_string(out_.grid.point_count()));
}

void SnapshotTaker::before_step(std::vector<double> u, std::vector<double> u_prev) {
    if (velocity_) u_prev_ = std::move(u_prev);
    if (displacement_) out_.u.push_back(std::move(u));
    if (!velocity_) ++next_;
}

void SnapshotTaker::after_step(const std::vector<double>& u_next) {
    if (!velocity_) return;
    std::vector<double> v(u_next.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (u_next[i] - u_prev_[i]) / (2.0 * dt_);
    out_.v.push_back(std::move(v));
    ++next_;
}

}  // namespace voxwave
