#include "wave/probe_scan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/cuda_context.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "probe/delay_law.hpp"
#include "probe/probe_footprint.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "wave/analytic_wavefronts.hpp"
#include "wave/batched_shots.hpp"
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

namespace {

std::string probe_field(std::size_t index) { return "probes[" + std::to_string(index) + "]"; }

// The speed of a PWI's steering law: the probe law's own velocity, else the material's under it.
double plane_wave_velocity(const ProbeSpec& probe, const ProbeFootprint& face, const std::vector<Material>& materials,
                           const std::string& label, std::size_t index) {
    const double c = probe.delay_law.velocity ? *probe.delay_law.velocity : probe_law_velocity(probe, face, materials);
    if (!(c > 0))
        throw InputError(label, probe_field(index) + ".delay_law.velocity",
                         "probe '" + probe.name + "': the material under it has no wave speed for a pwi scan");
    return c;
}

// Shot k of n: the probe at `center`, fired as `probe` says.
ScanShot make_shot(std::size_t k, std::size_t n, const ProbeSpec& probe, const Vec3& center, int transmit_element) {
    ScanShot shot;
    shot.index = k;
    shot.position = center;
    shot.probe = probe;
    shot.probe.center = center;
    shot.transmit_element = transmit_element;
    shot.label = "shot " + std::to_string(k + 1) + " of " + std::to_string(n) + " at (" + format_number(center[0]) +
                 ", " + format_number(center[1]) + ", " + format_number(center[2]) + ") m";
    return shot;
}

// The scan probe as an FMC shot fires it: a one-element transmitting aperture and a receive-only
// copy of the array on the one face (sender first, listener second).
std::pair<ProbeSpec, ProbeSpec> fmc_sender_and_listener(const ScanShot& shot) {
    ProbeSpec fired = shot.probe;
    fired.delay_law = DelayLawSpec{};
    ProbeSpec listener = fired, sender = fired;
    listener.transmit = false;
    sender.receive = false;
    sender.active_first = shot.transmit_element;
    sender.active_count = 1;
    return {sender, listener};
}

}  // namespace

ScanPlan plan_scan_shots(const Scene& scene, const VoxelGrid& model, const std::string& label) {
    ScanPlan plan;
    plan.probe = scan_probe_index(scene, label);
    const ScanSpec& scan = *scene.scan;
    const ProbeSpec& probe = scene.probes[plan.probe];
    plan.reference_time = wavelet_peak_time(probe.wavelet);
    if (scan.type == "fmc") {
        const auto n = std::size_t(probe.element_count());
        for (std::size_t e = 0; e < n; ++e) plan.shots.push_back(make_shot(e, n, probe, probe.center, int(e)));
        return plan;
    }
    if (scan.type == "pwi") {
        const ProbeFootprint face = probe_footprint(probe, model, label, probe_field(plan.probe));
        const double c = plane_wave_velocity(probe, face, scene.materials, label, plan.probe);
        // Every angle's front crosses the centre pwi_centre_delay after the earliest element
        // could fire, so one time axis and one reference time serve all shots and the steered
        // law keeps every delay >= 0.
        std::vector<std::vector<double>> laws;
        std::vector<double> centre;
        for (double angle : scan.angles) {
            DelayLawSpec steer;
            steer.type = "steer";
            steer.angle = angle;
            laws.push_back(delay_law_delays(steer, face.offsets, c));
            // The elements' offsets are symmetric about the centre and the steered law is linear
            // in them, so its mean is its time at the centre.
            double mean = 0;
            for (double d : laws.back()) mean += d;
            centre.push_back(mean / double(laws.back().size()));
        }
        plan.pwi_centre_delay = *std::max_element(centre.begin(), centre.end());
        plan.reference_time += plan.pwi_centre_delay;
        for (std::size_t k = 0; k < laws.size(); ++k) {
            ProbeSpec fired = probe;
            fired.delay_law = DelayLawSpec{};
            fired.delay_law.type = "custom";
            for (double d : laws[k]) fired.delay_law.delays.push_back(d + plan.pwi_centre_delay - centre[k]);
            plan.shots.push_back(make_shot(k, laws.size(), fired, probe.center, -1));
        }
        return plan;
    }
    const std::vector<Vec3> centers = scan_shot_centers(scan, probe.center);
    for (std::size_t k = 0; k < centers.size(); ++k)
        plan.shots.push_back(make_shot(k, centers.size(), probe, centers[k], -1));
    return plan;
}

