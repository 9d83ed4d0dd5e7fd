// voxwave.Result: receiver traces as numpy views of the engine's result (no copies), from a run or
// a result file (voxwave-result HDF5, docs/architecture.md#files-and-cli).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>

#include "arrays.hpp"
#include "bindings.hpp"
#include "objects.hpp"

namespace voxwave::python {
namespace {

// Traces are (receivers, samples, 3) row-major in the engine's Result.
py::array_t<double> traces(const ResultObject& o, const std::vector<double>& v) {
    const auto& r = *o.result;
    return owned_array(o.result, v.data(), {py::ssize_t(r.receiver_count()), py::ssize_t(r.sample_count()), 3});
}

std::size_t receiver_index(const ResultObject& o, const std::string& name) {
    const auto& names = o.result->receiver_names;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return i;
    throw py::key_error("no receiver named '" + name + "'");
}

}  // namespace

void bind_results(py::module_& m) {
    py::class_<ResultObject>(m, "Result",
                             "Receiver traces of a run (voxwave.run) or of a result file (voxwave.read_result).\n"
                             "Arrays are read-only float64 views of the engine's buffers (no copies); sample n "
                             "is at t = n dt.")
        .def_property_readonly(
            "time",
            [](const ResultObject& o) {
                return owned_array(o.result, o.result->time.data(), {py::ssize_t(o.result->sample_count())});
            },
            "Sample times, s: shape (nt,).")
        .def_property_readonly(
            "displacement", [](const ResultObject& o) { return traces(o, o.result->displacement); },
            "Nodal displacement, m: shape (receivers, nt, 3), components x, y, z.")
        .def_property_readonly(
            "velocity", [](const ResultObject& o) { return traces(o, o.result->velocity); },
            "Central-difference velocity (u[n+1] - u[n-1]) / 2dt, m/s: shape (receivers, nt, 3).")
        .def_property_readonly(
            "receiver_positions",
            [](const ResultObject& o) { return owned_vec3_array(o.result, o.result->receiver_positions); },
            "Snapped receiver node positions, m: shape (receivers, 3).")
        .def_property_readonly("receiver_names", [](const ResultObject& o) { return o.result->receiver_names; })
        .def("receiver_index", &receiver_index, py::arg("name"), "Row of the named receiver in the trace arrays.")
        .def_property_readonly("method", [](const ResultObject& o) { return o.result->method; })
        .def_property_readonly("precision", [](const ResultObject& o) { return o.result->precision; })
        .def_property_readonly("stages", [](const ResultObject& o) { return o.result->stages; })
        .def_property_readonly(
            "backend", [](const ResultObject& o) { return o.result->backend; }, "The backend that ran (cpu or cuda).")
        .def_property_readonly("spacing", [](const ResultObject& o) { return o.result->spacing; })
        .def_property_readonly("dt", [](const ResultObject& o) { return o.result->dt; })
        .def_property_readonly("steps", [](const ResultObject& o) { return o.result->steps; })
        .def_property_readonly(
            "wall_seconds", [](const ResultObject& o) { return o.result->wall_seconds; }, "Setup and time loop, s.")
        .def_property_readonly(
            "scene", [](const ResultObject& o) { return o.result->scene; }, "The name of the scene the run came from.")
        .def_property_readonly(
            "note", [](const ResultObject& o) { return o.note; },
            "Which backend ran and why (empty for a result read from a file).")
        .def(
            "save",
            [](const ResultObject& o, const std::filesystem::path& path) { write_result_h5(path.string(), *o.result); },
            py::arg("path"), "Writes a voxwave-result HDF5 file (atomic), as voxwave-cli run does.")
        .def("__repr__", [](const ResultObject& o) {
            const auto& r = *o.result;
            return "<voxwave.Result " + r.method + " " + r.precision + " on " + r.backend + ": " +
                   std::to_string(r.receiver_count()) + " receivers x " + std::to_string(r.sample_count()) +
                   " samples>";
        });

    m.def(
        "read_result",
        [](const std::filesystem::path& path) {
            return ResultObject{std::make_shared<const Result>(read_result_h5(path.string())), ""};
        },
        py::arg("path"), "Reads a voxwave-result HDF5 file (voxwave-cli run's, the explorer's or Result.save's).");
}

}  // namespace voxwave::python
