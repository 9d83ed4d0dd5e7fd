// The pieces of the voxwave Python module (docs/architecture.md#python-module): each file binds one
// part of the engine's public API; module.cpp puts them together.
#pragma once

#include <pybind11/pybind11.h>

namespace voxwave::python {

namespace py = pybind11;

void bind_errors(py::module_& m);      // errors.cpp: voxwave.Error and its subclasses
void bind_scene(py::module_& m);       // scene.cpp: Scene, VoxelModel, Problem
void bind_results(py::module_& m);     // results.cpp: Result, Probe, Scan, read_result
void bind_run(py::module_& m);         // run.cpp: run, scan, cuda_available
void bind_dispersion(py::module_& m);  // dispersion.cpp: Dispersion, dispersion
void bind_imaging(py::module_& m);     // imaging.cpp: Image, image, read_image

}  // namespace voxwave::python
