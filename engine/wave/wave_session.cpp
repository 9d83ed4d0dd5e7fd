#include "wave/wave_session.hpp"

#include <algorithm>
#include <cmath>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "wave/plane_strain_stepper_cpu.hpp"
#include "wave/plane_strain_stepper_cuda.hpp"
#include "wave/probe_recording.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_run.hpp"

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

template <class CpuEngine>
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
    CpuEngine s_;
};

template <class CudaEngine>
struct WaveSession::CudaStepper final : Stepper {
    explicit CudaStepper(const WaveProblem& p) : s_(p) {}
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>& samples) override {
        s_.advance(n0, count, &chunk_);
        samples.insert(samples.end(), chunk_.begin(), chunk_.end());
    }
    std::vector<double> displacement() const override { return s_.displacement(); }
    std::vector<double> previous_displacement() const override { return s_.previous_displacement(); }
    CudaEngine s_;
    std::vector<double> chunk_;
};

// A plane-strain run seen as the 3D grid it stands in (one element layer): both node planes show
// the 2D field and u_z = 0, and receivers record 3 components (z = 0), so slices and traces read
// as in 3D; result() keeps the two in-plane components.
namespace {
std::vector<double> plane_field_as_layer(const WaveProblem& p, const std::vector<double>& u2) {
    const std::size_t n2 = p.node_count(), n3 = p.grid.node_count();
    std::vector<double> u3(3 * n3, 0.0);
    for (int c = 0; c < 2; ++c)
        for (std::size_t k = 0; k < n3 / n2; ++k)
            std::copy(u2.begin() + std::ptrdiff_t(c * n2), u2.begin() + std::ptrdiff_t((c + 1) * n2),
                      u3.begin() + std::ptrdiff_t(c * n3 + k * n2));
    return u3;
}
}  // namespace

template <class Real>
struct WaveSession::PlaneCpuStepper final : Stepper {
    explicit PlaneCpuStepper(const WaveProblem& p) : p_(p), s_(p) {}
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>& samples) override {
        for (std::int64_t n = n0; n < n0 + count; ++n) {
            for (const auto& r : p_.receivers) {
                for (int c = 0; c < 2; ++c) samples.push_back(s_.displacement_at(r.node, c));
                samples.push_back(0.0);
            }
            s_.step(n);
        }
    }
    std::vector<double> displacement() const override { return plane_field_as_layer(p_, s_.displacement()); }
    std::vector<double> previous_displacement() const override {
        return plane_field_as_layer(p_, s_.previous_displacement());
    }
    const WaveProblem& p_;
    PlaneStrainStepperCpu<Real> s_;
};

struct WaveSession::PlaneCudaStepper final : Stepper {
    explicit PlaneCudaStepper(const WaveProblem& p) : p_(p), s_(p) {}
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>& samples) override {
        // The engine records u after each step; the session records u before it.
        const std::size_t nr = p_.receivers.size();
        if (last_.size() != 2 * nr) last_ = std::vector<double>(2 * nr, 0.0);
        chunk_.clear();
        s_.advance(n0, count, &chunk_);
        for (std::int64_t k = 0; k < count; ++k) {
            for (std::size_t r = 0; r < nr; ++r) samples.insert(samples.end(), {last_[2 * r], last_[2 * r + 1], 0.0});
            std::copy(chunk_.begin() + std::ptrdiff_t(2 * nr * std::size_t(k)),
                      chunk_.begin() + std::ptrdiff_t(2 * nr * std::size_t(k + 1)), last_.begin());
        }
    }
    std::vector<double> displacement() const override { return plane_field_as_layer(p_, s_.displacement()); }
    std::vector<double> previous_displacement() const override {
        return plane_field_as_layer(p_, s_.previous_displacement());
    }
    const WaveProblem& p_;
    PlaneStrainStepperCuda s_;
    std::vector<double> chunk_, last_;
};

