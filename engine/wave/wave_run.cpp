#include "wave/wave_run.hpp"

#include <chrono>
#include <variant>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "wave/plane_strain_stepper_cpu.hpp"
#include "wave/plane_strain_stepper_cuda.hpp"
#include "wave/probe_recording.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/snapshot_taker.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/time_stepper_cuda.hpp"

namespace voxwave {
namespace {

// The time loop of any CPU stepper with NC displacement components (3, or 2 in plane strain).
template <class Stepper>
void record_cpu(Stepper& stepper, const WaveProblem& p, const ProgressFn& progress, Result& r) {
    const std::size_t nr = p.receivers.size();
    const std::size_t nt = static_cast<std::size_t>(p.steps);
    const int nc = p.dimensions;
    r.components = nc;
    r.time.resize(nt);
    r.displacement.assign(nr * nt * nc, 0.0);
    r.velocity.assign(nr * nt * nc, 0.0);
    const std::int64_t report_every = std::max<std::int64_t>(1, p.steps / 200);
    std::vector<double> before(nr * nc);
    SnapshotTaker snapshots(p, r.snapshots);
    for (std::int64_t n = 0; n < p.steps; ++n) {
        const std::size_t t = static_cast<std::size_t>(n);
        r.time[t] = double(n) * p.dt;
        for (std::size_t i = 0; i < nr; ++i)
            for (int c = 0; c < nc; ++c) {
                r.displacement[(i * nt + t) * nc + c] = stepper.displacement_at(p.receivers[i].node, c);
                before[i * nc + c] = stepper.previous_at(p.receivers[i].node, c);
            }
        const bool snapshot = snapshots.due(n);
        if (snapshot)
            snapshots.before_step([&](std::size_t node, int c) { return stepper.displacement_at(node, c); },
                                  [&](std::size_t node, int c) { return stepper.previous_at(node, c); });
        stepper.step(n);
        if (snapshot) snapshots.after_step([&](std::size_t node, int c) { return stepper.displacement_at(node, c); });
        for (std::size_t i = 0; i < nr; ++i)
            for (int c = 0; c < nc; ++c)
                r.velocity[(i * nt + t) * nc + c] =
                    (stepper.displacement_at(p.receivers[i].node, c) - before[i * nc + c]) / (2.0 * p.dt);
        if (progress && ((n + 1) % report_every == 0 || n + 1 == p.steps))
            if (!progress(n + 1, p.steps)) throw Cancelled{};
    }
}

template <class Stepper>
void run_cpu(const WaveProblem& p, const ProgressFn& progress, Result& r, HaloExchange* exchange) {
    const auto t0 = std::chrono::steady_clock::now();
    auto stepper = std::make_unique<Stepper>(p);
    r.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if constexpr (requires { stepper->set_halo_exchange(exchange); }) stepper->set_halo_exchange(exchange);
    record_cpu(*stepper, p, progress, r);
    release_engine(r, [&] { stepper.reset(); });
}

}  // namespace

Result result_header(const WaveProblem& p, Backend b) {
    Result r;
    r.method = to_string(p.method);
    r.precision = to_string(p.precision);
    r.backend = to_string(b);
    r.stages = p.stages;
    r.spacing = p.grid.spacing;
    r.dt = p.dt;
    r.steps = p.steps;
    for (const auto& rec : p.receivers) {
        r.receiver_names.push_back(rec.name);
        r.receiver_positions.push_back(rec.snapped);
    }
    return r;
}

Result run_wave(const WaveProblem& p, const ProgressFn& progress, std::string* backend_note, const SlabHooks& slab) {
    assert_run_rules(p);
    std::string note;
    const Backend b = resolve_backend(p.backend, note);
    if (backend_note) *backend_note = note;

    Result r = result_header(p, b);
    const auto t0 = std::chrono::steady_clock::now();
    if (b == Backend::Cuda && p.dimensions == 2) {
        if (slab.exchange) throw InputError("", "grid.size", "a plane-strain (2D) scene runs in one process");
        run_plane_strain_cuda(p, progress, r, slab.cuda_device);
    } else if (b == Backend::Cuda && p.method == Method::Sem) {
        run_sem_cuda(p, progress, r, slab.cuda_device, slab.exchange);
    } else if (b == Backend::Cuda) {
        CudaEngineOptions options;
        options.device = slab.cuda_device;
        options.exchange = slab.exchange;
        options.overlap_exchange = slab.overlap_exchange;
        run_wave_cuda(p, progress, r, options);
    } else if (p.dimensions == 2) {
        if (slab.exchange) throw InputError("", "grid.size", "a plane-strain (2D) scene runs in one process");
        if (p.precision == Precision::Fp64)
            run_cpu<PlaneStrainStepperCpu<double>>(p, progress, r, nullptr);
        else
            run_cpu<PlaneStrainStepperCpu<float>>(p, progress, r, nullptr);
    } else if (p.method == Method::Sem) {
        if (p.precision == Precision::Fp64)
            run_cpu<SemTimeStepperCpu<double>>(p, progress, r, slab.exchange);
        else
            run_cpu<SemTimeStepperCpu<float>>(p, progress, r, slab.exchange);
    } else if (p.precision == Precision::Fp64) {
        run_cpu<CpuTimeStepper<double>>(p, progress, r, slab.exchange);
    } else {
        run_cpu<CpuTimeStepper<float>>(p, progress, r, slab.exchange);
    }
    // A slab's receivers are its share of the whole problem's: the distributed run records the
    // probes after gathering them.
    if (!slab.exchange) record_probes(p, r);
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

struct ShotRunner::Impl {
    Impl(const WaveProblem& p, int device) : problem(p), cuda_device(device) {}
    const WaveProblem& problem;
    int cuda_device = -1;
    bool resolved = false;
    Backend backend = Backend::Cpu;
    std::string note;
    double loop_seconds = 0;
    std::variant<std::monostate, std::unique_ptr<CpuTimeStepper<double>>, std::unique_ptr<CpuTimeStepper<float>>,
                 std::unique_ptr<CudaTimeStepper>>
        stepper;
};

ShotRunner::ShotRunner(const WaveProblem& problem, int cuda_device)
    : impl_(std::make_unique<Impl>(problem, cuda_device)) {}
ShotRunner::~ShotRunner() = default;
double ShotRunner::last_loop_seconds() const { return impl_->loop_seconds; }

Result ShotRunner::run(const ProgressFn& progress, std::string* backend_note) {
    Impl& m = *impl_;
    const WaveProblem& p = m.problem;
    if (p.dimensions == 2 || p.method == Method::Sem) {
        SlabHooks hooks;
        hooks.cuda_device = m.cuda_device;
        Result r = run_wave(p, progress, backend_note, hooks);
        m.loop_seconds = r.wall_seconds - r.setup_seconds;
        return r;
    }
    assert_run_rules(p);
    if (!m.resolved) {
        m.backend = resolve_backend(p.backend, m.note);
        m.resolved = true;
    }
    if (backend_note) *backend_note = m.note;
    Result r = result_header(p, m.backend);
    const auto t0 = std::chrono::steady_clock::now();
    auto zeros = [&] { return std::vector<double>(3 * p.grid.node_count(), 0.0); };
    const bool fresh = std::holds_alternative<std::monostate>(m.stepper);
    if (m.backend == Backend::Cuda) {
        if (fresh) {
            CudaEngineOptions options;
            options.device = m.cuda_device;
            m.stepper = std::make_unique<CudaTimeStepper>(p, options);
        } else {
            std::get<std::unique_ptr<CudaTimeStepper>>(m.stepper)->restart_shot();
        }
        r.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        record_wave_cuda(*std::get<std::unique_ptr<CudaTimeStepper>>(m.stepper), p, progress, r);
        m.loop_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - r.setup_seconds;
    } else {
        auto cpu = [&](auto& stepper) {
            using Stepper = typename std::decay_t<decltype(stepper)>::element_type;
            if (!stepper)
                stepper = std::make_unique<Stepper>(p);
            else
                stepper->set_state(zeros(), zeros());
            r.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            record_cpu(*stepper, p, progress, r);
            m.loop_seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - r.setup_seconds;
        };
        if (fresh && p.precision == Precision::Fp64) m.stepper = std::unique_ptr<CpuTimeStepper<double>>();
        if (fresh && p.precision != Precision::Fp64) m.stepper = std::unique_ptr<CpuTimeStepper<float>>();
        if (auto* s64 = std::get_if<std::unique_ptr<CpuTimeStepper<double>>>(&m.stepper))
            cpu(*s64);
        else
            cpu(std::get<std::unique_ptr<CpuTimeStepper<float>>>(m.stepper));
    }
    record_probes(p, r);
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace voxwave
