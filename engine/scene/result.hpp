// Result files (*.h5, format "voxwave-result", version 1; docs/architecture.md#files-and-cli).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "scene/snapshots.hpp"

namespace voxwave {

struct Result {
    // The scene the run came from, as its window or command line named it (a file name); empty
    // when unknown (files written before it existed).
    std::string scene;
    std::string method, precision, backend;
    int stages = 0;
    double spacing = 0, dt = 0;
    std::int64_t steps = 0;
    double wall_seconds = 0;   // the whole run: setup and time loop
    double setup_seconds = 0;  // of which building the engine (device, tables, uploads); 0 if not measured
    // Displacement components: 3, or 2 for a plane-strain (2D) run (x, y); the file's datasets
    // then have 2 in their last dimension, positions included.
    int components = 3;
    std::vector<std::string> receiver_names;
    std::vector<std::array<double, 3>> receiver_positions;  // snapped node positions (z = 0 in 2D)
    std::vector<double> time;                               // nt
    std::vector<double> displacement;                       // n x nt x components, row-major
    std::vector<double> velocity;                           // n x nt x components, row-major
    SnapshotSeries snapshots;  // run.snapshots (empty without): /snapshots and the XDMF file beside

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
void write_result_h5(const std::string& path, const Result& r);
// Throws InputError(path, field, reason) for missing/truncated/foreign files or datasets. Leaves
// `snapshots` empty: read_snapshot (scene/snapshots.hpp) reads one at a time.
Result read_result_h5(const std::string& path);

}  // namespace voxwave
