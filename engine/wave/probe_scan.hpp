// Scans (docs/architecture.md#probes-and-scans): the scene's scan probe moved over the model,
// one full run a shot, back to back on the one voxelised model.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/array_acquisition.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// One shot of a scan: the scene's scan probe as this shot places and fires it. Every scan type
// is a list of these, so the runners (one process, batched groups, or the shots shared over MPI
// ranks) take any list unchanged: a moving scan (single, linear, raster) fires the probe with its
// own law at each centre; an FMC shot fires element `transmit_element` alone, undelayed, while
// every element receives; a PWI shot fires every element with its plane-wave law (probe.delay_law,
// custom delays).
struct ScanShot {
    std::size_t index = 0;      // the shot's row in /scan (0 .. shots - 1)
    Vec3 position{};            // the probe's centre, m (/scan/positions)
    ProbeSpec probe;            // the scan probe as this shot has it (centre and law)
    std::string label;          // "shot K of N at (x, y, z) m", for messages
    int transmit_element = -1;  // >= 0: only this element transmits, all receive (fmc)
};

// The shot list of scene.scan (which validate_scene has checked): the scan probe's index in
// scene.probes and the shots in the order their signals are stored (an FMC's shot k is element
// k, a PWI's shot k is angles[k]). `reference_time`: an FMC's or PWI's time zero, the wavelet's
// reference time; a PWI shot's law fires so that its front crosses the array centre at the same
// time for every angle, `pwi_centre_delay` after the elements' earliest possible start, and its
// reference time includes that delay.
struct ScanPlan {
    std::size_t probe = 0;
    std::vector<ScanShot> shots;
    double reference_time = 0;
    double pwi_centre_delay = 0;
};

// The plan on `model` (the scene rasterised at its spacing; a PWI's law needs the footprint's
// element offsets and the material under the probe). Throws InputError(label, "scan" or
// "scan.probe", ...) without a scan, for an unknown probe or one that does not receive.
ScanPlan plan_scan_shots(const Scene& scene, const VoxelGrid& model, const std::string& label);
// The shots of plan_scan_shots on the scene rasterised at its spacing, in /scan's row order.
std::vector<ScanShot> scan_shots(const Scene& scene, const std::string& label);
// Index of the scan's probe in scene.probes (errors as plan_scan_shots).
std::size_t scan_probe_index(const Scene& scene, const std::string& label);

// Adds every scene probe to `problem` (built without them), the scan probe as `shot` fires it
// (an FMC shot: a one-element transmitting aperture and a receive-only copy of the array on the
// one face); the other probes where the scene has them.
void add_scan_shot_probes(WaveProblem& problem, const Scene& scene, std::size_t scan_probe, const ScanShot& shot,
                          const std::string& label);
// The scene of one shot: the scan probe replaced by the shot's (a wedge's block moves with it;
// an FMC shot's probe becomes its sender followed by a receive-only copy).
Scene shot_scene(const Scene& scene, const ScanShot& shot);

// An FMC or PWI scan's result (run_probe_scan on `model`) as the acquisition the imaging reads
// (wave/array_acquisition.hpp): the shots' element signals as data (n_tx x n_rx x nt), the
// result's time axis, the elements' centres on the face, the probe's pitch, normal and axis, the
// plan's reference time, the material's speeds under the probe and the wavelet's centre frequency.
ArrayAcquisition scan_array_acquisition(const Scene& scene, const VoxelGrid& model, const Result& result,
                                        const std::string& label);

// The probe's centre at every shot: positions2 lines of positions shots, the first at the
// probe's own centre, shot (i, j) at center + i step + j step2 (i fastest).
std::vector<Vec3> scan_shot_centers(const ScanSpec& scan, const Vec3& center);

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
// the scan probe as plan_scan_shots says (its shot centre; an FMC's or PWI's firing). Every shot's position is checked
// before the first runs (InputError(label, "scan", "shot K at (x, y, z) m: reason")). The result is the first shot's
// (its traces and /probes) with the whole scan in Result::scan (wall_seconds: the scan after the
// model was built; setup_seconds: all of it but the shots' time loops); with a gate, the C-scan holds
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
// (wedge scans, whose model moves, always run one at a time). `on_shot`, when given, is called
// after each shot with its index (0-based), the scan so far (the shots done so far in
// shot_signals and cscan; shot_positions holds every shot) and that shot's result, on the
// caller's thread (a view that fills as shots complete copies what it needs).
using ScanShotFn = std::function<void(std::size_t shot, const ScanRecord& so_far, const Result& shot_result)>;
Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note = nullptr, const ScanShare& share = {},
                      std::vector<ScanShotTiming>* timing = nullptr, std::size_t batch = 1,
                      const ScanShotFn& on_shot = {});

}  // namespace voxwave
