// `integrate --dump`: the first element's matrix for inspection in h5py (docs/architecture.md#files-and-cli: atomic).
#include "core/atomic_file.hpp"
#include "core/hdf5_util.hpp"
#include "integration/integration_lab.hpp"

namespace voxwave::integration {

void write_stiffness_h5(const std::string& path, const IntegrationParams& p, const IntegrationResult& r) {
    write_file_atomically(path, [&](const std::string& tmp) {
        h5::File f = h5::File::create(tmp, path);
        const hsize_t n = hsize_t(r.ndofs);
        f.write_doubles("/stiffness", {n, n}, r.first_element.data());
        const double ndofs = double(r.ndofs);
        f.write_doubles("/ndofs", {}, &ndofs);
        f.write_attribute("/", "format", std::string("voxwave-element-matrix"));
        f.write_attribute("/", "element", std::string(to_string(p.element)));
        f.write_attribute("/", "order", std::int32_t(p.order));
        f.write_attribute("/", "problem", std::string(to_string(p.problem)));
        f.write_attribute("/", "variant", std::string(to_string(p.variant)));
        f.write_attribute("/", "precision", std::string(p.fp64 ? "fp64" : "fp32"));
        f.write_attribute("/", "backend", r.backend);
        f.write_attribute("/", "integration_points", std::int32_t(r.points));
        f.close();
    });
}

}  // namespace voxwave::integration
