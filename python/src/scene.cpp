// voxwave.Scene, voxwave.VoxelModel and voxwave.Problem: scenes read and checked by the engine's
// own reader (the JSON contract, docs/architecture.md#files-and-cli), voxelised and prepared.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "core/format_number.hpp"
#include "objects.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"

namespace voxwave::python {
namespace {

SceneObject load_scene(const std::filesystem::path& path) {
    const std::string p = path.string();
    return {read_scene_json(p), p};
}

SceneObject scene_from_json(const std::string& text, const std::string& name, const std::filesystem::path& base_dir) {
    return {parse_scene_json(text, name, base_dir.string()), name};
}

// Written like the explorer's Save as: file references rebased to the new folder.
void save_scene(const SceneObject& s, const std::filesystem::path& path) {
    Scene copy = s.scene;
    rebase_file_references(copy, std::filesystem::absolute(path).parent_path().string());
    write_scene_json(path.string(), copy);
}

// The scene voxelised at `spacing` (the scene's own when None), checked by the same rules as a
// spacing written in the scene.
VoxelModelObject voxelise(const SceneObject& s, std::optional<double> spacing) {
    Scene copy = s.scene;
    if (spacing) {
        copy.grid.spacing = *spacing;
        validate_scene(copy, s.label);
    }
    py::gil_scoped_release release;
    return {std::make_shared<const VoxelGrid>(rasterise(copy))};
}

VoxelModelObject read_voxels(const std::filesystem::path& path, const std::string& dataset) {
    return {std::make_shared<const VoxelGrid>(read_voxels_h5(path.string(), dataset))};
}

// [{'name', 'position'}] of sources or receivers snapped to their nodes.
template <class Points>
py::list snapped_points(const Points& points) {
    py::list l;
    for (const auto& p : points) {
        py::dict d;
        d["name"] = p.name;
        d["position"] = py::make_tuple(p.snapped[0], p.snapped[1], p.snapped[2]);
        l.append(d);
    }
    return l;
}

std::string scene_repr(const SceneObject& s) {
    const auto& g = s.scene.grid;
    return "<voxwave.Scene '" + s.label + "': " + format_number(g.size[0]) + " x " + format_number(g.size[1]) + " x " +
           format_number(g.size[2]) + " m at " + format_number(g.spacing) + " m, " +
           std::to_string(s.scene.materials.size()) + " materials, " + std::to_string(s.scene.sources.size()) +
           " sources, " + std::to_string(s.scene.receivers.size()) + " receivers>";
}

}  // namespace

ProblemObject build_problem(const SceneObject& s) {
    py::gil_scoped_release release;
    return {std::make_shared<const WaveProblem>(build_wave_problem(s.scene, s.label)), s.label};
}

void bind_scene(py::module_& m) {
    py::class_<SceneObject>(m, "Scene",
                            "A scene (the voxwave-scene JSON contract), read and checked by the engine's reader.\n"
                            "Build one with voxwave.scene(**keys), Scene.from_dict(d), Scene.from_json(text) or "
                            "Scene.load(path).")
        .def_static("load", &load_scene, py::arg("path"),
                    "Reads and checks a scene file; errors name the path as given (as voxwave-cli does).")
        .def_static("from_json", &scene_from_json, py::arg("text"), py::arg("name") = "scene",
                    py::arg("base_dir") = std::filesystem::path(),
                    "Parses and checks scene JSON text. `name` is the file name errors carry; relative file "
                    "references (voxels, sample wavelets) are taken from `base_dir` (default: the working "
                    "directory).")
        .def(
            "to_json", [](const SceneObject& s) { return scene_to_json_text(s.scene); },
            "The scene as JSON text, every field written (defaults included).")
        .def("save", &save_scene, py::arg("path"),
             "Writes the scene file atomically, file references rebased to the new folder.")
        .def("voxelise", &voxelise, py::arg("spacing") = py::none(),
             "The voxel model at `spacing` metres (default: the scene's grid.spacing).")
        .def_property_readonly(
            "name", [](const SceneObject& s) { return s.label; },
            "The name errors carry: the file read, or the name given.")
        .def_property_readonly(
            "base_dir", [](const SceneObject& s) { return s.scene.base_dir; },
            "The folder relative file references are taken from.")
        .def("__eq__", [](const SceneObject& a, const SceneObject& b) { return a.scene == b.scene; })
        .def("__repr__", &scene_repr);

    py::class_<VoxelModelObject>(m, "VoxelModel",
                                 "A voxel model: one material id per cubic element (0 = void, v = the scene's "
                                 "material v, in the order of its materials list).")
        .def_property_readonly(
            "ids",
            [](const VoxelModelObject& v) {
                const auto& g = *v.grid;
                return owned_array(v.grid, g.ids.data(),
                                   {py::ssize_t(g.n[2]), py::ssize_t(g.n[1]), py::ssize_t(g.n[0])});
            },
            "Material ids, uint8, shape (nz, ny, nx) (x fastest, as in the painted-voxels HDF5 file); "
            "read-only, no copy.")
        .def_property_readonly(
            "counts",
            [](const VoxelModelObject& v) { return py::make_tuple(v.grid->n[0], v.grid->n[1], v.grid->n[2]); },
            "Element counts (nx, ny, nz).")
        .def_property_readonly(
            "spacing", [](const VoxelModelObject& v) { return v.grid->spacing; }, "Element side ds in metres.")
        .def_property_readonly(
            "origin",
            [](const VoxelModelObject& v) {
                return py::make_tuple(v.grid->origin[0], v.grid->origin[1], v.grid->origin[2]);
            },
            "Position of the first element's corner, metres.")
        .def(
            "save",
            [](const VoxelModelObject& v, const std::filesystem::path& path, const std::string& dataset) {
                write_voxels_h5(path.string(), dataset, *v.grid);
            },
            py::arg("path"), py::arg("dataset") = "/model/material_ids",
            "Writes a painted-voxels HDF5 file (atomic), which a scene's `voxels` key can name.")
        .def("__repr__", [](const VoxelModelObject& v) {
            return "<voxwave.VoxelModel " + std::to_string(v.grid->n[0]) + " x " + std::to_string(v.grid->n[1]) +
                   " x " + std::to_string(v.grid->n[2]) + " elements>";
        });
    m.def("read_voxels", &read_voxels, py::arg("path"), py::arg("dataset") = "/model/material_ids",
          "Reads a painted-voxels HDF5 file.");

    py::class_<ProblemObject>(m, "Problem",
                              "What a run needs, built once from a scene: the voxel model, node masses, the "
                              "boundary, snapped sources and receivers, the checked time step. Pass it to "
                              "voxwave.run to run it (several times, e.g. on both backends).")
        .def(py::init(&build_problem), py::arg("scene"))
        .def_property_readonly(
            "dt", [](const ProblemObject& p) { return p.problem->dt; }, "Time step, s.")
        .def_property_readonly(
            "dt_stable", [](const ProblemObject& p) { return p.problem->dt_stable; }, "The model's stable limit, s.")
        .def_property_readonly("steps", [](const ProblemObject& p) { return p.problem->steps; })
        .def_property_readonly("method", [](const ProblemObject& p) { return to_string(p.problem->method); })
        .def_property_readonly("precision", [](const ProblemObject& p) { return to_string(p.problem->precision); })
        .def_property_readonly("stages", [](const ProblemObject& p) { return p.problem->stages; })
        .def_property_readonly(
            "backend", [](const ProblemObject& p) { return to_string(p.problem->backend); },
            "The backend asked for (auto, cpu or cuda).")
        .def_property_readonly(
            "model",
            [](const ProblemObject& p) {
                // A view of the problem's own grid: no copy of the voxels.
                return VoxelModelObject{std::shared_ptr<const VoxelGrid>(p.problem, &p.problem->grid)};
            },
            "The voxel model the run steps.")
        .def_property_readonly(
            "sources", [](const ProblemObject& p) { return snapped_points(p.problem->sources); },
            "[{'name', 'position'}]: the sources snapped to their nodes.")
        .def_property_readonly(
            "receivers", [](const ProblemObject& p) { return snapped_points(p.problem->receivers); },
            "[{'name', 'position'}]: the receivers snapped to their nodes.")
        .def_property_readonly("name", [](const ProblemObject& p) { return p.label; })
        .def("__repr__", [](const ProblemObject& p) {
            const auto& g = p.problem->grid;
            return "<voxwave.Problem '" + p.label + "': " + std::to_string(g.n[0]) + " x " + std::to_string(g.n[1]) +
                   " x " + std::to_string(g.n[2]) + " elements, " + to_string(p.problem->method) + " " +
                   to_string(p.problem->precision) + ", " + std::to_string(p.problem->steps) + " steps>";
        });
}

}  // namespace voxwave::python
