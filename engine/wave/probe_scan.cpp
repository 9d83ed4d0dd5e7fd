#include "wave/probe_scan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "probe/probe_footprint.hpp"
#include "wave/batched_shots.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
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

std::size_t scan_probe_index(const Scene& scene, const std::string& label) {
    if (!scene.scan) throw InputError(label, "scan", "the scene has no scan");
    const ScanSpec& scan = *scene.scan;
    std::size_t which = 0;
    while (which < scene.probes.size() && scene.probes[which].name != scan.probe) ++which;
    if (which == scene.probes.size()) throw InputError(label, "scan.probe", "no probe named '" + scan.probe + "'");
    if (!scene.probes[which].receive)
        throw InputError(label, "scan.probe", "probe '" + scene.probes[which].name + "' does not receive");
    return which;
}

std::vector<ScanShot> scan_shots(const Scene& scene, const std::string& label) {
    const ProbeSpec& probe = scene.probes[scan_probe_index(scene, label)];
    const std::vector<Vec3> centers = scan_shot_centers(*scene.scan, probe.center);
    std::vector<ScanShot> shots;
    for (std::size_t k = 0; k < centers.size(); ++k) {
        ScanShot shot;
        shot.index = k;
        shot.position = centers[k];
        shot.probe = probe;
        shot.probe.center = centers[k];
        const Vec3& c = centers[k];
        shot.label = "shot " + std::to_string(k + 1) + " of " + std::to_string(centers.size()) + " at (" +
                     format_number(c[0]) + ", " + format_number(c[1]) + ", " + format_number(c[2]) + ") m";
        shots.push_back(std::move(shot));
    }
    return shots;
}

Scene shot_scene(const Scene& scene, const ScanShot& shot) {
    Scene s = scene;
    for (ProbeSpec& p : s.probes)
        if (p.name == shot.probe.name) p = shot.probe;
    return s;
}

