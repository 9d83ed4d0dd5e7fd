// voxwave._voxwave: the extension under the `voxwave` package (python/voxwave/__init__.py).
#include "bindings.hpp"

PYBIND11_MODULE(_voxwave, m) {
    m.doc() = "voxwave's engine: scenes, voxels, runs on the CPU or CUDA, results and dispersion";
    m.attr("__version__") = VOXWAVE_VERSION;
    // Errors first: the other parts translate the engine's errors into them.
    voxwave::python::bind_errors(m);
    voxwave::python::bind_scene(m);
    voxwave::python::bind_results(m);
    voxwave::python::bind_run(m);
    voxwave::python::bind_dispersion(m);
    voxwave::python::bind_imaging(m);
}
