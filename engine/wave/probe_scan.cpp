#include "wave/probe_scan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "probe/delay_law.hpp"
#include "probe/probe_footprint.hpp"
#include "wave/analytic_wavefronts.hpp"
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

namespace {

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

}  // namespace

ScanPlan plan_scan_shots(const Scene& scene, const VoxelGrid& model, const std::string& label) {
    ScanPlan plan;
    plan.probe = scan_probe_index(scene, label);
    const ScanSpec& scan = *scene.scan;
    const ProbeSpec& probe = scene.probes[plan.probe];
    plan.reference_time = wavelet_peak_time(probe.wavelet);
    if (scan.type == "fmc") {
        for (int e = 0; e < probe.element_count(); ++e) plan.shots.push_back({probe.center, e, std::nullopt});
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
            DelayLawSpec law;
            law.type = "custom";
            for (double d : laws[k]) law.delays.push_back(d + plan.pwi_centre_delay - centre[k]);
            plan.shots.push_back({probe.center, -1, law});
        }
        return plan;
    }
    for (const Vec3& c : scan_shot_centers(scan, probe.center)) plan.shots.push_back({c, -1, std::nullopt});
    return plan;
}

void add_scan_shot_probes(WaveProblem& p, const Scene& scene, const ScanPlan& plan, std::size_t shot,
                          const std::string& label) {
    const ScanShot& s = plan.shots.at(shot);
    for (std::size_t i = 0; i < scene.probes.size(); ++i) {
        if (i != plan.probe) {
            add_probe(p, scene.probes[i], scene.probes[i].center, i, label);
            continue;
        }
        ProbeSpec fired = scene.probes[i];
        if (s.law) fired.delay_law = *s.law;
        if (s.transmit_element < 0) {
            add_probe(p, fired, s.center, i, label);
            continue;
        }
        // An FMC shot: the probe listens on every element and element k alone transmits, as
        // two probes on the one face (a receiving one and a one-element transmitting aperture).
        fired.delay_law = DelayLawSpec{};
        ProbeSpec listener = fired, sender = fired;
        listener.transmit = false;
        sender.receive = false;
        sender.active_first = s.transmit_element;
        sender.active_count = 1;
        add_probe(p, sender, s.center, i, label);
        add_probe(p, listener, s.center, i, label);
    }
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

Result run_probe_scan(const Scene& scene, VoxelGrid model, const std::string& label, const ProgressFn& progress,
                      std::string* backend_note) {
    const ScanPlan plan = plan_scan_shots(scene, model, label);
    const ScanSpec& scan = *scene.scan;
    const std::size_t which = plan.probe;
    const ProbeSpec& probe = scene.probes[which];

    // The model, masses and boundary once; each shot adds the probes to a copy.
    WaveProblem base = build_wave_problem(scene, std::move(model), label);
    base.sources.resize(base.scene_source_count);
    base.receivers.resize(base.scene_receiver_count);
    base.probes.clear();
    // Every shot's footprint first, so that a scan that would leave the surface fails at once.
    for (std::size_t shot = 0; shot < plan.shots.size(); ++shot) {
        ProbeSpec placed = probe;
        placed.center = plan.shots[shot].center;
        if (shot > 0 && placed.center == plan.shots[shot - 1].center) continue;
        try {
            (void)probe_footprint(placed, base.grid, label, probe_field(which));
        } catch (const InputError& e) {
            const Vec3& c = placed.center;
            throw InputError(label, "scan",
                             "shot " + std::to_string(shot + 1) + " of " + std::to_string(plan.shots.size()) + " at (" +
                                 format_number(c[0]) + ", " + format_number(c[1]) + ", " + format_number(c[2]) +
                                 ") m: " + e.field() + ": " + e.reason());
        }
    }
    auto shot_problem = [&](std::size_t shot) {
        WaveProblem p = base;
        add_scan_shot_probes(p, scene, plan, shot, label);
        return p;
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
    const std::int64_t total = base.steps * std::int64_t(plan.shots.size());
    for (std::size_t shot = 0; shot < plan.shots.size(); ++shot) {
        const WaveProblem p = shot_problem(shot);
        const std::int64_t done = base.steps * std::int64_t(shot);
        ProgressFn inner;
        if (progress) inner = [&](std::int64_t n, std::int64_t) { return progress(done + n, total); };
        Result r = run_wave(p, inner, shot == 0 ? backend_note : nullptr);
        const auto it = std::find_if(r.probes.begin(), r.probes.end(),
                                     [&](const ProbeRecord& pr) { return pr.name == probe.name; });
        if (it == r.probes.end()) throw RuntimeError("run_probe_scan: the shot recorded no probe '" + probe.name + "'");
        rec.shot_positions.push_back(plan.shots[shot].center);
        rec.shot_signals.insert(rec.shot_signals.end(), it->element_signals.begin(), it->element_signals.end());
        if (scan.gated) {
            const std::vector<double> s = it->array
                                              ? delay_and_sum(it->element_signals, r.sample_count(), it->delays, r.dt)
                                              : it->element_signals;
            rec.cscan.push_back(gated_peak(s, r.dt, scan.gate_start, scan.gate_end).amplitude);
        }
        if (shot == 0) first = std::move(r);
    }
    first.scan = std::move(rec);
    first.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return first;
}

}  // namespace voxwave
