// voxwave.image and voxwave.read_image: TFM and plane-wave images of FMC / PWI acquisition files
// (engine/wave/tfm_imaging.hpp), with the options of voxwave-cli image.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "core/errors.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave::python {
namespace {

struct ImageObject {
    std::shared_ptr<const Image> image;
};

ImageObject image(const std::filesystem::path& path, std::optional<std::string> method, const std::string& mode,
                  std::optional<std::array<double, 4>> region, std::optional<double> pixel,
                  std::optional<double> velocity, std::optional<double> shear_velocity,
                  std::optional<std::string> backend) {
    ImagingRequest r;
    r.mode = parse_imaging_mode(mode, "mode");
    if (backend) r.backend = parse_backend(*backend, "backend");
    if (region) {
        r.has_region = true;
        r.region = *region;
    }
    // 0 means "the default" to the engine: a given value must be positive.
    auto positive = [](std::optional<double> v, const char* name) {
        if (v && !(*v > 0)) throw InputError("", name, "must be positive");
        return v.value_or(0.0);
    };
    r.pixel = positive(pixel, "pixel");
    r.vp = positive(velocity, "velocity");
    r.vs = positive(shear_velocity, "shear_velocity");
    py::gil_scoped_release release;
    const ArrayAcquisition a = read_array_acquisition_h5(path.string());
    r.method = method                           ? parse_imaging_method(*method, "method")
               : a.type == AcquisitionType::Pwi ? ImagingMethod::Pwi
                                                : ImagingMethod::Tfm;
    try {
        return {std::make_shared<const Image>(make_image(a, r, path.filename().string()))};
    } catch (const InputError& e) {
        // The request's fields are this function's arguments (shear-velocity: shear_velocity).
        std::string field = e.field();
        for (char& c : field)
            if (c == '-') c = '_';
        throw InputError(e.file(), field, e.reason());
    }
}

py::array_t<double> vector_view(const ImageObject& o, const std::vector<double>& v) {
    return owned_array(o.image, v.data(), {py::ssize_t(v.size())});
}

}  // namespace

void bind_imaging(py::module_& m) {
    py::class_<ImageObject>(m, "Image",
                            "An envelope image of an array acquisition (TFM or plane-wave compounding); arrays are "
                            "read-only views (no copies).")
        .def_property_readonly(
            "values",
            [](const ImageObject& o) {
                return owned_array(o.image, o.image->values.data(),
                                   {py::ssize_t(o.image->n_depth()), py::ssize_t(o.image->n_lateral())});
            },
            "Envelope amplitude: shape (n_depth, n_lateral).")
        .def_property_readonly(
            "lateral", [](const ImageObject& o) { return vector_view(o, o.image->lateral); },
            "Pixel centres along the array axis from the array centre, m: shape (n_lateral,).")
        .def_property_readonly(
            "depth", [](const ImageObject& o) { return vector_view(o, o.image->depth); },
            "Pixel centres along the normal from the array centre, m: shape (n_depth,).")
        .def_property_readonly(
            "element_lateral", [](const ImageObject& o) { return vector_view(o, o.image->element_lateral); },
            "The elements in the image's frame, m.")
        .def_property_readonly("element_depth",
                               [](const ImageObject& o) { return vector_view(o, o.image->element_depth); })
        .def_property_readonly("method", [](const ImageObject& o) { return o.image->method; })
        .def_property_readonly("mode", [](const ImageObject& o) { return o.image->mode; })
        .def_property_readonly("backend", [](const ImageObject& o) { return o.image->backend; })
        .def_property_readonly("vp", [](const ImageObject& o) { return o.image->vp; })
        .def_property_readonly("vs", [](const ImageObject& o) { return o.image->vs; })
        .def_property_readonly("pixel", [](const ImageObject& o) { return o.image->pixel; })
        .def_property_readonly("frequency", [](const ImageObject& o) { return o.image->frequency; })
        .def(
            "save",
            [](const ImageObject& o, const std::filesystem::path& path) { write_image_h5(path.string(), *o.image); },
            py::arg("path"), "Writes the image file voxwave-cli image writes (atomic).")
        .def("__repr__", [](const ImageObject& o) {
            return "<voxwave.Image " + o.image->method + " " + o.image->mode + " " +
                   std::to_string(o.image->n_depth()) + " x " + std::to_string(o.image->n_lateral()) + ">";
        });

    m.def("image", &image, py::arg("path"), py::arg("method") = py::none(), py::arg("mode") = "LL",
          py::arg("region") = py::none(), py::arg("pixel") = py::none(), py::arg("velocity") = py::none(),
          py::arg("shear_velocity") = py::none(), py::arg("backend") = py::none(),
          "The image of the FMC or PWI acquisition in the HDF5 file `path`, as voxwave-cli image makes it: method "
          "tfm or pwi (default: what the file holds), mode LL, TT or LT, region (lateral0, lateral1, depth0, "
          "depth1) m, pixel m, velocity and shear_velocity m/s; None takes the defaults.");
    m.def(
        "read_image",
        [](const std::filesystem::path& path) {
            return ImageObject{std::make_shared<const Image>(read_image_h5(path.string()))};
        },
        py::arg("path"), "Reads an image file (voxwave-cli image's output).");
}

}  // namespace voxwave::python
