#include "sim/simulation_controller.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <QMetaObject>
#include <chrono>
#include <cmath>
#include <utility>

#include "core/errors.hpp"
#include "scene/scene_io.hpp"
#include "wave/frame_pacer.hpp"
#include "wave/probe_recording.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::ui {

namespace {
using Clock = std::chrono::steady_clock;
// A chunk of steps aims at this wall time: frames at ~30 per second, and stop() answered
// within one chunk.
constexpr double kChunkSeconds = 0.03;
}  // namespace

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<voxwave::ui::SimulationFrame>();
}

SimulationController::~SimulationController() {
    stop();
    waitForIdle();
}

void SimulationController::setState(State s) {
    state_ = s;
    QMetaObject::invokeMethod(
        this, [this] { emit stateChanged(); }, Qt::QueuedConnection);
}

void SimulationController::start(const Scene& scene, const VoxelGrid& model, bool start_paused) {
    startAll({{scene, model}}, start_paused);
}

void SimulationController::startAll(const std::vector<std::pair<Scene, VoxelGrid>>& runs, bool start_paused) {
    stop();
    waitForIdle();
    stop_ = false;
    frame_in_flight_ = false;
    samples_sent_.assign(runs.size(), 0);
    {
        std::lock_guard lock(mutex_);
        paused_ = start_paused;
        step_requests_ = 0;
    }
    state_ = State::Preparing;
    emit stateChanged();
    const std::uint64_t serial = ++run_serial_;
    worker_ = std::thread([this, runs, start_paused, serial] { run(runs, start_paused, serial); });
}

void SimulationController::pause() {
    std::lock_guard lock(mutex_);
    paused_ = true;
}

void SimulationController::resume() {
    {
        std::lock_guard lock(mutex_);
        paused_ = false;
    }
    wake_.notify_all();
}

void SimulationController::stepOnce() {
    {
        std::lock_guard lock(mutex_);
        paused_ = true;
        ++step_requests_;
    }
    wake_.notify_all();
}

void SimulationController::stop() {
    stop_ = true;
    wake_.notify_all();
}

void SimulationController::requestSnapshot(const QString& path) {
    {
        std::lock_guard lock(mutex_);
        snapshot_path_ = path;
    }
    wake_.notify_all();
}