WaveSession::WaveSession(WaveProblem problem) : problem_(std::move(problem)) {
    assert_run_rules(problem_);
    backend_ = resolve_backend(problem_.backend, backend_note_);
    const bool fp64 = problem_.precision == Precision::Fp64;
    if (problem_.dimensions == 2 && backend_ == Backend::Cuda)
        stepper_ = std::make_unique<PlaneCudaStepper>(problem_);
    else if (problem_.dimensions == 2 && fp64)
        stepper_ = std::make_unique<PlaneCpuStepper<double>>(problem_);
    else if (problem_.dimensions == 2)
        stepper_ = std::make_unique<PlaneCpuStepper<float>>(problem_);
    else if (backend_ == Backend::Cuda && problem_.method == Method::Sem)
        stepper_ = std::make_unique<CudaStepper<SemCudaTimeStepper>>(problem_);
    else if (backend_ == Backend::Cuda)
        stepper_ = std::make_unique<CudaStepper<CudaTimeStepper>>(problem_);
    else if (problem_.method == Method::Sem && fp64)
        stepper_ = std::make_unique<CpuStepper<SemTimeStepperCpu<double>>>(problem_);
    else if (problem_.method == Method::Sem)
        stepper_ = std::make_unique<CpuStepper<SemTimeStepperCpu<float>>>(problem_);
    else if (fp64)
        stepper_ = std::make_unique<CpuStepper<CpuTimeStepper<double>>>(problem_);
    else
        stepper_ = std::make_unique<CpuStepper<CpuTimeStepper<float>>>(problem_);
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
    // Components are stored one after another (a plane-strain run's come expanded to its layer).
    const std::size_t nn = u.size() / 3;
    // The slice shows the voxel corners; a sem model's corners are its GLL nodes (p i, p j, p k).
    const int order = problem_.method == Method::Sem ? problem_.order : 1;
    const std::size_t gx = std::size_t(order * g.n[0] + 1), gy = std::size_t(order * g.n[1] + 1);
    auto node_of_corner = [&](std::size_t corner) {
        if (order == 1) return corner;
        const std::size_t cx = std::size_t(g.n[0] + 1), cy = std::size_t(g.n[1] + 1);
        const std::size_t i = corner % cx, j = (corner / cx) % cy, k = corner / (cx * cy);
        return order * i + gx * (order * j + gy * order * k);
    };
    const double* const uc[3] = {u.data(), u.data() + nn, u.data() + 2 * nn};
    const double* const upc[3] = {up.empty() ? nullptr : up.data(), up.empty() ? nullptr : up.data() + nn,
                                  up.empty() ? nullptr : up.data() + 2 * nn};
    SliceImage img{w, h, std::vector<float>(std::size_t(w) * h)};
    const double inv_dt = 1.0 / problem_.dt;
    for (int b = 0; b < h; ++b)
        for (int a = 0; a < w; ++a) {
            const std::size_t node =
                node_of_corner(slice_node_index(plane, index, a, b, std::size_t(g.n[0] + 1), std::size_t(g.n[1] + 1)));
            img.values[std::size_t(b) * w + a] = static_cast<float>(slice_value(q, uc, upc, node, inv_dt));
        }
    return img;
}

void WaveSession::slice_to_device(SlicePlane plane, int index, SliceQuantity q, float* device_out) const {
    if (dynamic_cast<const CudaStepper<SemCudaTimeStepper>*>(stepper_.get()))
        throw RuntimeError("slice_to_device: the sem engine's slices come through the host (slice)");
    auto* cuda = dynamic_cast<const CudaStepper<CudaTimeStepper>*>(stepper_.get());
    if (!cuda) throw RuntimeError("slice_to_device needs the 3D CUDA engine (this run uses the CPU or is 2D)");
    const int depth = slice_extent(problem_.grid, plane)[2];
    cuda->s_.write_slice(plane, std::clamp(index, 0, depth - 1), q, device_out);
}

Result WaveSession::result(double wall_seconds) const {
    Result r = result_header(problem_, backend_);
    r.wall_seconds = wall_seconds;
    const std::size_t nr = problem_.receivers.size(), nt = sample_count();
    r.steps = std::int64_t(nt);  // the samples recorded so far
    r.time.resize(nt);
    for (std::size_t t = 0; t < nt; ++t) r.time[t] = double(t) * problem_.dt;
    const int nc = problem_.dimensions;  // a plane-strain run keeps its two in-plane components
    r.components = nc;
    r.displacement.assign(nr * nt * nc, 0.0);
    r.velocity.assign(nr * nt * nc, 0.0);
    auto sample = [&](std::size_t t, std::size_t i, int c) { return samples_[(t * nr + i) * 3 + c]; };
    for (std::size_t i = 0; i < nr; ++i)
        for (std::size_t t = 0; t < nt; ++t)
            for (int c = 0; c < nc; ++c) {
                r.displacement[(i * nt + t) * nc + c] = sample(t, i, c);
                // u^{-1} = 0 (the run starts at rest); the last sample has no u^{n+1} yet.
                const double before = t > 0 ? sample(t - 1, i, c) : 0.0;
                const double after = t + 1 < nt ? sample(t + 1, i, c) : sample(t, i, c);
                const double span = (t + 1 < nt ? 2.0 : 1.0) * problem_.dt;
                r.velocity[(i * nt + t) * nc + c] = (after - before) / span;
            }
    record_probes(problem_, r);
    return r;
}

SnapshotSeries WaveSession::snapshot() const {
    // A snapshot samples the voxel corners; a sem run's nodes are its GLL grid.
    if (problem_.method == Method::Sem)
        throw InputError("", "run.method", "sem runs have no wavefield snapshots yet; use vfem, ovfem or tcovfem");
    const VoxelGrid& g = problem_.grid;
    SnapshotSeries s;
    s.grid.count = {g.n[0] + 1, g.n[1] + 1, g.n[2] + 1};
    s.grid.origin = g.origin;
    s.grid.spacing = g.spacing;
    s.steps = {step_};
    s.time = {time()};
    s.fields = {"u", "v"};
    const std::vector<double> u = stepper_->displacement(), up = stepper_->previous_displacement();
    const std::size_t nn = g.node_count();
    std::vector<double> su(nn * 3), sv(nn * 3);
    // Nodes are x-fastest in the engine as in a snapshot; the engine keeps components apart (SoA).
    for (std::size_t node = 0; node < nn; ++node)
        for (int c = 0; c < 3; ++c) {
            su[node * 3 + c] = u[std::size_t(c) * nn + node];
            sv[node * 3 + c] = (u[std::size_t(c) * nn + node] - up[std::size_t(c) * nn + node]) / problem_.dt;
        }
    s.u.push_back(std::move(su));
    s.v.push_back(std::move(sv));
    return s;
}

}  // namespace voxwave
