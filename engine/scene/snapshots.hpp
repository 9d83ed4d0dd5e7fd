// Wavefield snapshots (run.snapshots; docs/architecture.md#wavefield-snapshots): which nodes and
// steps a scene asks for, the snapshots a run took, and their files: the result file's
// /snapshots group, the XDMF file beside it (ParaView and VisIt open the time series directly)
// and one snapshot as VTKHDF ImageData (what VTK's vtkHDFReader reads), all written with HDF5.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/voxel_grid.hpp"
#include "scene/scene.hpp"

namespace voxwave {

// The nodes a snapshot holds: `count` nodes per axis from node `first`, every `stride`-th one.
struct SnapshotGrid {
    std::array<int, 3> first{0, 0, 0};
    std::array<int, 3> count{0, 0, 0};
    int stride = 1;
    Vec3 origin{0, 0, 0};  // position of node `first` (metres)
    double spacing = 0;    // between sampled nodes: ds * stride (metres)
    std::size_t point_count() const { return std::size_t(count[0]) * count[1] * count[2]; }
    bool operator==(const SnapshotGrid&) const = default;
};

// The snapshots of one run. Values of snapshot s are [((k * ny + j) * nx + i) * 3 + c] (x
// fastest, components interleaved), i.e. the HDF5 dataset (nz, ny, nx, 3).
struct SnapshotSeries {
    SnapshotGrid grid;
    std::vector<std::int64_t> steps;  // step n of each snapshot (t = n dt)
    std::vector<double> time;         // seconds
    std::vector<std::string> fields;  // "u" and/or "v", in that order
    std::vector<std::vector<double>> u, v;
    bool empty() const { return steps.empty(); }
    bool has(const std::string& field) const;
    bool operator==(const SnapshotSeries&) const = default;
};

inline constexpr const char* kSnapshotFields[] = {"u", "v"};
// A run refuses snapshots that would hold more than this in memory (they are written with the
// result at its end).
inline constexpr double kSnapshotMaxBytes = 8.0 * (1ull << 30);

// The checks of run.snapshots that need only the scene: exactly one of every (>= 1) and times
// (non-empty, finite, >= 0, ascending), fields among u and v without repeats, stride >= 1, a
// region with min < max inside the grid box that holds a node on every axis. Throws
// InputError(file, "run.snapshots.FIELD", reason).
void validate_snapshot_spec(const SnapshotSpec& spec, const GridSpec& grid, const std::string& file);

// The sampled nodes of `spec` on the model grid `model` (elements n, spacing, origin).
SnapshotGrid snapshot_grid(const SnapshotSpec& spec, const VoxelGrid& model);
// Node indices of the model, in the order of a snapshot's values.
std::vector<std::size_t> snapshot_nodes(const SnapshotGrid& grid, const VoxelGrid& model);

// The steps of the snapshots for a run of `steps` steps of dt: every: n = every, 2 every, ... <
// steps; times: n = round(t / dt), each < steps and all different. Also refuses a series above
// kSnapshotMaxBytes. Throws InputError(file, "run.snapshots.FIELD", reason).
std::vector<std::int64_t> snapshot_steps(const SnapshotSpec& spec, const SnapshotGrid& grid, double dt,
                                         std::int64_t steps, const std::string& file);

// An empty series (grid, steps, times, fields) ready for a run to fill.
SnapshotSeries plan_snapshots(const SnapshotSpec& spec, const VoxelGrid& model, double dt, std::int64_t steps,
                              const std::string& file);

// The XDMF file beside a result file: F.h5 -> F.xmf (any other name: NAME.xmf).
std::string snapshots_xdmf_path(const std::string& result_path);
// The XDMF 3 text of a series stored in the HDF5 file `h5_name` (written as given: the file name
// alone keeps the pair movable): a temporal collection of uniform 3DCoRectMesh grids, one per
// snapshot, with one node-centred vector attribute per field.
std::string snapshots_xdmf_text(const SnapshotSeries& series, const std::string& h5_name);

// One snapshot read back from a result file.
struct SnapshotFrame {
    SnapshotGrid grid;
    std::string field;
    std::int64_t step = 0;
    double time = 0;
    std::vector<double> values;  // as SnapshotSeries
};
// How many snapshots a result file holds (0 when it has none).
std::size_t snapshot_count(const std::string& result_path);
// Throws InputError(path, field, reason) for a file without snapshots, an unknown field or an
// index out of range.
SnapshotFrame read_snapshot(const std::string& result_path, const std::string& field, std::size_t index);

// One snapshot as VTKHDF ImageData (VTK 9.1's vtkHDFReader): group /VTKHDF with attributes
// Version (1, 0), Type "ImageData", WholeExtent (0, nx-1, 0, ny-1, 0, nz-1), Origin, Spacing,
// Direction (identity) and /VTKHDF/PointData/FIELD (nz, ny, nx, 3). Atomic.
void write_snapshot_vtkhdf(const std::string& path, const SnapshotFrame& frame);

}  // namespace voxwave
