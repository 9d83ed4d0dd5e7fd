#include "wave/probe_scan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "probe/probe_footprint.hpp"
#include "wave/receiver_scans.hpp"
#include "wave/wave_run.hpp"

namespace voxwave {

std::vector<Vec3> scan_shot_centers(const ScanSpec& scan, const Vec3& center) {
    std::vector<Vec3> out;
    for (int j = 0; j < scan.positions2; ++j)
        for (int i = 0; i < scan.positions; ++i) {
            Vec3 c = center;
            for (int d = 0; d < 3; ++d) c[d] += double(i) * scan.step[d] + double(j) * scan.step2[d];
            out.push_back(c);
        }
    return out;
}

std::vector<double> delay_and_sum(const std::vector<double>& element_signals, std::size_t nt,
                                  const std::vector<double>& delays, double dt) {
    std::vector<double> sum(nt, 0.0);
    for (std::size_t e = 0; e < delays.size(); ++e) {
        const double* s = element_signals.data() + e * nt;
        const double shift = delays[e] / dt;
        for (std::size_t n = 0; n < nt; ++n) {
            const double x = double(n) - shift;
            if (x < 0) continue;
            const std::size_t i = std::size_t(x);
            const double f = x - double(i);
            sum[n] += i + 1 < nt ? (1 - f) * s[i] + f * s[i + 1] : (i < nt ? s[i] : 0.0);
        }
    }
    return sum;
}

Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note, const ScanShotFn& on_shot) {
    if (!scene.scan) throw InputError(label, "scan", "the scene has no scan");
    const ScanSpec& scan = *scene.scan;
    std::size_t which = 0;
    while (which < scene.probes.size() && scene.probes[which].name != scan.probe) ++which;
    if (which == scene.probes.size()) throw InputError(label, "scan.probe", "no probe named '" + scan.probe + "'");
    const ProbeSpec& probe = scene.probes[which];
    if (!probe.receive) throw InputError(label, "scan.probe", "probe '" + probe.name + "' does not receive");

    // The model, masses and boundary once; each shot adds the probes to a copy.
    WaveProblem base = build_wave_problem(scene, std::move(model), label);
    base.sources.resize(base.scene_source_count);
    base.receivers.resize(base.scene_receiver_count);
    base.probes.clear();
    const std::vector<Vec3> centers = scan_shot_centers(scan, probe.center);
    // Every shot's footprint first, so that a scan that would leave the surface fails at once.
    for (std::size_t shot = 0; shot < centers.size(); ++shot) {
        ProbeSpec placed = probe;
        placed.center = centers[shot];
        try {
            (void)probe_footprint(placed, base.grid, label, "probes[" + std::to_string(which) + "]");
        } catch (const InputError& e) {
            const Vec3& c = centers[shot];
            throw InputError(label, "scan",
                             "shot " + std::to_string(shot + 1) + " of " + std::to_string(centers.size()) + " at (" +
                                 format_number(c[0]) + ", " + format_number(c[1]) + ", " + format_number(c[2]) +
                                 ") m: " + e.field() + ": " + e.reason());
        }
    }
    auto shot_problem = [&](std::size_t shot) {
        WaveProblem p = base;
        for (std::size_t i = 0; i < scene.probes.size(); ++i)
            add_probe(p, scene.probes[i], i == which ? centers[shot] : scene.probes[i].center, i, label);
        return p;
    };

    const auto t0 = std::chrono::steady_clock::now();
    Result first;
    ScanRecord rec;
    rec.probe = probe.name;
    rec.type = scan.type;
    rec.positions = scan.positions;
    rec.positions2 = scan.positions2;
    rec.array = probe.is_array();
    rec.elements = std::size_t(probe.element_count());
    rec.gated = scan.gated;
    rec.gate_start = scan.gate_start;
    rec.gate_end = scan.gate_end;
    const std::int64_t total = base.steps * std::int64_t(centers.size());
    for (std::size_t shot = 0; shot < centers.size(); ++shot) {
        const WaveProblem p = shot_problem(shot);
        const std::int64_t done = base.steps * std::int64_t(shot);
        ProgressFn inner;
        if (progress) inner = [&](std::int64_t n, std::int64_t) { return progress(done + n, total); };
        Result r = run_wave(p, inner, shot == 0 ? backend_note : nullptr);
        const auto it = std::find_if(r.probes.begin(), r.probes.end(),
                                     [&](const ProbeRecord& pr) { return pr.name == probe.name; });
        if (it == r.probes.end()) throw RuntimeError("run_probe_scan: the shot recorded no probe '" + probe.name + "'");
        rec.shot_positions.push_back(centers[shot]);
        rec.shot_signals.insert(rec.shot_signals.end(), it->element_signals.begin(), it->element_signals.end());
        if (scan.gated) {
            const std::vector<double> s = it->array
                                              ? delay_and_sum(it->element_signals, r.sample_count(), it->delays, r.dt)
                                              : it->element_signals;
            rec.cscan.push_back(gated_peak(s, r.dt, scan.gate_start, scan.gate_end).amplitude);
        }
        if (on_shot) on_shot(shot, rec, r);
        if (shot == 0) first = std::move(r);
    }
    first.scan = std::move(rec);
    first.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return first;
}

}  // namespace voxwave
