// The engine's errors as Python exceptions, with the engine's own one-line messages: what
// voxwave-cli prints after "voxwave-cli: error: " is exactly str() of the exception.
//
//   voxwave.Error                      base of everything below
//   voxwave.InputError(Error, ValueError)    InputError: "FILE: FIELD: REASON" (the CLI's exit 1)
//   voxwave.RunError(Error, RuntimeError)    any other engine failure (the CLI's exit 3)
//   voxwave.Cancelled(Error)                 a progress callback returned False
#include <new>

#include "bindings.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"

namespace voxwave::python {
namespace {

py::handle new_exception(py::module_& m, const char* name, const char* doc, py::handle bases) {
    const std::string qualified = std::string("voxwave.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
    if (!type) throw py::error_already_set();
    m.add_object(name, py::handle(type));  // the module holds the reference for its lifetime
    return type;
}

}  // namespace

void bind_errors(py::module_& m) {
    static py::handle error = new_exception(m, "Error", "Base of every voxwave error.", PyExc_Exception);
    static py::handle input_error =
        new_exception(m, "InputError",
                      "Bad input (a scene, a file, an argument): the message names the file, the field and the "
                      "reason, as voxwave-cli prints it.",
                      py::make_tuple(error, py::handle(PyExc_ValueError)));
    static py::handle run_error =
        new_exception(m, "RunError", "A failure that is not the input's fault (memory, a device, a library).",
                      py::make_tuple(error, py::handle(PyExc_RuntimeError)));
    static py::handle cancelled =
        new_exception(m, "Cancelled", "The run was cancelled: its progress callback returned False.", error);

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const py::error_already_set&) {
            throw;  // a Python exception on its way back: pybind11's own translator restores it
        } catch (const py::builtin_exception&) {
            throw;
        } catch (const InputError& e) {
            PyErr_SetString(input_error.ptr(), e.what());
        } catch (const Cancelled&) {
            PyErr_SetString(cancelled.ptr(), "cancelled");
        } catch (const std::bad_alloc&) {
            PyErr_SetString(run_error.ptr(), kOutOfMemoryMessage);
        } catch (const std::exception& e) {
            PyErr_SetString(run_error.ptr(), e.what());
        }
    });
}

}  // namespace voxwave::python
