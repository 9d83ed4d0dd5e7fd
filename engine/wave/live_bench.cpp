#include "wave/live_bench.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "wave/frame_pacer.hpp"
#include "wave/time_stepper_cuda.hpp"

namespace voxwave {

LiveBenchResult run_live_bench(WaveSession& session, double seconds, SlicePlane plane, int index,
                               SliceQuantity quantity) {
    using Clock = std::chrono::steady_clock;
    const auto e = slice_extent(session.problem().grid, plane);
    LiveBenchResult r;
    r.slice_width = e[0];
    r.slice_height = e[1];
    std::unique_ptr<CudaFloatArray> frame;
    if (session.backend() == Backend::Cuda) frame = std::make_unique<CudaFloatArray>(std::size_t(e[0]) * e[1]);
    FramePacer pacer;
    double slice_total = 0;
    const std::int64_t total = session.problem().steps;
    const auto start = Clock::now();
    for (;;) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (elapsed >= seconds) break;
        std::int64_t want = pacer.chunk();
        if (total > 0) want = std::min(want, total - session.step());
        if (want <= 0) break;
        const auto t0 = Clock::now();
        session.advance(want);
        const auto t1 = Clock::now();
        pacer.record(want, std::chrono::duration<double>(t1 - t0).count());
        if (frame)
            session.slice_to_device(plane, index, quantity, frame->data());
        else
            (void)session.slice(plane, index, quantity);
        const auto t2 = Clock::now();
        slice_total += std::chrono::duration<double>(t2 - t1).count();
        r.frame_ms_max = std::max(r.frame_ms_max, 1e3 * std::chrono::duration<double>(t2 - t0).count());
        ++r.frames;
        r.steps += want;
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    r.frames_per_second = r.frames / r.seconds;
    r.steps_per_second = r.steps / r.seconds;
    r.slice_ms_mean = r.frames ? 1e3 * slice_total / r.frames : 0;
    return r;
}

}  // namespace voxwave
