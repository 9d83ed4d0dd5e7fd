// Scans (docs/architecture.md#probes-and-scans): the scene's scan probe moved over the model,
// one full run a shot, back to back on the one voxelised model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/array_acquisition.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

// One shot of a scan: where the scan probe stands and how it fires. A moving scan (single,
// linear, raster) fires the probe with its own law at each centre; an FMC shot fires element
// `transmit_element` alone, undelayed, while every element receives; a PWI shot fires every
// element with the plane-wave law `law`.
struct ScanShot {
    Vec3 center{0, 0, 0};
    int transmit_element = -1;        // >= 0: only this element transmits (fmc)
    std::optional<DelayLawSpec> law;  // replaces the probe's own law (pwi: custom delays)
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
// element offsets and the material under the probe). Throws InputError(label, "scan.probe", ...)
// when the scan's probe is missing or does not receive.
ScanPlan plan_scan_shots(const Scene& scene, const VoxelGrid& model, const std::string& label);

// Adds every scene probe to `problem` (built without them), the scan probe as shot `shot` of
// `plan` fires it; the other probes where the scene has them.
void add_scan_shot_probes(WaveProblem& problem, const Scene& scene, const ScanPlan& plan, std::size_t shot,
                          const std::string& label);

// An FMC or PWI scan's result (run_probe_scan on `model`) as the acquisition the imaging reads
// (wave/array_acquisition.hpp): the shots' element signals as data (n_tx x n_rx x nt), the
// result's time axis, the elements' centres on the face, the probe's pitch, normal and axis, the
// plan's reference time, the material's speeds under the probe and the wavelet's centre frequency.
ArrayAcquisition scan_array_acquisition(const Scene& scene, const VoxelGrid& model, const Result& result,
                                        const std::string& label);

// The probe's centre at every shot: positions2 lines of positions shots, the first at the
// probe's own centre, shot (i, j) at center + i step + j step2 (i fastest).
std::vector<Vec3> scan_shot_centers(const ScanSpec& scan, const Vec3& center);

// The delay-and-sum of an array's element signals (elements x nt, sampled every dt) with its
// transmit law: S(t) = sum_e s_e(t - d_e), linear between samples, 0 before the first. An echo
// from the law's focus or steered front reaches element e at T - d_e, so the terms line up at T.
std::vector<double> delay_and_sum(const std::vector<double>& element_signals, std::size_t nt,
                                  const std::vector<double>& delays, double dt);

// Runs every shot of scene.scan (which validate_scene has checked) on `model` (the scene
// rasterised at its spacing): each shot places the other probes where the scene has them and
// the scan probe as plan_scan_shots says (its shot centre; an FMC's or PWI's firing). Every shot's position is checked
// before the first runs (InputError(label, "scan", "shot K at (x, y, z) m: reason")). The result is the first shot's
// (its traces and /probes) with the whole scan in Result::scan; with a gate, the C-scan holds
// each shot's peak |S(t)| in the gate (S the delay-and-sum, a piston's signal itself).
// `progress` counts steps over all shots; `backend_note` gets the first shot's note.
Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note = nullptr);

}  // namespace voxwave