void SimulationController::savePendingSnapshot(const WaveSession& session) {
    QString path;
    {
        std::lock_guard lock(mutex_);
        path = std::exchange(snapshot_path_, QString());
    }
    if (path.isEmpty()) return;
    QString error;
    try {
        Result r = session.result();
        r.snapshots = session.snapshot();
        write_result_h5(path.toStdString(), r);
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    QMetaObject::invokeMethod(
        this, [this, path, error] { emit snapshotSaved(path, error); }, Qt::QueuedConnection);
}

void SimulationController::waitForIdle() {
    if (worker_.joinable()) worker_.join();
}

void SimulationController::setView(SlicePlane plane, int node_plane, SliceQuantity quantity) {
    std::lock_guard lock(mutex_);
    plane_ = plane;
    node_plane_ = node_plane;
    quantity_ = quantity;
}

void SimulationController::setDeviceSlices(bool on, const QString& why_not) {
    std::lock_guard lock(mutex_);
    device_slices_ = on;
    device_slices_why_not_ = why_not;
}

void SimulationController::setHostCopyOfDeviceSlices(bool on) {
    std::lock_guard lock(mutex_);
    host_copy_of_device_slices_ = on;
}

void SimulationController::transport(const QString& text) {
    QMetaObject::invokeMethod(
        this, [this, text] { emit sliceTransport(text); }, Qt::QueuedConnection);
}

// On the worker thread, mutex_ held.
RunFrame SimulationController::stagedOrHostSlice(const WaveSession& s, SlicePlane plane, int node_plane,
                                                 SliceQuantity q) {
    RunFrame rf;
    rf.node_plane = node_plane;
    if (staging_ && !device_slices_) {
        staging_.reset();
        transport(tr("Live slice: host copy (%1)").arg(device_slices_why_not_));
    }
    if (staging_) {
        try {
            const StagedSliceInfo info = staging_->snapshot(s, plane, node_plane, q);
            if (host_copy_of_device_slices_)
                rf.slice = s.slice(plane, node_plane, q);  // the same step's values, for the replay
            rf.slice.width = info.width;
            rf.slice.height = info.height;
            rf.staged = staging_;
            return rf;
        } catch (const std::exception& e) {
            staging_.reset();
            transport(tr("Live slice: host copy (the GPU snapshot failed: %1)").arg(QString::fromUtf8(e.what())));
        }
    }
    rf.slice = s.slice(plane, node_plane, q);
    return rf;
}

void SimulationController::publish(const std::vector<std::unique_ptr<WaveSession>>& sessions, std::int64_t total,
                                   double rate) {
    SimulationFrame f;
    {
        std::lock_guard lock(mutex_);
        f.plane = plane_;
        const double ds0 = sessions.front()->problem().grid.spacing;
        for (const auto& s : sessions) {
            // The same physical plane on every grid.
            const int node_plane = int(std::lround(node_plane_ * ds0 / s->problem().grid.spacing));
            if (f.runs.empty())
                f.runs.push_back(stagedOrHostSlice(*s, plane_, node_plane, quantity_));
            else
                f.runs.push_back(RunFrame{s->slice(plane_, node_plane, quantity_), nullptr, node_plane, {}});
        }
    }
    if (volume_view_ && Clock::now() - last_volume_ > std::chrono::milliseconds(400)) {
        last_volume_ = Clock::now();
        const WaveSession& s0 = *sessions.front();
        const VoxelGrid& g = s0.problem().grid;
        std::array<int, 3> node{g.n[0] / 2, g.n[1] / 2, g.n[2] / 2};
        if (!s0.problem().sources.empty()) node = nearest_node(g, s0.problem().sources.front().snapped);
        f.volume_nodes = {node[2], node[1], node[0]};
        SliceQuantity q;
        {
            std::lock_guard lock(mutex_);
            q = quantity_;
        }
        f.volume_slices.push_back(s0.slice(SlicePlane::XY, node[2], q));
        f.volume_slices.push_back(s0.slice(SlicePlane::XZ, node[1], q));
        f.volume_slices.push_back(s0.slice(SlicePlane::YZ, node[0], q));
    }
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        const auto& all = sessions[i]->receiver_samples();
        const std::size_t per_sample = 3 * std::max<std::size_t>(1, sessions[i]->problem().receivers.size());
        if (i == 0) f.first_sample = std::int64_t(samples_sent_[0] / per_sample);
        // A probe's face nodes reach the view as its traces (one per element), as in its result.
        f.runs[i].samples = probe_trace_samples(
            sessions[i]->problem(), std::vector<double>(all.begin() + std::ptrdiff_t(samples_sent_[i]), all.end()));
        samples_sent_[i] = all.size();
    }
    f.step = sessions.front()->step();
    f.total_steps = total;
    f.time = sessions.front()->time();
    f.steps_per_second = rate;
    frame_in_flight_ = true;
    QMetaObject::invokeMethod(
        this,
        [this, f = std::move(f)] {
            frame_in_flight_ = false;
            emit frameReady(f);
        },
        Qt::QueuedConnection);
}

