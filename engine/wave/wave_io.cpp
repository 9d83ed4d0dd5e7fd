#include "wave/wave_io.hpp"

#include "core/atomic_file.hpp"
#include "core/hdf5_util.hpp"

namespace voxwave {
namespace {
void write_material_attributes(h5::File& f, const std::string& method, double ds, const Material& m) {
    f.write_attribute("/", "method", method);
    f.write_attribute("/", "spacing", ds);
    f.write_attribute("/", "density", m.density);
    f.write_attribute("/", "vp", m.vp);
    f.write_attribute("/", "vs", m.vs);
}
}  // namespace

void write_element_h5(const std::string& path, const std::string& method, double ds, const Material& m,
                      const ElementMatrix& k, const Eigen::Matrix<double, 24, 1>& mass) {
    write_file_atomically(path, [&](const std::string& tmp) {
        h5::File f = h5::File::create(tmp, path);
        // Row-major copy: HDF5 (and h5py) read C order, Eigen stores columns.
        Eigen::Matrix<double, 24, 24, Eigen::RowMajor> rm = k;
        f.write_doubles("/stiffness", {24, 24}, rm.data());
        f.write_doubles("/mass", {24}, mass.data());
        write_material_attributes(f, method, ds, m);
        f.close();
    });
}

void write_dispersion_h5(const std::string& path, const std::string& method, double ds, double dt,
                         const DispersionTable& t) {
    write_file_atomically(path, [&](const std::string& tmp) {
        h5::File f = h5::File::create(tmp, path);
        const hsize_t n = t.ppw.size(), m = t.directions.size();
        f.write_doubles("/ppw", {n}, t.ppw.data());
        std::vector<double> dirs;
        for (const auto& d : t.directions) dirs.insert(dirs.end(), d.begin(), d.end());
        f.write_doubles("/directions", {m, 3}, dirs.data());
        f.write_doubles("/velocity_ratio", {m, n, hsize_t(t.modes)}, t.velocity_ratio.data());
        f.write_attribute("/", "method", method);
        f.write_attribute("/", "spacing", ds);
        f.write_attribute("/", "dt", dt);
        f.close();
    });
}

}  // namespace voxwave
