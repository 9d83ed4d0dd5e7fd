// Scans (docs/architecture.md#probes-and-scans): the scene's scan probe moved over the model,
// one full run a shot, back to back on the one voxelised model.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "scene/result.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave {

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
// the scan probe at its shot centre. Every shot's position is checked before the first runs
// (InputError(label, "scan", "shot K at (x, y, z) m: reason")). The result is the first shot's
// (its traces and /probes) with the whole scan in Result::scan; with a gate, the C-scan holds
// each shot's peak |S(t)| in the gate (S the delay-and-sum, a piston's signal itself).
// `progress` counts steps over all shots; `backend_note` gets the first shot's note; `on_shot`,
// when given, is called after each shot with its index (0-based), the scan so far (shots 0..shot
// in its arrays) and that shot's result, on the caller's thread (a view that fills as shots
// complete copies what it needs).
using ScanShotFn = std::function<void(std::size_t shot, const ScanRecord& so_far, const Result& shot_result)>;
Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note = nullptr, const ScanShotFn& on_shot = {});

}  // namespace voxwave
