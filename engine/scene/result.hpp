// Result files (*.h5, format "voxwave-result", version 1; docs/architecture.md#files-and-cli).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scene/snapshots.hpp"

namespace voxwave {

namespace h5 {
class File;
}

// What a receiving probe recorded (engine/probe): per element the mean particle velocity along
// the probe's normal (or polarization) over the element's face, m/s, sampled at Result::time.
struct ProbeRecord {
    std::string name;
    bool array = false;                      // /probes/<name>/elements (N x nt) when true, /signal (nt) otherwise
    std::vector<double> delays;              // N: the transmit law's delays, s
    std::vector<double> element_signals;     // N x nt, row-major (elements outside the active aperture stay 0)
    int active_first = 0, active_count = 0;  // the sub-aperture [first, first + count)
    std::size_t element_count() const { return delays.size(); }
    bool operator==(const ProbeRecord&) const = default;
};

// A scan's shots (engine/wave/probe_scan.hpp): the probe's position and received signals per shot,
// and with a gate the C-scan of gated peak amplitudes.
struct ScanRecord {
    std::string probe, type;
    int positions = 1, positions2 = 1;  // shots = positions x positions2, positions fastest
    bool array = false;
    std::size_t elements = 1;
    std::vector<std::array<double, 3>> shot_positions;  // the probe's centre per shot, metres
    std::vector<double> shot_signals;                   // shots x elements x nt, row-major
    bool gated = false;
    double gate_start = 0, gate_end = 0;
    std::vector<double> cscan;  // positions2 x positions (gated only)
    bool operator==(const ScanRecord&) const = default;
};

struct Result {
    // The scene the run came from, as its window or command line named it (a file name); empty
    // when unknown (files written before it existed).
    std::string scene;
    std::string method, precision, backend;
    int stages = 0;
    double spacing = 0, dt = 0;
    std::int64_t steps = 0;
    double wall_seconds = 0;  // the whole run: setup and time loop
    // Of which building and releasing the engine (device, tables, uploads, frees); 0 if not measured
    // (a scan: all but its shots' time loops).
    double setup_seconds = 0;
    // Displacement components: 3, or 2 for a plane-strain (2D) run (x, y); the file's datasets
    // then have 2 in their last dimension, positions included.
    int components = 3;
    std::vector<std::string> receiver_names;
    std::vector<std::array<double, 3>> receiver_positions;  // snapped node positions (z = 0 in 2D)
    std::vector<double> time;                               // nt
    std::vector<double> displacement;                       // n x nt x components, row-major
    std::vector<double> velocity;                           // n x nt x components, row-major
    SnapshotSeries snapshots;         // run.snapshots (empty without): /snapshots and the XDMF file beside
    std::vector<ProbeRecord> probes;  // receiving probes, in the scene's order
    std::optional<ScanRecord> scan;

    std::size_t receiver_count() const { return receiver_names.size(); }
    std::size_t sample_count() const { return time.size(); }
    double& u(std::size_t r, std::size_t t, int c) {
        return displacement[(r * time.size() + t) * std::size_t(components) + std::size_t(c)];
    }
    double u(std::size_t r, std::size_t t, int c) const {
        return displacement[(r * time.size() + t) * std::size_t(components) + std::size_t(c)];
    }
    bool operator==(const Result&) const = default;
};

// Atomic: writes PATH.tmp-XXXX beside PATH then renames. Unwritable location -> InputError(path, "", reason),
// and no file is left behind. With snapshots it also writes /snapshots and, atomically after the
// HDF5 file, the XDMF file snapshots_xdmf_path(PATH) that reads them.
// `more` writes further groups into the same file inside the atomic write (an FMC or PWI scan's
// /fmc or /pwi group: wave/array_acquisition.hpp, write_array_acquisition_group).
void write_result_h5(const std::string& path, const Result& r, const std::function<void(h5::File&)>& more = {});
// Throws InputError(path, field, reason) for missing/truncated/foreign files or datasets. Leaves
// `snapshots` empty: read_snapshot (scene/snapshots.hpp) reads one at a time.
Result read_result_h5(const std::string& path);

}  // namespace voxwave
