// The C++ objects behind the module's Python classes, shared by the files that bind them.
#pragma once

#include <memory>
#include <string>

#include "model/voxel_grid.hpp"
#include "scene/result.hpp"
#include "scene/scene.hpp"
#include "wave/array_acquisition.hpp"
#include "wave/dispersion.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::python {

// voxwave.Scene: a validated scene and the name its errors carry (the file it was read from, or
// the name given to a scene built in Python).
struct SceneObject {
    Scene scene;
    std::string label;
};

// voxwave.VoxelModel: a voxelised model. Shared: a Problem's model is a view of the problem's grid.
struct VoxelModelObject {
    std::shared_ptr<const VoxelGrid> grid;
};

// voxwave.Problem: what a run needs, built once from a scene (voxels, masses, dt, nodes).
struct ProblemObject {
    std::shared_ptr<const WaveProblem> problem;
    std::string label;
};

// voxwave.Acquisition: an FMC's or PWI's element signals and the array's frame (/fmc or /pwi).
struct AcquisitionObject {
    std::shared_ptr<const ArrayAcquisition> acquisition;
};

// voxwave.Result: a run's or a result file's traces; `note` says which backend ran and why.
// `acquisition`: an fmc or pwi scan's /fmc or /pwi (null for other results).
struct ResultObject {
    std::shared_ptr<const Result> result;
    std::string note;
    std::shared_ptr<const ArrayAcquisition> acquisition;
};

// voxwave.Dispersion: a dispersion table and what it was computed for.
struct DispersionObject {
    std::shared_ptr<const DispersionTable> table;
    std::string method;
    double spacing = 0, dt = 0;
};

// The problem of a scene, built without the GIL (voxelising a large model takes a while).
ProblemObject build_problem(const SceneObject& s);

}  // namespace voxwave::python