std::vector<ScanShot> scan_shots(const Scene& scene, const std::string& label) {
    // Only a PWI's laws read the model (the footprint's offsets, the material under the probe).
    const bool needs_model = scene.scan && scene.scan->type == "pwi";
    return plan_scan_shots(scene, needs_model ? rasterise(scene) : VoxelGrid{}, label).shots;
}

void add_scan_shot_probes(WaveProblem& p, const Scene& scene, std::size_t scan_probe, const ScanShot& shot,
                          const std::string& label) {
    for (std::size_t i = 0; i < scene.probes.size(); ++i) {
        if (i != scan_probe) {
            add_probe(p, scene.probes[i], scene.probes[i].center, i, label);
        } else if (shot.transmit_element < 0) {
            add_probe(p, shot.probe, shot.position, i, label);
        } else {
            const auto [sender, listener] = fmc_sender_and_listener(shot);
            add_probe(p, sender, shot.position, i, label);
            add_probe(p, listener, shot.position, i, label);
        }
    }
}

Scene shot_scene(const Scene& scene, const ScanShot& shot) {
    Scene s = scene;
    for (std::size_t i = 0; i < s.probes.size(); ++i) {
        if (s.probes[i].name != shot.probe.name) continue;
        if (shot.transmit_element < 0) {
            s.probes[i] = shot.probe;
        } else {
            const auto [sender, listener] = fmc_sender_and_listener(shot);
            s.probes[i] = sender;
            s.probes.insert(s.probes.begin() + std::ptrdiff_t(i) + 1, listener);
        }
        break;
    }
    return s;
}

ArrayAcquisition scan_array_acquisition(const Scene& scene, const VoxelGrid& model, const Result& result,
                                        const std::string& label) {
    if (!scene.scan || !scene.scan->array_acquisition() || !result.scan)
        throw RuntimeError("scan_array_acquisition: not the result of an fmc or pwi scan");
    const ScanPlan plan = plan_scan_shots(scene, model, label);
    const ProbeSpec& probe = scene.probes[plan.probe];
    const ProbeFootprint face = probe_footprint(probe, model, label, probe_field(plan.probe));
    const ScanRecord& rec = *result.scan;
    ArrayAcquisition a;
    a.type = scene.scan->type == "pwi" ? AcquisitionType::Pwi : AcquisitionType::Fmc;
    a.n_tx = plan.shots.size();
    a.n_rx = std::size_t(probe.element_count());
    a.data = rec.shot_signals;
    a.time = result.time;
    for (double x : face.offsets)
        a.element_positions.push_back(
            {face.center[0] + x * face.axis[0], face.center[1] + x * face.axis[1], face.center[2] + x * face.axis[2]});
    a.angles = scene.scan->angles;
    a.pitch = probe.pitch;
    a.normal = {face.normal[0], face.normal[1], face.normal[2]};
    a.array_axis = {face.axis[0], face.axis[1], face.axis[2]};
    a.reference_time = plan.reference_time;
    if (face.specimen != kVoidId) {
        const Material& m = scene.materials[std::size_t(face.specimen) - 1];
        a.vp = m.vp;
        a.vs = m.vs;
    }
    a.frequency = wavelet_centre_frequency(probe.wavelet);
    if (rec.shot_signals.size() != a.n_tx * a.n_rx * a.time.size())
        throw RuntimeError("scan_array_acquisition: the result holds " + std::to_string(rec.shot_signals.size()) +
                           " values, not " + std::to_string(a.n_tx) + " shots x " + std::to_string(a.n_rx) +
                           " elements x " + std::to_string(a.time.size()) + " samples");
    return a;
}