void SimulationController::run(std::vector<std::pair<Scene, VoxelGrid>> runs, bool start_paused, std::uint64_t serial) {
    // The engine yields to the window: a lower priority for this thread, inherited by the
    // OpenMP threads it starts, so painting and input never wait behind a step (on Linux nice
    // values are per thread). The engine still gets every cycle the window leaves idle.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    // The result's wall time: building the problems and the engines, then the time loop's
    // chunks; time spent paused is not the run's.
    const auto setup_start = Clock::now();
    double setup_seconds = 0, loop_seconds = 0;
    std::vector<std::unique_ptr<WaveSession>> sessions;
    try {
        for (auto& [scene, model] : runs) {
            // The document's scene has been edited since it was read: the engines rely on
            // validate_scene's checks, so a run checks it here, once, with the user-facing message.
            validate_scene(scene, "scene");
            sessions.push_back(std::make_unique<WaveSession>(build_wave_problem(scene, std::move(model), "scene")));
        }
    } catch (const std::exception& e) {
        const QString msg = QString::fromStdString(e.what());
        setState(State::Idle);
        QMetaObject::invokeMethod(
            this, [this, msg] { emit failed(msg); }, Qt::QueuedConnection);
        return;
    }
    setup_seconds = std::chrono::duration<double>(Clock::now() - setup_start).count();
    const WaveSession* first = sessions.front().get();
    // A single CUDA run's slices stay on the GPU when the view can take them (a comparison's
    // views also draw the difference of the runs' slices, which the host computes).
    staging_.reset();
    // (A 2D run's CUDA engine has no slice kernel: its slices are host copies.)
    if (first->backend() == Backend::Cuda && first->problem().dimensions == 3) {
        bool device = false;
        QString why_not;
        {
            std::lock_guard lock(mutex_);
            device = device_slices_;
            why_not = device_slices_why_not_;
        }
        if (sessions.size() > 1) {
            transport(tr("Live slices: host copies (a comparison)"));
        } else if (!device) {
            transport(
                tr("Live slice: host copy (%1)").arg(why_not.isEmpty() ? tr("the view takes no GPU slices") : why_not));
        } else {
            try {
                staging_ = std::make_shared<DeviceSliceStaging>();
                transport(tr("Live slice: CUDA-OpenGL interop (no host copy)"));
            } catch (const std::exception& e) {
                transport(tr("Live slice: host copy (%1)").arg(QString::fromUtf8(e.what())));
            }
        }
    }
    const WaveProblem& p = first->problem();
    std::int64_t total = p.steps;
    for (const auto& s : sessions) total = std::min(total, s->problem().steps);
    {
        const QString note = QString::fromStdString(first->backend_note());
        const double dt = p.dt, dts = p.dt_stable;
        QMetaObject::invokeMethod(
            this,
            [this, note, total, dt, dts, rows = probe_trace_rows(p), serial] {
                if (serial == run_serial_) probe_rows_ = rows;
                emit started(note, total, dt, dts);
            },
            Qt::QueuedConnection);
    }
    setState(start_paused ? State::Paused : State::Running);
    publish(sessions, total, 0);

    FramePacer pacer(kChunkSeconds);
    bool completed = false;
    try {
        while (!stop_) {
            savePendingSnapshot(*first);
            std::int64_t want = 0;
            {
                std::unique_lock lock(mutex_);
                if (paused_ && step_requests_ == 0) {
                    setState(State::Paused);
                    wake_.wait(lock,
                               [&] { return stop_ || !paused_ || step_requests_ > 0 || !snapshot_path_.isEmpty(); });
                    if (stop_) break;
                    if (!snapshot_path_.isEmpty()) continue;  // saved at the top of the loop, still paused
                    if (!paused_) setState(State::Running);
                }
                if (step_requests_ > 0) {
                    --step_requests_;
                    want = 1;
                } else {
                    want = pacer.chunk();
                }
            }
            if (total > 0) want = std::min(want, total - first->step());
            if (want <= 0) {
                completed = true;
                break;
            }
            const auto t0 = Clock::now();
            for (auto& s : sessions) s->advance(want);
            const double chunk_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            loop_seconds += chunk_seconds;
            pacer.record(want, chunk_seconds);
            if (!frame_in_flight_ || want == 1) publish(sessions, total, pacer.steps_per_second());
        }
        if (total > 0 && first->step() >= total) completed = true;
        savePendingSnapshot(*first);  // asked for as the run ended: the field is still here
        publish(sessions, total, pacer.steps_per_second());
    } catch (const std::exception& e) {
        const QString msg = QString::fromStdString(e.what());
        QMetaObject::invokeMethod(
            this, [this, msg] { emit failed(msg); }, Qt::QueuedConnection);
    }
    std::vector<Result> results;
    for (const auto& s : sessions) {
        results.push_back(s->result(setup_seconds + loop_seconds));
        results.back().setup_seconds = setup_seconds;
    }
    staging_.reset();  // frames in the queue keep it alive
    QMetaObject::invokeMethod(
        this,
        [this, r = std::move(results), completed, serial] {
            if (serial != run_serial_) return;  // a run stopped before the one now going
            last_results_ = r;
            emit finished(completed);
        },
        Qt::QueuedConnection);
    setState(State::Idle);
}

}  // namespace voxwave::ui
