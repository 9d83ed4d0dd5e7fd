// Numpy arrays over engine buffers, without copies. Every array a result object hands out is a
// read-only view of the engine's own vector; a capsule holding a shared_ptr to the vector's owner
// is the array's base, so the data lives as long as any array (or the result object) needs it.
// A new result kind (probes, scans, FMC) keeps its engine struct in a shared_ptr and returns its
// vectors through owned_array with their documented shapes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <memory>
#include <vector>

namespace voxwave::python {

namespace py = pybind11;

// A read-only C-ordered array of `shape` over `data`, which `owner` keeps alive.
template <class T, class Owner>
py::array_t<T> owned_array(const std::shared_ptr<Owner>& owner, const T* data, std::vector<py::ssize_t> shape) {
    auto* keep = new std::shared_ptr<Owner>(owner);
    py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<Owner>*>(p); });
    py::array_t<T> a(std::move(shape), data, base);
    // Read-only: the arrays are views of the one result; a user who wants to change values
    // takes .copy(), and the result object (and a later save) stays what the engine computed.
    a.attr("setflags")(py::arg("write") = false);
    return a;
}

// The same over a vector of 3-vectors (positions, directions): shape (n, 3).
template <class Owner>
py::array_t<double> owned_vec3_array(const std::shared_ptr<Owner>& owner, const std::vector<std::array<double, 3>>& v) {
    static_assert(sizeof(std::array<double, 3>) == 3 * sizeof(double));
    return owned_array(owner, v.empty() ? nullptr : v.front().data(), {py::ssize_t(v.size()), 3});
}

}  // namespace voxwave::python
