#include "wave/wave_session.hpp"

#include <algorithm>
#include <cmath>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "wave/probe_recording.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/time_stepper_cuda.hpp"

namespace voxwave {

std::array<int, 3> slice_extent(const VoxelGrid& g, SlicePlane plane) {
    const int nx = g.n[0] + 1, ny = g.n[1] + 1, nz = g.n[2] + 1;
    switch (plane) {
        case SlicePlane::XY:
            return {nx, ny, nz};
        case SlicePlane::XZ:
            return {nx, nz, ny};
        case SlicePlane::YZ:
            return {ny, nz, nx};
    }
    return {0, 0, 0};
}

// The two backends behind one interface: full displacement fields for slices (SoA, double),
// receiver samples per step.
struct WaveSession::Stepper {
    virtual ~Stepper() = default;
    virtual void advance(std::int64_t n0, std::int64_t count, std::vector<double>& samples) = 0;
    virtual std::vector<double> displacement() const = 0;
    virtual std::vector<double> previous_displacement() const = 0;
};

template <class Real>
struct WaveSession::CpuStepper final : Stepper {
    explicit CpuStepper(const WaveProblem& p) : p_(p), s_(p) {}
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>& samples) override {
        for (std::int64_t n = n0; n < n0 + count; ++n) {
            for (const auto& r : p_.receivers)
                for (int c = 0; c < 3; ++c) samples.push_back(s_.displacement_at(r.node, c));
            s_.step(n);
        }
    }
    std::vector<double> displacement() const override { return s_.displacement(); }
    std::vector<double> previous_displacement() const override { return s_.previous_displacement(); }
    const WaveProblem& p_;
    CpuTimeStepper<Real> s_;
};

struct WaveSession::CudaStepper final : Stepper {
    explicit CudaStepper(const WaveProblem& p) : s_(p) {}
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>& samples) override {
        s_.advance(n0, count, &chunk_);
        samples.insert(samples.end(), chunk_.begin(), chunk_.end());
    }
    std::vector<double> displacement() const override { return s_.displacement(); }
    std::vector<double> previous_displacement() const override { return s_.previous_displacement(); }
    CudaTimeStepper s_;
    std::vector<double> chunk_;
};

WaveSession::WaveSession(WaveProblem problem) : problem_(std::move(problem)) {
    assert_run_rules(problem_);
    backend_ = resolve_backend(problem_.backend, backend_note_);
    if (backend_ == Backend::Cuda)
        stepper_ = std::make_unique<CudaStepper>(problem_);
    else if (problem_.precision == Precision::Fp64)
        stepper_ = std::make_unique<CpuStepper<double>>(problem_);
    else
        stepper_ = std::make_unique<CpuStepper<float>>(problem_);
}

WaveSession::~WaveSession() = default;

void WaveSession::advance(std::int64_t count) {
    if (count <= 0) return;
    stepper_->advance(step_, count, samples_);
    step_ += count;
}

std::size_t WaveSession::sample_count() const {
    const std::size_t nr = problem_.receivers.size();
    return nr ? samples_.size() / (3 * nr) : std::size_t(step_);
}

SliceImage WaveSession::slice(SlicePlane plane, int index, SliceQuantity q) const {
    const VoxelGrid& g = problem_.grid;
    const auto [w, h, depth] = slice_extent(g, plane);
    index = std::clamp(index, 0, depth - 1);
    const std::vector<double> u = stepper_->displacement();
    std::vector<double> up;
    if (q == SliceQuantity::VelocityMagnitude) up = stepper_->previous_displacement();
    const std::size_t nn = g.node_count();
    const double* const uc[3] = {u.data(), u.data() + nn, u.data() + 2 * nn};
    const double* const upc[3] = {up.empty() ? nullptr : up.data(), up.empty() ? nullptr : up.data() + nn,
                                  up.empty() ? nullptr : up.data() + 2 * nn};
    SliceImage img{w, h, std::vector<float>(std::size_t(w) * h)};
    const double inv_dt = 1.0 / problem_.dt;
    for (int b = 0; b < h; ++b)
        for (int a = 0; a < w; ++a) {
            const std::size_t node =
                slice_node_index(plane, index, a, b, std::size_t(g.n[0] + 1), std::size_t(g.n[1] + 1));
            img.values[std::size_t(b) * w + a] = static_cast<float>(slice_value(q, uc, upc, node, inv_dt));
        }
    return img;
}

void WaveSession::slice_to_device(SlicePlane plane, int index, SliceQuantity q, float* device_out) const {
    auto* cuda = dynamic_cast<const CudaStepper*>(stepper_.get());
    if (!cuda) throw RuntimeError("slice_to_device needs the CUDA backend (this run uses the CPU)");
    const int depth = slice_extent(problem_.grid, plane)[2];
    cuda->s_.write_slice(plane, std::clamp(index, 0, depth - 1), q, device_out);
}

Result WaveSession::result(double wall_seconds) const {
    Result r;
    r.method = to_string(problem_.method);
    r.precision = to_string(problem_.precision);
    r.backend = to_string(backend_);
    r.stages = problem_.stages;
    r.spacing = problem_.grid.spacing;
    r.dt = problem_.dt;
    r.wall_seconds = wall_seconds;
    const std::size_t nr = problem_.receivers.size(), nt = sample_count();
    r.steps = std::int64_t(nt);
    for (const auto& rec : problem_.receivers) {
        r.receiver_names.push_back(rec.name);
        r.receiver_positions.push_back(rec.snapped);
    }
    r.time.resize(nt);
    for (std::size_t t = 0; t < nt; ++t) r.time[t] = double(t) * problem_.dt;
    r.displacement.assign(nr * nt * 3, 0.0);
    r.velocity.assign(nr * nt * 3, 0.0);
    auto sample = [&](std::size_t t, std::size_t i, int c) { return samples_[(t * nr + i) * 3 + c]; };
    for (std::size_t i = 0; i < nr; ++i)
        for (std::size_t t = 0; t < nt; ++t)
            for (int c = 0; c < 3; ++c) {
                r.displacement[(i * nt + t) * 3 + c] = sample(t, i, c);
                // u^{-1} = 0 (the run starts at rest); the last sample has no u^{n+1} yet.
                const double before = t > 0 ? sample(t - 1, i, c) : 0.0;
                const double after = t + 1 < nt ? sample(t + 1, i, c) : sample(t, i, c);
                const double span = (t + 1 < nt ? 2.0 : 1.0) * problem_.dt;
                r.velocity[(i * nt + t) * 3 + c] = (after - before) / span;
            }
    record_probes(problem_, r);
    return r;
}

}  // namespace voxwave
