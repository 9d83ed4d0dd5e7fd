// Scans (docs/architecture.md#probes-and-scans): the scene's scan probe moved over the model,
// one full run a shot, back to back on the one voxelised model.
#pragma once

#include <string>
#include <vector>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// The probe's centre at every shot: positions2 lines of positions shots, the first at the
// probe's own centre, shot (i, j) at center + i step + j step2 (i fastest).
std::vector<Vec3> scan_shot_centers(const ScanSpec& scan, const Vec3& center);

// One shot of a scan: the scene's scan probe as this shot places and fires it. Every scan type
// is a list of these (linear and raster: the probe moved; others: a per-shot element or law),
// so the runners (one process, or the shots shared over MPI ranks) take any list unchanged.
struct ScanShot {
    std::size_t index = 0;  // the shot's row in /scan (0 .. shots - 1)
    Vec3 position{};        // the probe's centre, m (/scan/positions)
    ProbeSpec probe;        // the scan probe as this shot has it
    std::string label;      // "shot K of N at (x, y, z) m", for messages
};

// The shots of scene.scan (which validate_scene has checked), in /scan's row order; the scan
// probe is scene.probes[scan_probe_index(scene, label)].
std::vector<ScanShot> scan_shots(const Scene& scene, const std::string& label);
// Index of the scan's probe in scene.probes. Throws InputError(label, "scan" or "scan.probe", ...)
// without a scan, for an unknown probe or one that does not receive.
std::size_t scan_probe_index(const Scene& scene, const std::string& label);
// The scene of one shot: the scan probe replaced by the shot's (a wedge's block moves with it).
Scene shot_scene(const Scene& scene, const ScanShot& shot);

// The shots this process runs: shot k where k % ranks == rank (round-robin: a raster's lines
// spread evenly, and shot 0, whose whole result goes into the file, is rank 0's). One GPU a rank.
struct ScanShare {
    int rank = 0, ranks = 1;
    int cuda_device = -1;  // -1: the first
};
// Where a shot's time went (bench-scan): the whole shot (placing the probes, the run, the
// reductions) and its time loop alone; the difference is the shot's overhead.
struct ScanShotTiming {
    std::size_t shot = 0;
    double seconds = 0, loop_seconds = 0;
};

// The indices of `shots` that `share` runs, increasing.
std::vector<std::size_t> shared_shots(std::size_t shots, const ScanShare& share);

// The delay-and-sum of an array's element signals (elements x nt, sampled every dt) with its
// transmit law: S(t) = sum_e s_e(t - d_e), linear between samples, 0 before the first. An echo
// from the law's focus or steered front reaches element e at T - d_e, so the terms line up at T.
std::vector<double> delay_and_sum(const std::vector<double>& element_signals, std::size_t nt,
                                  const std::vector<double>& delays, double dt);

// Runs every shot of scene.scan (which validate_scene has checked) on `model` (the scene
// rasterised at its spacing): each shot places the other probes where the scene has them and
// the scan probe at its shot centre. Every shot's position is checked before the first runs
// (InputError(label, "scan", "shot K at (x, y, z) m: reason")). The result is the first shot's
// (its traces and /probes) with the whole scan in Result::scan; with a gate, the C-scan holds
// each shot's peak |S(t)| in the gate (S the delay-and-sum, a piston's signal itself).
// `progress` counts steps over all shots; `backend_note` gets the first shot's note.
// The shots run back to back on one stepper (ShotRunner: the model and, on CUDA, its device
// buffers are kept); a probe on a wedge moves its block, so each of its shots is voxelised and
// run afresh. With a `share` of several ranks only its shots run (progress counts those): the
// scan's shot_signals and cscan then hold their rows alone, in shot order, shot_positions every
// shot, and the result's traces and probes are shot 0's on rank 0 (empty elsewhere). `batch`:
// 1 runs the shots one after another; N > 1 steps them in groups of N and 0 chooses
// (default_shot_batch: from the GPU's memory, one at a time on the CPU). run_batched_shots gives
// the same signals to rounding; what it does not batch runs one at a time and the note says so
// (wedge scans, whose model moves, always run one at a time).
Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note = nullptr, const ScanShare& share = {},
                      std::vector<ScanShotTiming>* timing = nullptr, std::size_t batch = 1);

}  // namespace voxwave