std::vector<std::size_t> shared_shots(std::size_t shots, const ScanShare& share) {
    std::vector<std::size_t> mine;
    for (std::size_t k = std::size_t(std::max(0, share.rank)); k < shots; k += std::size_t(std::max(1, share.ranks)))
        mine.push_back(k);
    return mine;
}

Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note, const ScanShare& share, std::vector<ScanShotTiming>* timing,
                      std::size_t batch, const ScanShotFn& on_shot) {
    const ScanPlan plan = plan_scan_shots(scene, model, label);
    const std::size_t which = plan.probe;
    const ScanSpec& scan = *scene.scan;
    const ProbeSpec& probe = scene.probes[which];
    const std::vector<ScanShot>& shots = plan.shots;
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
    // An acquisition's time axis needs 2 samples at least (imaging interpolates between them).
    if (scan.array_acquisition() && base.steps < 2)
        throw InputError(label, scene.run.steps > 0 ? "run.steps" : "run.duration",
                         "the " + scan.type + " scan's signals are imaged: it needs at least 2 time steps, not " +
                             std::to_string(base.steps));
    // Every shot's placement first, so that a scan that would leave the surface fails at once.
    for (const ScanShot& shot : shots) {
        try {
            if (moving_model)
                validate_scene(shot_scene(scene, shot), label);  // the block inside the grid
            else
                (void)probe_footprint(shot.probe, base.grid, label, probe_field(which));
        } catch (const InputError& e) {
            throw shot_error(shot, e);
        }
    }
    auto place_probes = [&](WaveProblem& p, const ScanShot& shot) {
        p.sources.resize(p.scene_source_count);
        p.receivers.resize(p.scene_receiver_count);
        p.probes.clear();
        add_scan_shot_probes(p, scene, which, shot, label);
    };

    const auto t0 = std::chrono::steady_clock::now();
    Result first;
    ScanRecord rec;
    rec.probe = probe.name;
    rec.type = scan.type;
    // An FMC's or PWI's shots stand in one place: one line of shots.
    rec.positions = scan.array_acquisition() ? int(plan.shots.size()) : scan.positions;
    rec.positions2 = scan.positions2;
    rec.array = probe.is_array();
    rec.elements = std::size_t(probe.element_count());
    rec.gated = scan.gated;
    rec.gate_start = scan.gate_start;
    rec.gate_end = scan.gate_end;
    double loops = 0;  // this process's shots' time loops, s
    auto record_shot = [&](const ScanShot& shot, Result r, double shot_seconds, double loop_seconds) {
        loops += loop_seconds;
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
        if (on_shot) on_shot(shot.index, rec, r);
        if (shot.index == 0) first = std::move(r);
    };
    for (const ScanShot& shot : shots) rec.shot_positions.push_back(shot.position);
    const std::vector<std::size_t> mine = shared_shots(shots.size(), share);
    if (batch != 1 && !moving_model) {
        // The shots differ only in their sources and receivers: stepped together (batched_shots.hpp).
        // Each shot's probes are placed on the base problem itself and taken out of it (a copy of
        // the whole model a shot would cost more than the placing).
        std::vector<ShotSources> sources;
        for (std::size_t k : mine) {
            try {
                place_probes(base, shots[k]);
            } catch (const InputError& e) {
                throw shot_error(shots[k], e);
            }
            sources.push_back(shot_sources(base));
        }
        base.sources.resize(base.scene_source_count);
        base.receivers.resize(base.scene_receiver_count);
        base.probes.clear();
        BatchedShotOptions options;
        options.batch = batch;
        options.cuda_device = share.cuda_device;
        // The device's context before the groups, whose whole run counts as the shots' loops: it
        // is start-up, which does not divide among ranks (ShotRunner counts its stepper's build,
        // the context's included, as set-up).
        std::string why;
        if (resolve_backend(base.backend, why) == Backend::Cuda)
            cuda_start_context(cuda_device_for_run(share.cuda_device).index);
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
        record_shot(shot, std::move(r),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - shot_t0).count(), loop);
    }
    first.scan = std::move(rec);
    first.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // A scan's set-up is all but its shots' time loops (building and restarting the steppers,
    // uploads, placing the probes), so that wall_seconds - setup_seconds is the loops alone.
    first.setup_seconds = std::max(0.0, first.wall_seconds - loops);
    return first;
}

}  // namespace voxwave