std::vector<std::size_t> shared_shots(std::size_t shots, const ScanShare& share) {
    std::vector<std::size_t> mine;
    for (std::size_t k = std::size_t(std::max(0, share.rank)); k < shots; k += std::size_t(std::max(1, share.ranks)))
        mine.push_back(k);
    return mine;
}

Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note, const ScanShare& share, std::vector<ScanShotTiming>* timing,
                      std::size_t batch) {
    const std::size_t which = scan_probe_index(scene, label);
    const ScanSpec& scan = *scene.scan;
    const ProbeSpec& probe = scene.probes[which];
    const std::vector<ScanShot> shots = scan_shots(scene, label);
    const std::string probe_field = "probes[" + std::to_string(which) + "]";
    auto shot_error = [&](const ScanShot& shot, const InputError& e) {
        return InputError(label, "scan", shot.label + ": " + e.field() + ": " + e.reason());
    };
    // A wedge's block moves with the probe: the model differs from shot to shot.
    const bool moving_model = probe.wedge.has_value();

    // The model, masses and boundary once; each shot adds the probes to it.
    WaveProblem base = build_wave_problem(scene, moving_model ? model : std::move(model), label);
    base.sources.resize(base.scene_source_count);
    base.receivers.resize(base.scene_receiver_count);
    base.probes.clear();
    // Every shot's placement first, so that a scan that would leave the surface fails at once.
    for (const ScanShot& shot : shots) {
        try {
            if (moving_model)
                validate_scene(shot_scene(scene, shot), label);  // the block inside the grid
            else
                (void)probe_footprint(shot.probe, base.grid, label, probe_field);
        } catch (const InputError& e) {
            throw shot_error(shot, e);
        }
    }
    auto place_probes = [&](WaveProblem& p, const ScanShot& shot) {
        p.sources.resize(p.scene_source_count);
        p.receivers.resize(p.scene_receiver_count);
        p.probes.clear();
        for (std::size_t i = 0; i < scene.probes.size(); ++i)
            add_probe(p, i == which ? shot.probe : scene.probes[i], i == which ? shot.position : scene.probes[i].center,
                      i, label);
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
    auto record_shot = [&](const ScanShot& shot, Result r, double shot_seconds, double loop_seconds) {
        const auto it = std::find_if(r.probes.begin(), r.probes.end(),
                                     [&](const ProbeRecord& pr) { return pr.name == probe.name; });
        if (it == r.probes.end()) throw RuntimeError("run_probe_scan: the shot recorded no probe '" + probe.name + "'");
        rec.shot_signals.insert(rec.shot_signals.end(), it->element_signals.begin(), it->element_signals.end());
        if (scan.gated) {
            const std::vector<double> sig = it->array
                                                ? delay_and_sum(it->element_signals, r.sample_count(), it->delays, r.dt)
                                                : it->element_signals;
            rec.cscan.push_back(gated_peak(sig, r.dt, scan.gate_start, scan.gate_end).amplitude);
        }
        if (timing) timing->push_back({shot.index, shot_seconds, loop_seconds});
        if (shot.index == 0) first = std::move(r);
    };
    for (const ScanShot& shot : shots) rec.shot_positions.push_back(shot.position);
    const std::vector<std::size_t> mine = shared_shots(shots.size(), share);
    if (batch != 1 && !moving_model) {
        // The shots differ only in their sources and receivers: stepped together (batched_shots.hpp).
        std::vector<ShotSources> sources;
        for (std::size_t k : mine) {
            WaveProblem p = base;
            try {
                place_probes(p, shots[k]);
            } catch (const InputError& e) {
                throw shot_error(shots[k], e);
            }
            sources.push_back(shot_sources(p));
        }
        BatchedShotOptions options;
        options.batch = batch;
        options.cuda_device = share.cuda_device;
        const auto batch_t0 = std::chrono::steady_clock::now();
        std::vector<Result> results = run_batched_shots(base, sources, options, progress, backend_note);
        const double each = std::chrono::duration<double>(std::chrono::steady_clock::now() - batch_t0).count() /
                            double(std::max<std::size_t>(1, mine.size()));
        for (std::size_t i = 0; i < mine.size(); ++i) {
            const double loop = results[i].wall_seconds - results[i].setup_seconds;
            record_shot(shots[mine[i]], std::move(results[i]), each, loop);
        }
    }
    const std::int64_t total = base.steps * std::int64_t(mine.size());
    ShotRunner runner(base, share.cuda_device);
    for (std::size_t i = 0; (batch == 1 || moving_model) && i < mine.size(); ++i) {
        const ScanShot& shot = shots[mine[i]];
        const auto shot_t0 = std::chrono::steady_clock::now();
        const std::int64_t done = base.steps * std::int64_t(i);
        ProgressFn inner;
        if (progress) inner = [&](std::int64_t n, std::int64_t) { return progress(done + n, total); };
        std::string* note = i == 0 ? backend_note : nullptr;
        Result r;
        if (moving_model) {
            const Scene s = shot_scene(scene, shot);
            try {
                SlabHooks hooks;
                hooks.cuda_device = share.cuda_device;
                r = run_wave(build_wave_problem(s, shot.index == 0 ? model : rasterise(s), label), inner, note, hooks);
            } catch (const InputError& e) {
                throw shot_error(shot, e);
            }
        } else {
            try {
                place_probes(base, shot);  // e.g. a law the material under this shot cannot steer
            } catch (const InputError& e) {
                throw shot_error(shot, e);
            }
            r = runner.run(inner, note);
        }
        const double loop = moving_model ? r.wall_seconds - r.setup_seconds : runner.last_loop_seconds();
        record_shot(shot, std::move(r), std::chrono::duration<double>(std::chrono::steady_clock::now() - shot_t0).count(),
                    loop);
    }
    first.scan = std::move(rec);
    first.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return first;
}

}  // namespace voxwave
