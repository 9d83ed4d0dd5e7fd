// voxwave.dispersion: the Bloch-wave dispersion analysis of the voxel elements (engine/wave/dispersion.hpp),
// checked by the same rules as voxwave-cli dispersion.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "objects.hpp"
#include "wave/wave_io.hpp"

namespace voxwave::python {
namespace {

DispersionObject dispersion(const std::string& method, double spacing, double density, double vp, double vs, double dt,
                            std::optional<std::vector<double>> ppw,
                            std::optional<std::vector<std::array<double, 3>>> directions) {
    const Method m = parse_method(method, "method");
    const Material material{
        .name = "material", .density = density, .vp = vp, .vs = vs, .color = "#808080", .source = ""};
    const std::vector<double> points = ppw ? *ppw : default_dispersion_ppw();
    check_dispersion_request(spacing, material, dt, points, "");
    auto dirs = directions ? *directions : default_dispersion_directions();
    py::gil_scoped_release release;
    auto table = std::make_shared<const DispersionTable>(
        dispersion_table(m == Method::Vfem ? ElementMethod::Vfem : ElementMethod::Ovfem, spacing, material, dt, points,
                         std::move(dirs)));
    return {std::move(table), to_string(m), spacing, dt};
}

}  // namespace

void bind_dispersion(py::module_& m) {
    py::class_<DispersionObject>(m, "Dispersion",
                                 "Phase-velocity ratios (numerical / exact) of a voxel method on an infinite "
                                 "uniform grid; arrays are read-only views (no copies).")
        .def_property_readonly(
            "ppw",
            [](const DispersionObject& d) {
                return owned_array(d.table, d.table->ppw.data(), {py::ssize_t(d.table->ppw.size())});
            },
            "Points per wavelength: shape (n,).")
        .def_property_readonly(
            "directions", [](const DispersionObject& d) { return owned_vec3_array(d.table, d.table->directions); },
            "Propagation directions as given: shape (m, 3).")
        .def_property_readonly(
            "velocity_ratio",
            [](const DispersionObject& d) {
                const auto& t = *d.table;
                return owned_array(d.table, t.velocity_ratio.data(),
                                   {py::ssize_t(t.directions.size()), py::ssize_t(t.ppw.size()), 3});
            },
            "Numerical / exact phase velocity: shape (m, n, 3), modes ascending (S1, S2, P).")
        .def_property_readonly("method", [](const DispersionObject& d) { return d.method; })
        .def_property_readonly("spacing", [](const DispersionObject& d) { return d.spacing; })
        .def_property_readonly("dt", [](const DispersionObject& d) { return d.dt; })
        .def(
            "save",
            [](const DispersionObject& d, const std::filesystem::path& path) {
                write_dispersion_h5(path.string(), d.method, d.spacing, d.dt, *d.table);
            },
            py::arg("path"), "Writes the HDF5 file voxwave-cli dispersion writes (atomic).");

    m.def("dispersion", &dispersion, py::arg("method"), py::arg("spacing"), py::arg("density"), py::arg("vp"),
          py::arg("vs"), py::arg("dt") = 0.0, py::arg("ppw") = py::none(), py::arg("directions") = py::none(),
          "Bloch-wave dispersion of `method` (vfem or ovfem; tcovfem has ovfem's element) at element side "
          "`spacing` m for one material; dt = 0 leaves out the time-stepping error. ppw defaults to "
          "4..40, directions to the axis, face diagonal and cube diagonal.");
}

}  // namespace voxwave::python
