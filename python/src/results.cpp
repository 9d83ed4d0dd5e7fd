// voxwave.Result: receiver traces, probe signals and a scan's shots as numpy views of the engine's
// result (no copies), from a run or a result file (voxwave-result HDF5,
// docs/architecture.md#files-and-cli).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "core/hdf5_util.hpp"
#include "objects.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave::python {
namespace {

// Traces are (receivers, samples, 3) row-major in the engine's Result.
py::array_t<double> traces(const ResultObject& o, const std::vector<double>& v) {
    const auto& r = *o.result;
    return owned_array(o.result, v.data(), {py::ssize_t(r.receiver_count()), py::ssize_t(r.sample_count()), 3});
}

// One receiving probe of a result: the result stays alive through it, and its arrays point into
// the result's ProbeRecord.
struct ProbeObject {
    std::shared_ptr<const Result> result;
    std::size_t index = 0;
    const ProbeRecord& record() const { return result->probes[index]; }
};

// A result's scan (engine/wave/probe_scan.hpp), kept alive the same way.
struct ScanObject {
    std::shared_ptr<const Result> result;
    const ScanRecord& record() const { return *result->scan; }
    py::ssize_t shots() const { return py::ssize_t(record().shot_positions.size()); }
};

py::ssize_t samples(const std::shared_ptr<const Result>& r) { return py::ssize_t(r->sample_count()); }

py::array_t<double> sample_times(const std::shared_ptr<const Result>& r) {
    return owned_array(r, r->time.data(), {samples(r)});
}

// One signal per shot or probe exists only for a single transducer; an array's are its elements.
void refuse_array(bool array, const std::string& what, const std::string& elements_shape) {
    if (array) throw py::attribute_error(what + " is an array: its signals are elements, shape " + elements_shape);
}

py::list probe_list(const ResultObject& o) {
    py::list out;
    for (std::size_t i = 0; i < o.result->probes.size(); ++i) out.append(ProbeObject{o.result, i});
    return out;
}

ProbeObject probe_named(const ResultObject& o, const std::string& name) {
    const auto& probes = o.result->probes;
    for (std::size_t i = 0; i < probes.size(); ++i)
        if (probes[i].name == name) return ProbeObject{o.result, i};
    throw py::key_error("no probe named '" + name + "'");
}

std::optional<ScanObject> scan_of(const ResultObject& o) {
    if (!o.result->scan) return std::nullopt;
    return ScanObject{o.result};
}

void bind_probe_and_scan(py::module_& m) {
    py::class_<ProbeObject>(m, "Probe",
                            "What a receiving probe recorded in a run (Result.probes): per element the mean "
                            "particle velocity along the probe's normal (or polarization) over the element's "
                            "face, m/s. Arrays are read-only float64 views of the result (no copies).")
        .def_property_readonly("name", [](const ProbeObject& p) { return p.record().name; })
        .def_property_readonly(
            "is_array", [](const ProbeObject& p) { return p.record().array; },
            "True for a phased array (the result file's /probes/<name>/elements), False for a single "
            "transducer (/probes/<name>/signal).")
        .def_property_readonly(
            "time", [](const ProbeObject& p) { return sample_times(p.result); },
            "Sample times, s: shape (nt,), the result's time.")
        .def_property_readonly(
            "signal",
            [](const ProbeObject& p) {
                refuse_array(p.record().array, "probe '" + p.record().name + "'", "(N, nt)");
                return owned_array(p.result, p.record().element_signals.data(), {samples(p.result)});
            },
            "A single transducer's signal, m/s: shape (nt,) (an array probe has elements instead).")
        .def_property_readonly(
            "elements",
            [](const ProbeObject& p) {
                return owned_array(p.result, p.record().element_signals.data(),
                                   {py::ssize_t(p.record().element_count()), samples(p.result)});
            },
            "Every element's signal, m/s: shape (N, nt) (N = 1 for a single transducer); elements "
            "outside the active aperture stay 0.")
        .def_property_readonly(
            "delays",
            [](const ProbeObject& p) {
                return owned_array(p.result, p.record().delays.data(), {py::ssize_t(p.record().element_count())});
            },
            "The transmit law's delays, s: shape (N,), the earliest 0.")
        .def_property_readonly(
            "active",
            [](const ProbeObject& p) { return py::make_tuple(p.record().active_first, p.record().active_count); },
            "The active sub-aperture (first, count).")
        .def("__repr__", [](const ProbeObject& p) {
            return "<voxwave.Probe '" + p.record().name + "': " + std::to_string(p.record().element_count()) +
                   " elements x " + std::to_string(p.result->sample_count()) + " samples>";
        });

    py::class_<ScanObject>(m, "Scan",
                           "A probe scan's shots (Result.scan, from voxwave.scan or a result file of "
                           "voxwave-cli scan): shots = positions x positions2, positions fastest. Arrays "
                           "are read-only float64 views of the result (no copies).")
        .def_property_readonly("probe", [](const ScanObject& s) { return s.record().probe; })
        .def_property_readonly(
            "type", [](const ScanObject& s) { return s.record().type; }, "single, linear or raster.")
        .def_property_readonly("is_array", [](const ScanObject& s) { return s.record().array; })
        .def_property_readonly(
            "shape", [](const ScanObject& s) { return py::make_tuple(s.record().positions2, s.record().positions); },
            "(positions2, positions): the shots' grid, as the C-scan's shape.")
        .def_property_readonly(
            "positions", [](const ScanObject& s) { return owned_vec3_array(s.result, s.record().shot_positions); },
            "The probe's centre at every shot, m: shape (shots, 3).")
        .def_property_readonly(
            "time", [](const ScanObject& s) { return sample_times(s.result); },
            "Sample times, s: shape (nt,), every shot's.")
        .def_property_readonly(
            "signals",
            [](const ScanObject& s) {
                refuse_array(s.record().array, "scan probe '" + s.record().probe + "'", "(shots, N, nt)");
                return owned_array(s.result, s.record().shot_signals.data(), {s.shots(), samples(s.result)});
            },
            "A single transducer's signal at every shot, m/s: shape (shots, nt) (an array's scan has "
            "elements instead).")
        .def_property_readonly(
            "elements",
            [](const ScanObject& s) {
                return owned_array(s.result, s.record().shot_signals.data(),
                                   {s.shots(), py::ssize_t(s.record().elements), samples(s.result)});
            },
            "Every element's signal at every shot, m/s: shape (shots, N, nt) (N = 1 for a single "
            "transducer).")
        .def_property_readonly(
            "cscan",
            [](const ScanObject& s) -> py::object {
                if (!s.record().gated) return py::none();
                return owned_array(s.result, s.record().cscan.data(),
                                   {py::ssize_t(s.record().positions2), py::ssize_t(s.record().positions)});
            },
            "The gated peak |delay-and-sum| of every shot, m/s: shape (positions2, positions); None "
            "without a gate.")
        .def_property_readonly(
            "gate",
            [](const ScanObject& s) -> py::object {
                if (!s.record().gated) return py::none();
                return py::make_tuple(s.record().gate_start, s.record().gate_end);
            },
            "(start, end) of the C-scan's gate, s; None without a gate.")
        .def("__repr__", [](const ScanObject& s) {
            return "<voxwave.Scan " + s.record().type + " of probe '" + s.record().probe +
                   "': " + std::to_string(s.shots()) + " shots x " + std::to_string(s.record().elements) +
                   " elements x " + std::to_string(s.result->sample_count()) + " samples>";
        });
}

// The result's /fmc or /pwi as voxwave.Acquisition; None when it has none or another kind.
std::optional<AcquisitionObject> acquisition_of(const ResultObject& o, std::optional<AcquisitionType> kind) {
    if (!o.acquisition || (kind && o.acquisition->type != *kind)) return std::nullopt;
    return AcquisitionObject{o.acquisition};
}

std::size_t receiver_index(const ResultObject& o, const std::string& name) {
    const auto& names = o.result->receiver_names;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return i;
    throw py::key_error("no receiver named '" + name + "'");
}

}  // namespace

