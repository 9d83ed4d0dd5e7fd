// Owns the engine's worker thread. Widgets talk to the controller through signals and slots;
// the controller talks to the engine (WaveSession) only on its worker thread, so the window
// never waits for a step. Frames carry a slice of the field and the receiver samples recorded
// since the previous frame; a new frame is made only when the window has taken the last one,
// so a slow view never queues up work.
//
// With the CUDA backend and a view that can take CUDA-OpenGL interop (setDeviceSlices), a
// single run's slice stays on the GPU: the worker snapshots it into a DeviceSliceStaging and the
// frame carries that staging instead of the values (RunFrame::staged); the view copies it into
// its GL buffer on the GPU. Otherwise, and after any failure of that path, frames carry the slice
// on the host. sliceTransport() says which path a CUDA run takes.
#pragma once

#include <QObject>
#include <QString>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "scene/result.hpp"
#include "scene/scene.hpp"
#include "wave/probe_recording.hpp"
#include "wave/slice_staging.hpp"
#include "wave/wave_session.hpp"

namespace voxwave::ui {

// One run's part of a frame (a comparison runs several sessions in lockstep).
struct RunFrame {
    // The slice's values, or only its width and height when `staged` holds it on the GPU.
    SliceImage slice;
    std::shared_ptr<DeviceSliceStaging> staged;
    int node_plane = 0;  // on this run's grid
    // New samples of the scene's receivers and the probes' traces (probeTraceRows):
    // [(n * rows + r) * 3 + c].
    std::vector<double> samples;
};

struct SimulationFrame {
    std::vector<RunFrame> runs;
    // The 3D view's planes (first run only, a few times per second when asked for): XY, XZ and
    // YZ through the first source, at node planes volume_nodes (z, y, x index).
    std::vector<SliceImage> volume_slices;
    std::array<int, 3> volume_nodes{0, 0, 0};
    SlicePlane plane = SlicePlane::XZ;
    std::int64_t first_sample = 0;
    std::int64_t step = 0, total_steps = 0;
    double time = 0;
    double steps_per_second = 0;
};

class SimulationController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Preparing, Running, Paused };
    explicit SimulationController(QObject* parent = nullptr);
    ~SimulationController() override;

    State state() const { return state_.load(); }
    bool busy() const { return state() != State::Idle; }
    // The traces of the last finished or stopped run (empty before the first); one per
    // session of a comparison.
    const Result& lastResult() const { return last_results_.empty() ? empty_ : last_results_.front(); }
    const std::vector<Result>& lastResults() const { return last_results_; }
    // The receiving probes' traces of the run last started (set just before started()): a frame's
    // samples hold the scene's receivers, then these rows (wave/probe_recording.hpp).
    const ProbeTraceRows& probeTraceRows() const { return probe_rows_; }

public slots:
    // Starts a run of `scene` on `model` (the document's voxel grid): the problem is built on
    // the worker thread; errors arrive through failed(). `start_paused` prepares and waits.
    void start(const voxwave::Scene& scene, const voxwave::VoxelGrid& model, bool start_paused = false);
    // Several runs in lockstep (a comparison): they must share dt (the caller sets run.dt);
    // frames carry one slice and the new samples of each, the slice plane placed at the same
    // physical position on every grid (node plane set for the first run).
    void startAll(const std::vector<std::pair<voxwave::Scene, voxwave::VoxelGrid>>& runs, bool start_paused = false);
    void pause();
    void resume();
    void stepOnce();
    // Returns at once: the worker ends after the chunk in flight (tens of milliseconds).
    void stop();
    void setView(voxwave::SlicePlane plane, int node_plane, voxwave::SliceQuantity quantity);
    // Adds the 3D view's three planes to a frame about every 0.4 s.
    void setVolumeView(bool on) { volume_view_ = on; }
    // Whether the view can take slices that stay on the GPU (a single CUDA run's); `why_not`
    // explains a refusal in sliceTransport(). Read at each frame: turning it off mid-run (the
    // view's interop failed) sends host slices from the next frame on.
    void setDeviceSlices(bool on, const QString& why_not = {});
    // Whether frames whose slice stays on the GPU also carry its values on the host (a copy made
    // by the worker, for the replay's store); off, the interop path makes no host copy at all.
    void setHostCopyOfDeviceSlices(bool on);
    // Blocks until the worker thread has ended (tests, shutdown).
    void waitForIdle();
    // Saves the first run's whole wavefield now (every node, u and v) with its traces as a result
    // file with one snapshot, and the XDMF file beside it (write_result_h5), on the worker
    // thread between two chunks (also while paused); snapshotSaved() reports it. Only while a
    // run is busy (the field lives in its engine).
    void requestSnapshot(const QString& path);

signals:
    void started(const QString& backend_note, qint64 total_steps, double dt, double dt_stable);
    void frameReady(const voxwave::ui::SimulationFrame& frame);
    void finished(bool completed);
    void failed(const QString& message);
    void stateChanged();
    // A CUDA run's slice path, at its start and when it changes: through the GPU
    // (CUDA-OpenGL interop) or a host copy, and why.
    void sliceTransport(const QString& text);
    // The end of requestSnapshot: `error` is empty on success, else the one-line reason.
    void snapshotSaved(const QString& path, const QString& error);

private:
    void run(std::vector<std::pair<Scene, VoxelGrid>> runs, bool start_paused, std::uint64_t serial);
    void publish(const std::vector<std::unique_ptr<WaveSession>>& sessions, std::int64_t total, double rate);
    void setState(State s);
    void transport(const QString& text);
    RunFrame stagedOrHostSlice(const WaveSession& s, SlicePlane plane, int node_plane, SliceQuantity q);
    // Worker thread: writes the snapshot requestSnapshot asked for, if any.
    void savePendingSnapshot(const WaveSession& session);

    std::thread worker_;
    std::atomic<State> state_{State::Idle};
    std::atomic<bool> stop_{false};
    std::atomic<bool> frame_in_flight_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool paused_ = false;
    int step_requests_ = 0;
    QString snapshot_path_;  // guarded by mutex_: a requested snapshot not yet written
    SlicePlane plane_ = SlicePlane::XZ;
    int node_plane_ = 0;
    SliceQuantity quantity_ = SliceQuantity::Uz;
    std::vector<std::size_t> samples_sent_;
    std::atomic<bool> volume_view_{false};
    bool device_slices_ = false;               // guarded by mutex_
    bool host_copy_of_device_slices_ = false;  // guarded by mutex_
    QString device_slices_why_not_;
    std::shared_ptr<DeviceSliceStaging> staging_;  // worker thread only
    std::chrono::steady_clock::time_point last_volume_{};
    std::vector<Result> last_results_;
    // Which start() a run's end belongs to (window thread only): a stopped run's end may still be
    // queued when the next run starts, and must not pass for the new run's (finished, lastResult).
    std::uint64_t run_serial_ = 0;
    Result empty_;
    ProbeTraceRows probe_rows_;
};

}  // namespace voxwave::ui

Q_DECLARE_METATYPE(voxwave::ui::SimulationFrame)
