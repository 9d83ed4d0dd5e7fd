// voxwave.Acquisition, voxwave.read_acquisition, voxwave.image and voxwave.read_image: FMC / PWI
// acquisitions (engine/wave/array_acquisition.hpp) and their TFM, plane-wave and sector images
// (engine/wave/tfm_imaging.hpp, sector_imaging.hpp), with the options of voxwave-cli image.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <variant>

#include "arrays.hpp"
#include "bindings.hpp"
#include "core/errors.hpp"
#include "objects.hpp"
#include "wave/sector_imaging.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave::python {
namespace {

struct ImageObject {
    std::shared_ptr<const Image> image;
};

// What voxwave.image images: a file with /fmc or /pwi, an Acquisition, or a Result that carries one.
using ImageSource = std::variant<AcquisitionObject, ResultObject, std::filesystem::path>;

// The source's acquisition and the name the image records as its source.
std::pair<std::shared_ptr<const ArrayAcquisition>, std::string> source_acquisition(const ImageSource& source) {
    if (const auto* a = std::get_if<AcquisitionObject>(&source)) return {a->acquisition, "acquisition"};
    if (const auto* r = std::get_if<ResultObject>(&source)) {
        if (!r->acquisition)
            throw InputError(r->result->scene, "acquisition",
                             "the result holds no FMC or PWI acquisition (the result of an fmc or pwi scan does)");
        return {r->acquisition, r->result->scene};
    }
    const auto& path = std::get<std::filesystem::path>(source);
    return {std::make_shared<const ArrayAcquisition>(read_array_acquisition_h5(path.string())),
            path.filename().string()};
}

ImageObject image(const ImageSource& source, std::optional<std::string> method, const std::string& mode,
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
    const auto [a, name] = source_acquisition(source);
    try {
        return {std::make_shared<const Image>(make_image_by_method(*a, method.value_or(""), r, name))};
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

// voxwave.Acquisition(data, time, element_positions, pitch, ...): an acquisition made in Python,
// checked by the engine's one rule (check_array_acquisition) as the file reader checks a file.
AcquisitionObject make_acquisition(const py::array_t<double, py::array::c_style | py::array::forcecast>& data,
                                   const py::array_t<double, py::array::c_style | py::array::forcecast>& time,
                                   const py::array_t<double, py::array::c_style | py::array::forcecast>& positions,
                                   double pitch, std::array<double, 3> normal, std::array<double, 3> array_axis,
                                   double reference_time, std::optional<std::vector<double>> angles, double vp,
                                   double vs, double frequency) {
    if (data.ndim() != 3) throw InputError("", "data", "must have shape (n_tx, n_rx, nt)");
    if (time.ndim() != 1) throw InputError("", "time", "must have shape (nt,)");
    if (positions.ndim() != 2 || positions.shape(1) != 3)
        throw InputError("", "element_positions", "must have shape (n_rx, 3)");
    ArrayAcquisition a;
    a.type = angles ? AcquisitionType::Pwi : AcquisitionType::Fmc;
    a.n_tx = std::size_t(data.shape(0));
    a.n_rx = std::size_t(data.shape(1));
    if (std::size_t(data.shape(2)) != std::size_t(time.shape(0)))
        throw InputError(
            "", "data",
            "has " + std::to_string(data.shape(2)) + " samples a signal, time has " + std::to_string(time.shape(0)));
    if (std::size_t(positions.shape(0)) != a.n_rx)
        throw InputError(
            "", "element_positions",
            "has " + std::to_string(positions.shape(0)) + " rows, data has " + std::to_string(a.n_rx) + " receivers");
    a.data.assign(data.data(), data.data() + data.size());
    a.time.assign(time.data(), time.data() + time.size());
    for (std::size_t e = 0; e < a.n_rx; ++e)
        a.element_positions.push_back({positions.at(e, 0), positions.at(e, 1), positions.at(e, 2)});
    if (angles) a.angles = *angles;
    a.pitch = pitch;
    a.normal = normal;
    a.array_axis = array_axis;
    a.reference_time = reference_time;
    a.vp = vp;
    a.vs = vs;
    a.frequency = frequency;
    check_array_acquisition(a, "acquisition");
    return {std::make_shared<const ArrayAcquisition>(std::move(a))};
}

void bind_acquisition(py::module_& m) {
    py::class_<AcquisitionObject>(
        m, "Acquisition",
        "An array probe's full matrix capture (FMC: element i fires alone in shot i, every element receives) or "
        "plane-wave acquisition (PWI: one steered plane wave per angle), as /fmc or /pwi of an HDF5 file "
        "(voxwave.scan's Result.acquisition, voxwave.read_acquisition). Arrays are read-only float64 views "
        "(no copies).")
        .def(py::init(&make_acquisition), py::arg("data"), py::arg("time"), py::arg("element_positions"),
             py::arg("pitch"), py::arg("normal") = std::array<double, 3>{0, 0, 1},
             py::arg("array_axis") = std::array<double, 3>{1, 0, 0}, py::arg("reference_time") = 0.0,
             py::arg("angles") = py::none(), py::arg("vp") = 0.0, py::arg("vs") = 0.0, py::arg("frequency") = 0.0,
             "An acquisition from arrays: data (n_tx, n_rx, nt) received signals, time (nt,) s, uniform, "
             "element_positions (n_rx, 3) m, pitch m, normal (into the material) and array_axis (unit, "
             "perpendicular), the wavelet's reference_time s; angles (degrees, one per transmission) make it a "
             "PWI, otherwise an FMC; vp, vs m/s and frequency Hz are optional (0: not recorded). Checked as "
             "a file is: a bad one raises voxwave.InputError naming the field.")
        .def_property_readonly(
            "type", [](const AcquisitionObject& o) { return std::string(to_string(o.acquisition->type)); },
            "fmc or pwi.")
        .def_property_readonly(
            "data",
            [](const AcquisitionObject& o) {
                const ArrayAcquisition& a = *o.acquisition;
                return owned_array(o.acquisition, a.data.data(),
                                   {py::ssize_t(a.n_tx), py::ssize_t(a.n_rx), py::ssize_t(a.sample_count())});
            },
            "The received signals: shape (n_tx, n_rx, nt); an FMC's [i, j] is element j's signal when element i "
            "fired, a PWI's [k, j] element j's for angles[k]. A simulated one is the mean particle velocity "
            "along the normal over the element's face, m/s.")
        .def_property_readonly(
            "time",
            [](const AcquisitionObject& o) {
                return owned_array(o.acquisition, o.acquisition->time.data(),
                                   {py::ssize_t(o.acquisition->sample_count())});
            },
            "Sample times, s: shape (nt,), uniform.")
        .def_property_readonly(
            "element_positions",
            [](const AcquisitionObject& o) {
                return owned_vec3_array(o.acquisition, o.acquisition->element_positions);
            },
            "The elements' centres, m: shape (n_rx, 3).")
        .def_property_readonly(
            "angles",
            [](const AcquisitionObject& o) -> py::object {
                if (o.acquisition->type != AcquisitionType::Pwi) return py::none();
                return owned_array(o.acquisition, o.acquisition->angles.data(),
                                   {py::ssize_t(o.acquisition->angles.size())});
            },
            "A PWI's plane-wave angles, degrees from the normal towards array_axis: shape (n_tx,); None for "
            "an FMC.")
        .def_property_readonly("n_tx", [](const AcquisitionObject& o) { return o.acquisition->n_tx; })
        .def_property_readonly("n_rx", [](const AcquisitionObject& o) { return o.acquisition->n_rx; })
        .def_property_readonly(
            "pitch", [](const AcquisitionObject& o) { return o.acquisition->pitch; }, "m.")
        .def_property_readonly(
            "normal", [](const AcquisitionObject& o) { return o.acquisition->normal; },
            "Unit vector into the material: the image's depth axis.")
        .def_property_readonly(
            "array_axis", [](const AcquisitionObject& o) { return o.acquisition->array_axis; },
            "Unit vector along the elements: the image's lateral axis.")
        .def_property_readonly(
            "reference_time", [](const AcquisitionObject& o) { return o.acquisition->reference_time; },
            "The transmitted wavelet's reference point, s (a PWI's includes the time its fronts take to "
            "reach the array centre): an echo from depth d arrives at reference_time + 2 d / c.")
        .def_property_readonly(
            "vp", [](const AcquisitionObject& o) { return o.acquisition->vp; }, "m/s; 0 when not recorded.")
        .def_property_readonly(
            "vs", [](const AcquisitionObject& o) { return o.acquisition->vs; }, "m/s; 0 when not recorded.")
        .def_property_readonly(
            "frequency", [](const AcquisitionObject& o) { return o.acquisition->frequency; },
            "The wavelet's centre frequency, Hz; 0 when not recorded.")
        .def(
            "save",
            [](const AcquisitionObject& o, const std::filesystem::path& path) {
                write_array_acquisition_h5(path.string(), *o.acquisition);
            },
            py::arg("path"), "Writes a standalone acquisition file (voxwave-acquisition HDF5, atomic).")
        .def("__repr__", [](const AcquisitionObject& o) {
            const ArrayAcquisition& a = *o.acquisition;
            return std::string("<voxwave.Acquisition ") + to_string(a.type) + ": " + std::to_string(a.n_tx) + " x " +
                   std::to_string(a.n_rx) + " signals x " + std::to_string(a.sample_count()) + " samples>";
        });

    m.def(
        "read_acquisition",
        [](const std::filesystem::path& path) {
            return AcquisitionObject{
                std::make_shared<const ArrayAcquisition>(read_array_acquisition_h5(path.string()))};
        },
        py::arg("path"), "Reads /fmc (else /pwi) from an HDF5 file: a standalone acquisition or a scan's result file.");
}

}  // namespace

void bind_imaging(py::module_& m) {
    bind_acquisition(m);
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

    m.def("image", &image, py::arg("source"), py::arg("method") = py::none(), py::arg("mode") = "LL",
          py::arg("region") = py::none(), py::arg("pixel") = py::none(), py::arg("velocity") = py::none(),
          py::arg("shear_velocity") = py::none(), py::arg("backend") = py::none(),
          "The image of an FMC or PWI acquisition, as voxwave-cli image makes it. source: the path of an HDF5 "
          "file with /fmc or /pwi, a voxwave.Acquisition, or the voxwave.Result of an fmc or pwi scan. method "
          "tfm, pwi or sector (a PWI's steered lines drawn as a fan; default: TFM for an FMC, compounding for "
          "a PWI), mode LL, TT or LT, region (lateral0, lateral1, depth0, depth1) m, pixel m, velocity and "
          "shear_velocity m/s, backend auto, cpu or cuda; None takes the defaults. Bad options raise "
          "voxwave.InputError naming the argument.");
    m.def(
        "read_image",
        [](const std::filesystem::path& path) {
            return ImageObject{std::make_shared<const Image>(read_image_h5(path.string()))};
        },
        py::arg("path"), "Reads an image file (voxwave-cli image's output).");
}

}  // namespace voxwave::python
