// voxwave.run and voxwave.scan: a scene or a prepared problem run by the engine (run_wave,
// run_probe_scan: the CLI's paths) on the backend the scene or the call asks for, with the GIL
// released and a progress callback.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <optional>
#include <variant>

#include "bindings.hpp"
#include "core/backend.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "objects.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "wave/probe_scan.hpp"
#include "wave/wave_run.hpp"

namespace voxwave::python {
namespace {

// The engine's progress calls (about 200 a run) made into calls of a Python callable, with the
// GIL taken for each. Each call also lets Python handle a pending signal, so Ctrl-C stops a run.
// An exception raised by the callable (or the signal's KeyboardInterrupt) stops the run and is
// raised again by rethrow_if_raised, unchanged.
class PythonProgress {
public:
    explicit PythonProgress(py::object callback) : callback_(std::move(callback)) {}

    ProgressFn function() {
        return [this](std::int64_t done, std::int64_t total) { return call(done, total); };
    }

    // With the GIL held, after the run stopped.
    void rethrow_if_raised() {
        if (raised_) throw *raised_;
    }

private:
    bool call(std::int64_t done, std::int64_t total) {
        py::gil_scoped_acquire gil;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (callback_.is_none()) return true;
            const py::object answer = callback_(done, total);
            if (answer.is_none()) return true;  // a callback that returns nothing goes on
            const int go_on = PyObject_IsTrue(answer.ptr());
            if (go_on < 0) throw py::error_already_set();
            return go_on != 0;
        } catch (py::error_already_set& e) {
            raised_.emplace(e);
            return false;
        }
    }

    py::object callback_;
    std::optional<py::error_already_set> raised_;
};

// The scene with the call's backend, checked again by the scene's rules.
SceneObject with_backend(const SceneObject& s, const std::optional<std::string>& backend) {
    if (!backend) return s;
    SceneObject copy = s;
    copy.scene.run.backend = parse_backend(*backend, "backend");
    validate_scene(copy.scene, s.label);
    return copy;
}

void check_progress(const py::object& progress) {
    if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
        throw py::type_error("progress must be a callable progress(done, total) or None");
}

// `engine(progress, &note)` run with the GIL released and `progress` called through
// PythonProgress; a cancel raises Cancelled, or the callback's own exception unchanged.
template <class Engine>
ResultObject run_released(const py::object& progress, const std::string& label, const Engine& engine) {
    PythonProgress report(progress);
    ResultObject out;
    bool cancelled = false;
    {
        py::gil_scoped_release release;
        try {
            Result r = engine(report.function(), &out.note);
            r.scene = std::filesystem::path(label).filename().string();
            out.result = std::make_shared<const Result>(std::move(r));
        } catch (const Cancelled&) {
            cancelled = true;
        }
    }
    if (cancelled) {
        report.rethrow_if_raised();
        throw Cancelled{};
    }
    return out;
}

ResultObject run(const std::variant<ProblemObject, SceneObject>& what, const py::object& progress,
                 const std::optional<std::string>& backend) {
    ProblemObject problem = std::holds_alternative<ProblemObject>(what)
                                ? std::get<ProblemObject>(what)
                                : build_problem(with_backend(std::get<SceneObject>(what), backend));
    if (backend && std::holds_alternative<ProblemObject>(what)) {
        WaveProblem copy = *problem.problem;
        copy.backend = parse_backend(*backend, "backend");
        problem.problem = std::make_shared<const WaveProblem>(std::move(copy));
    }
    check_progress(progress);

    return run_released(progress, problem.label, [&](const ProgressFn& report, std::string* note) {
        return run_wave(*problem.problem, report, note);
    });
}

// voxwave.scan: the scene's scan, as voxwave-cli scan runs it (the scene rasterised once, then
// run_probe_scan in groups of `batch`, and an fmc's or pwi's acquisition), with the same refusal
// of a scene without one.
ResultObject scan(const SceneObject& what, const py::object& progress, const std::optional<std::string>& backend,
                  long long batch) {
    const SceneObject s = with_backend(what, backend);
    if (!s.scene.scan) throw InputError(s.label, "scan", "the scene has no scan (add a \"scan\" block naming a probe)");
    if (batch < 0) throw InputError("", "batch", "must be 0 (from memory) or a positive number of shots");
    check_progress(progress);
    std::shared_ptr<const ArrayAcquisition> acquisition;
    ResultObject out = run_released(progress, s.label, [&](const ProgressFn& report, std::string* note) {
        const VoxelGrid model = rasterise(s.scene);
        Result r = run_probe_scan(s.scene, model, s.label, report, note, {}, nullptr, std::size_t(batch));
        if (s.scene.scan->array_acquisition())
            acquisition = std::make_shared<const ArrayAcquisition>(scan_array_acquisition(s.scene, model, r, s.label));
        return r;
    });
    out.acquisition = std::move(acquisition);
    return out;
}

py::tuple cuda_available() {
    std::string why;
    const auto devices = cuda_devices(&why);
    if (devices.empty()) return py::make_tuple(false, why);
    return py::make_tuple(true, devices.front().name);
}

}  // namespace

void bind_run(py::module_& m) {
    m.def("run", &run, py::arg("scene"), py::arg("progress") = py::none(), py::arg("backend") = py::none(),
          "Runs a voxwave.Scene or voxwave.Problem and returns its voxwave.Result.\n\n"
          "progress: None or a callable progress(done, total) (time steps), called about 200 times a "
          "run; returning False cancels (voxwave.Cancelled), and an exception it raises stops the run "
          "and propagates.\n"
          "backend: 'auto', 'cpu' or 'cuda' instead of the scene's run.backend.\n"
          "The GIL is released while the engine runs; errors raise voxwave.InputError with "
          "voxwave-cli's message.");
    m.def("scan", &scan, py::arg("scene"), py::arg("progress") = py::none(), py::arg("backend") = py::none(),
          py::arg("batch") = 0,
          "Runs the scene's probe scan (its \"scan\" block: single, linear or raster shots; fmc: each element "
          "fires alone; pwi: one plane wave per angle), as voxwave-cli scan does, and returns a voxwave.Result: "
          "the first shot's traces and probes, the whole scan in Result.scan and an fmc's or pwi's "
          "acquisition in Result.acquisition (also Result.fmc or Result.pwi), which voxwave.image images.\n\n"
          "progress: as voxwave.run's, counting time steps over all shots; returning False cancels.\n"
          "backend: 'auto', 'cpu' or 'cuda' instead of the scene's run.backend.\n"
          "batch: shots stepped together, as voxwave-cli scan --batch (0: from the GPU's memory, one at a "
          "time on the CPU; 1: one after another).\n"
          "A scene without a scan, or a shot whose footprint leaves the model, raises voxwave.InputError "
          "with voxwave-cli's message.");
    m.def("cuda_available", &cuda_available,
          "(True, device name) when this build has CUDA and this machine a device; (False, why) otherwise.");
    m.def("cuda_compiled", &cuda_compiled, "Whether this build has the CUDA engine.");
}

}  // namespace voxwave::python