void bind_results(py::module_& m) {
    bind_probe_and_scan(m);
    py::class_<ResultObject>(m, "Result",
                             "Receiver traces of a run (voxwave.run) or of a result file (voxwave.read_result).\n"
                             "Arrays are read-only float64 views of the engine's buffers (no copies); sample n "
                             "is at t = n dt.")
        .def_property_readonly(
            "time", [](const ResultObject& o) { return sample_times(o.result); }, "Sample times, s: shape (nt,).")
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
        .def_property_readonly("probes", &probe_list, "The receiving probes (voxwave.Probe), in the scene's order.")
        .def("probe", &probe_named, py::arg("name"), "The named probe (voxwave.Probe); KeyError if there is none.")
        .def_property_readonly("scan", &scan_of,
                               "The scan's shots (voxwave.Scan) of voxwave.scan or voxwave-cli scan; None "
                               "for a plain run.")
        .def_property_readonly(
            "acquisition", [](const ResultObject& o) { return acquisition_of(o, std::nullopt); },
            "An fmc or pwi scan's acquisition (voxwave.Acquisition: the result file's /fmc or /pwi), which "
            "voxwave.image images; None for other results.")
        .def_property_readonly(
            "fmc", [](const ResultObject& o) { return acquisition_of(o, AcquisitionType::Fmc); },
            "An fmc scan's full matrix capture (/fmc: data (n_tx, n_rx, nt), time, element_positions and the "
            "attributes); None otherwise.")
        .def_property_readonly(
            "pwi", [](const ResultObject& o) { return acquisition_of(o, AcquisitionType::Pwi); },
            "A pwi scan's plane-wave acquisition (/pwi: data (n_angles, n_rx, nt), angles, ...); None otherwise.")
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
            [](const ResultObject& o, const std::filesystem::path& path) {
                if (!o.acquisition) return write_result_h5(path.string(), *o.result);
                write_result_h5(path.string(), *o.result,
                                [&](h5::File& f) { write_array_acquisition_group(f, *o.acquisition); });
            },
            py::arg("path"),
            "Writes a voxwave-result HDF5 file (atomic), as voxwave-cli run (or scan, with its /fmc or /pwi) "
            "does.")
        .def("__repr__", [](const ResultObject& o) {
            const auto& r = *o.result;
            return "<voxwave.Result " + r.method + " " + r.precision + " on " + r.backend + ": " +
                   std::to_string(r.receiver_count()) + " receivers x " + std::to_string(r.sample_count()) +
                   " samples>";
        });

    m.def(
        "read_result",
        [](const std::filesystem::path& path) {
            ResultObject o{std::make_shared<const Result>(read_result_h5(path.string())), "", nullptr};
            if (has_array_acquisition_h5(path.string()))
                o.acquisition = std::make_shared<const ArrayAcquisition>(read_array_acquisition_h5(path.string()));
            return o;
        },
        py::arg("path"),
        "Reads a voxwave-result HDF5 file (voxwave-cli run's or scan's, the explorer's or Result.save's), with "
        "an fmc or pwi scan's /fmc or /pwi in Result.acquisition.");
}

}  // namespace voxwave::python
