// Scene files (*.json, format "voxwave-scene", version 1) and painted-voxel HDF5 files.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/voxel_grid.hpp"
#include "scene/scene.hpp"

namespace voxwave {

// A change made to a parsed scene before its validation (command-line overrides), so that the
// changed scene is checked once, by the same rules as the file.
using SceneChange = std::function<void(Scene&)>;

// Reads and fully validates a scene: unknown keys, wrong types, bad materials, unknown
// material names, shapes with non-positive sizes, zero directions, sources/receivers outside
// the grid box, bad wavelets, bad run settings... all throw InputError(path, field, reason)
// with FIELD like "sources[0].wavelet.f_high". Sample wavelets are loaded here. `change`, when
// given, is applied after parsing and before the one validate_scene.
Scene read_scene_json(const std::string& path, const SceneChange& change = {});
Scene parse_scene_json(const std::string& text, const std::string& file_label, const std::string& base_dir,
                       const SceneChange& change = {});
// A probe library (assets/probes/*.json, format "voxwave-probes", version 1): {"probes": [...]},
// each entry a scene probe whose "center" may be left out (the user places it). Parsed by the
// scene's probe reader (unknown keys, wrong types: InputError(path, "probes[i].key", reason));
// the value rules are validate_scene's, once the probe is in a scene.
std::vector<ProbeSpec> read_probe_library(const std::string& path);

// Writes atomically (temporary file + rename). Throws InputError(path, "", reason) if the
// location is not writable; the previous file, if any, is untouched on failure. The scene is
// validated first (validate_scene) so that every written file reads back. Every field is
// written, defaults included; paths (voxels, sample files) are written as stored, i.e.
// relative to the directory the scene was read from.
void write_scene_json(const std::string& path, const Scene& scene);
std::string scene_to_json_text(const Scene& scene);

// The value checks of read_scene_json that need no parsing and no file access, for a scene
// built in code or changed by command-line overrides: positive sizes, valid materials (at most
// 255, unique names), known material names, shape geometry, sources/receivers/fixed points
// inside the grid box [origin, origin + size] (tolerance 1e-9 max(size)), wavelet parameters,
// sample wavelets loaded, unique receiver names, boundary faces, damping and the run rules of
// scene/run_rules.hpp (spacing, TCOVFEM stages, precision per method). Throws
// InputError(file_label, field, reason).
void validate_scene(const Scene& scene, const std::string& file_label);

// Painted voxels: dataset of uint8 shaped (nz, ny, nx) (x fastest, so h5py shows [k, j, i]),
// with attributes "spacing" (double) and "origin" (3 doubles). Value 0 = void, v = scene
// material v-1. Reading validates shape and type; a truncated or foreign file throws InputError.
// The reader also takes any integer type whose values lie in 0..255 (numpy's default int64) and
// a missing "origin" (taken as 0); the writer is atomic.
VoxelGrid read_voxels_h5(const std::string& path, const std::string& dataset);
void write_voxels_h5(const std::string& path, const std::string& dataset, const VoxelGrid& grid);

}  // namespace voxwave
