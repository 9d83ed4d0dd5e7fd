// Painted-voxel files: a uint8 dataset shaped (nz, ny, nx) with "spacing" and "origin" attributes.
#include <cmath>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"

namespace voxwave {

VoxelGrid read_voxels_h5(const std::string& path, const std::string& dataset) {
    h5::File f = h5::File::open_read(path);
    // Check the shape before reading, so a wrong dataset is refused without loading it.
    std::vector<hsize_t> dims = f.dims(dataset);
    if (dims.size() != 3)
        throw InputError(path, dataset,
                         "expected a 3-D dataset shaped (nz, ny, nx) (got rank " + std::to_string(dims.size()) + ")");
    std::size_t total = 1;
    for (hsize_t d : dims) {
        if (d == 0 || d > (hsize_t(1) << 30))
            throw InputError(path, dataset, "dimension " + std::to_string(d) + " out of range");
        total *= static_cast<std::size_t>(d);
    }
    if (total > kMaxElements) throw InputError(path, dataset, "more than 2^31 voxels");

    VoxelGrid g;
    g.n = {static_cast<int>(dims[2]), static_cast<int>(dims[1]), static_cast<int>(dims[0])};
    g.spacing = f.read_double_attribute(dataset, "spacing");
    if (!std::isfinite(g.spacing) || g.spacing <= 0)
        throw InputError(path, h5::attribute_field(dataset, "spacing"), "must be a positive number");
    // Origin is optional: a model painted from scratch naturally starts at 0.
    if (f.has_attribute(dataset, "origin")) {
        std::vector<double> o = f.read_double_array_attribute(dataset, "origin");
        if (o.size() != 3) throw InputError(path, h5::attribute_field(dataset, "origin"), "expected 3 numbers");
        for (int a = 0; a < 3; ++a) {
            if (!std::isfinite(o[a]))
                throw InputError(path, h5::attribute_field(dataset, "origin"), "must be finite numbers");
            g.origin[a] = o[a];
        }
    }
    // HDF5's row-major (nz, ny, nx) is exactly our x-fastest order.
    g.ids = f.read_uint8(dataset);
    return g;
}

void write_voxels_h5(const std::string& path, const std::string& dataset, const VoxelGrid& grid) {
    if (grid.ids.size() != grid.element_count())
        throw RuntimeError("write_voxels_h5: " + std::to_string(grid.ids.size()) + " ids for " +
                           std::to_string(grid.element_count()) + " elements");
    write_file_atomically(path, [&](const std::string& temp) {
        h5::File f = h5::File::create(temp, path);
        f.write_uint8(dataset, {hsize_t(grid.n[2]), hsize_t(grid.n[1]), hsize_t(grid.n[0])}, grid.ids.data());
        f.write_attribute(dataset, "spacing", grid.spacing);
        f.write_attribute(dataset, "origin", std::vector<double>(grid.origin.begin(), grid.origin.end()));
        f.close();
    });
}

}  // namespace voxwave
