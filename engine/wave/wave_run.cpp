#include "wave/wave_run.hpp"

#include <chrono>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "wave/probe_recording.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/time_stepper_cuda.hpp"

namespace voxwave {
namespace {

template <class Real>
void run_cpu(const WaveProblem& p, const ProgressFn& progress, Result& r, ForceExchange* exchange) {
    const auto t0 = std::chrono::steady_clock::now();
    CpuTimeStepper<Real> stepper(p);
    r.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stepper.set_force_exchange(exchange);
    const std::size_t nr = p.receivers.size();
    const std::size_t nt = static_cast<std::size_t>(p.steps);
    r.time.resize(nt);
    r.displacement.assign(nr * nt * 3, 0.0);
    r.velocity.assign(nr * nt * 3, 0.0);
    const std::int64_t report_every = std::max<std::int64_t>(1, p.steps / 200);
    std::vector<double> before(nr * 3);
    for (std::int64_t n = 0; n < p.steps; ++n) {
        const std::size_t t = static_cast<std::size_t>(n);
        r.time[t] = double(n) * p.dt;
        for (std::size_t i = 0; i < nr; ++i)
            for (int c = 0; c < 3; ++c) {
                r.displacement[(i * nt + t) * 3 + c] = stepper.displacement_at(p.receivers[i].node, c);
                before[i * 3 + c] = stepper.previous_at(p.receivers[i].node, c);
            }
        stepper.step(n);
        for (std::size_t i = 0; i < nr; ++i)
            for (int c = 0; c < 3; ++c)
                r.velocity[(i * nt + t) * 3 + c] =
                    (stepper.displacement_at(p.receivers[i].node, c) - before[i * 3 + c]) / (2.0 * p.dt);
        if (progress && ((n + 1) % report_every == 0 || n + 1 == p.steps))
            if (!progress(n + 1, p.steps)) throw Cancelled{};
    }
}

}  // namespace

Result run_wave(const WaveProblem& p, const ProgressFn& progress, std::string* backend_note, const SlabHooks& slab) {
    assert_run_rules(p);
    std::string note;
    const Backend b = resolve_backend(p.backend, note);
    if (backend_note) *backend_note = note;

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
    const auto t0 = std::chrono::steady_clock::now();
    if (b == Backend::Cuda) {
        CudaEngineOptions options;
        options.device = slab.cuda_device;
        options.exchange = slab.exchange;
        options.tcovfem_diagonal = slab.tcovfem_diagonal;
        run_wave_cuda(p, progress, r, options);
    } else if (p.precision == Precision::Fp64) {
        run_cpu<double>(p, progress, r, slab.exchange);
    } else {
        run_cpu<float>(p, progress, r, slab.exchange);
    }
    // A slab's receivers are its share of the whole problem's: the distributed run records the
    // probes after gathering them.
    if (!slab.exchange) record_probes(p, r);
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace voxwave
