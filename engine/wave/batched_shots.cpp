#include "wave/batched_shots.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unordered_map>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "wave/probe_recording.hpp"
#include "wave/wave_run.hpp"

namespace voxwave {

ShotSources shot_sources(const WaveProblem& p) { return {p.sources, p.receivers, p.probes, p.scene_receiver_count}; }

RecordingRows shot_recording_rows(const ShotSources& shot) {
    return recording_rows(shot.receivers.size(), shot.probes, shot.scene_receiver_count);
}

GroupSourceNodes group_source_nodes(const std::vector<const ShotSources*>& group, std::size_t member_values) {
    // The group's sources by (member, node) in the order of their first source, each entry's
    // sources in increasing q.
    std::vector<std::vector<long long>> by_entry;
    GroupSourceNodes out;
    long long q = 0;
    for (std::size_t m = 0; m < group.size(); ++m) {
        std::unordered_map<std::size_t, std::size_t> entry_of;  // node -> entry, this member's
        for (const SourceTerm& s : group[m]->sources) {
            const auto [it, added] = entry_of.try_emplace(s.node, by_entry.size());
            if (added) {
                out.node.push_back(static_cast<long long>(m * member_values + s.node));
                by_entry.emplace_back();
            }
            by_entry[it->second].push_back(q++);
        }
    }
    out.first.push_back(0);
    for (const std::vector<long long>& terms : by_entry) {
        out.term.insert(out.term.end(), terms.begin(), terms.end());
        out.first.push_back(static_cast<long long>(out.term.size()));
    }
    return out;
}

std::string batched_shots_unsupported(const WaveProblem& p, Backend backend) {
    if (p.dimensions == 2) return "a plane-strain (2D) scene";
    if (p.method == Method::Sem) return "method sem";
    if (p.method == Method::Tcovfem && backend == Backend::Cuda) return "method tcovfem on CUDA";
    if (p.boundary.has_pml()) return "a PML";
    if (!p.snapshot_nodes.empty()) return "run.snapshots";
    return {};
}

std::size_t batched_member_bytes(const WaveProblem& p) {
    const std::size_t real = p.precision == Precision::Fp64 ? 8 : 4;
    return 9 * p.node_count() * real;
}

std::size_t default_shot_batch(const WaveProblem& p, Backend backend, std::size_t shots) {
    // On the CPU the single engine's fused sweep never writes f, the batched step does: one at a time.
    if (backend != Backend::Cuda) return 1;
    const auto devices = cuda_devices();
    if (devices.empty()) return 1;
    // The model's shared tables (ids, dt^2/m, sponge factors) and 256 MiB for the runtime.
    const double shared = double(p.grid.element_count()) + 3.0 * double(p.node_count()) * 8.0 + double(256 << 20);
    const double available = devices.front().memory_gib * double(1ull << 30) - shared;
    const double member = double(std::max<std::size_t>(1, batched_member_bytes(p)));
    const std::size_t fit = available > member ? std::size_t(available / member) : 1;
    return std::max<std::size_t>(1, std::min({fit, kMaxShotBatch, std::max<std::size_t>(1, shots)}));
}

namespace {

// The Result run_wave gives for the model with this shot's sources and receivers: the kept
// receivers' traces are the first rows', the probes' signals the elements' rows' velocity.
Result shot_result(const WaveProblem& model, const ShotSources& shot, ShotTraces traces, const std::string& backend) {
    Result r;
    r.method = to_string(model.method);
    r.precision = to_string(model.precision);
    r.backend = backend;
    r.stages = model.stages;
    r.spacing = model.grid.spacing;
    r.dt = model.dt;
    r.steps = model.steps;
    const RecordingRows rows = shot_recording_rows(shot);
    for (std::size_t i = 0; i < rows.kept_receivers; ++i) {
        r.receiver_names.push_back(shot.receivers[i].name);
        r.receiver_positions.push_back(shot.receivers[i].snapped);
    }
    const std::size_t nt = std::size_t(model.steps), kept = rows.kept_receivers * nt * 3;
    if (traces.displacement.size() != rows.size() * nt * 3 || traces.velocity.size() != rows.size() * nt * 3)
        throw RuntimeError("run_batched_shots: a member recorded " + std::to_string(traces.velocity.size()) +
                           " values, not " + std::to_string(rows.size()) + " rows of " + std::to_string(nt) +
                           " samples");
    r.time.resize(nt);
    for (std::size_t t = 0; t < r.time.size(); ++t) r.time[t] = double(t) * model.dt;
    r.probes = probe_records(shot.probes, traces.velocity.data() + kept, nt);
    traces.displacement.resize(kept);
    traces.velocity.resize(kept);
    r.displacement = std::move(traces.displacement);
    r.velocity = std::move(traces.velocity);
    return r;
}

}  // namespace

std::vector<Result> run_batched_shots(const WaveProblem& model, const std::vector<ShotSources>& shots,
                                      const BatchedShotOptions& options, const ProgressFn& progress,
                                      std::string* note) {
    assert_run_rules(model);
    std::string backend_note;
    const Backend b = resolve_backend(model.backend, backend_note);
    const std::int64_t total = model.steps * std::int64_t(shots.size());
    std::vector<Result> results;
    results.reserve(shots.size());
    const std::string unsupported = batched_shots_unsupported(model, b);
    const std::size_t batch = options.batch ? options.batch : default_shot_batch(model, b, shots.size());
    if (!unsupported.empty() || batch == 1) {
        // One shot at a time, each a whole run_wave.
        for (std::size_t s = 0; s < shots.size(); ++s) {
            WaveProblem p = model;
            p.sources = shots[s].sources;
            p.receivers = shots[s].receivers;
            p.probes = shots[s].probes;
            p.scene_receiver_count = shots[s].scene_receiver_count;
            const std::int64_t done = model.steps * std::int64_t(s);
            ProgressFn inner;
            if (progress) inner = [&](std::int64_t n, std::int64_t) { return progress(done + n, total); };
            results.push_back(run_wave(p, inner, s == 0 ? &backend_note : nullptr));
        }
        if (note) {
            std::string why = " (batch 1)";
            if (!unsupported.empty())
                why = ": " + unsupported + " is not batched";
            else if (!options.batch && b != Backend::Cuda)
                why = ": the CPU engine's single-run sweep is faster than its batched step";
            *note = backend_note + "; shots one at a time" + why;
        }
        return results;
    }
    std::string device;
    double loops = 0, setup = 0, steps = 0, sources = 0, rows_s = 0;
    std::size_t rows = 0, receivers = 0;
    for (std::size_t s0 = 0; s0 < shots.size(); s0 += batch) {
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<const ShotSources*> group;
        for (std::size_t s = s0; s < std::min(shots.size(), s0 + batch); ++s) group.push_back(&shots[s]);
        const std::int64_t done = model.steps * std::int64_t(s0), members = std::int64_t(group.size());
        const std::int64_t every = std::max<std::int64_t>(1, model.steps / 200);
        StepProgress inner;
        if (progress)
            inner = [&](std::int64_t n) {
                return (n % every != 0 && n != model.steps) || progress(done + n * members, total);
            };
        ShotGroupRecording recording = b == Backend::Cuda
                                           ? run_shot_group_cuda(model, group, inner, options.cuda_device, &device)
                                           : run_shot_group_cpu(model, group, inner);
        const std::size_t first = results.size();
        for (std::size_t m = 0; m < group.size(); ++m) {
            results.push_back(shot_result(model, *group[m], std::move(recording.members[m]), to_string(b)));
            rows += shot_recording_rows(*group[m]).size();
            receivers += group[m]->receivers.size();
        }
        // Each member's share of the group's time, of which all but the time loop is set-up.
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        loops += recording.loop_seconds;
        steps += recording.step_kernel_seconds;
        sources += recording.source_seconds;
        rows_s += recording.row_seconds;
        setup += seconds - recording.loop_seconds;
        for (std::size_t m = first; m < results.size(); ++m) {
            results[m].wall_seconds = seconds / double(group.size());
            results[m].setup_seconds = std::max(0.0, seconds - recording.loop_seconds) / double(group.size());
        }
    }
    if (note) {
        // On CUDA, where the loop's time goes (device time by events): the members' step kernels,
        // the sources' and the rows' launches, and the rest (copies, launch gaps, host waits).
        char split[200] = "";
        if (b == Backend::Cuda)
            std::snprintf(split, sizeof split,
                          ": step kernels %.3f s, sources %.3f s, recording rows %.3f s, copies and waits %.3f s",
                          steps, sources, rows_s, std::max(0.0, loops - steps - sources - rows_s));
        char times[400];
        std::snprintf(times, sizeof times,
                      " (time loops %.3f s%s; groups' set-up %.3f s; %zu receivers recorded as %zu rows)", loops, split,
                      setup, receivers, rows);
        *note = backend_note + "; " + std::to_string(shots.size()) + " shots stepped in groups of " +
                std::to_string(std::min(batch, shots.size())) + times;
    }
    return results;
}

}  // namespace voxwave
