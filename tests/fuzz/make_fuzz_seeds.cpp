// Writes the HDF5 seed files of the fuzz corpora with the project's own writers (plus a few
// near-valid variants through the HDF5 C API), so the seeds can be regenerated when a format
// changes:  voxwave_fuzz_seeds <tests/fuzz>
#include <hdf5.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "core/hdf5_util.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"

namespace fs = std::filesystem;
using namespace voxwave;

namespace {

const char* kVoxels = "/model/material_ids";

VoxelGrid painted_grid() {
    // Matches scene_files/voxels_scene.json: 5 x 5 x 3 elements of 0.01 m, two materials.
    VoxelGrid g;
    g.n = {5, 5, 3};
    g.spacing = 0.01;
    for (std::size_t i = 0; i < g.element_count(); ++i) g.ids.push_back(MaterialId(i % 3));
    return g;
}

Result small_result(bool with_velocity) {
    Result r;
    r.method = "ovfem";
    r.precision = "fp64";
    r.backend = "cpu";
    r.stages = 8;
    r.spacing = 0.002;
    r.dt = 1e-7;
    r.steps = 4;
    r.wall_seconds = 0.5;
    r.setup_seconds = 0.1;
    r.receiver_names = {"R1", "R2"};
    r.receiver_positions = {{0.01, 0.02, 0.03}, {0.04, 0.05, 0.06}};
    r.time = {0, 1e-7, 2e-7, 3e-7};
    for (int i = 0; i < 2 * 4 * 3; ++i) r.displacement.push_back(1e-9 * i);
    if (with_velocity)
        for (int i = 0; i < 2 * 4 * 3; ++i) r.velocity.push_back(-1e-3 * i);
    return r;
}

// The first half of a file: the classic truncated download.
void write_truncated(const fs::path& from, const fs::path& to) {
    std::ifstream in(from, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
}

void write_int_dataset(const std::string& path, const char* name, hid_t file_type, const std::vector<long long>& v,
                       const std::vector<hsize_t>& dims) {
    h5::File f = h5::File::create(path, path);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t ds = H5Dcreate2(f.id(), name, file_type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Dclose(ds);
    H5Sclose(space);
    H5Pclose(lcpl);
    f.write_attribute(name, "spacing", 0.01);
    f.close();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s TESTS_FUZZ_DIR\n", argv[0]);
        return 2;
    }
    const fs::path root = argv[1];
    for (const char* d : {"scene_files", "voxels_h5", "result_h5", "wavelet_h5"}) fs::create_directories(root / d);
    auto p = [&](const char* dir, const char* name) { return (root / dir / name).string(); };

    // Files the scene corpus refers to.
    write_voxels_h5(p("scene_files", "voxels.h5"), kVoxels, painted_grid());
    {
        h5::File f = h5::File::create(p("scene_files", "samples.h5"), "samples.h5");
        std::vector<double> w{0, 0.5, 1, 0.5, 0, -0.5, -1, -0.5, 0};
        f.write_doubles("/wavelet", {w.size()}, w.data());
        f.close();
    }

    // Voxel reader: valid, wider integers, each attribute and shape rule, truncated.
    write_voxels_h5(p("voxels_h5", "valid.h5"), kVoxels, painted_grid());
    {
        VoxelGrid g = painted_grid();
        g.origin = {-0.5, 0.25, 1e-3};
        write_voxels_h5(p("voxels_h5", "with_origin.h5"), kVoxels, g);
    }
    write_int_dataset(p("voxels_h5", "int64.h5"), kVoxels, H5T_STD_I64LE, {0, 1, 2, 255}, {2, 1, 2});
    write_int_dataset(p("voxels_h5", "int16_out_of_range.h5"), kVoxels, H5T_STD_I16BE, {0, 1, 300, 2}, {1, 2, 2});
    write_int_dataset(p("voxels_h5", "rank2.h5"), kVoxels, H5T_STD_U8LE, {0, 1, 2, 1}, {2, 2});
    {
        h5::File f = h5::File::create(p("voxels_h5", "float_ids.h5"), "float_ids.h5");
        std::vector<double> ids{0, 1, 2, 1};
        f.write_doubles(kVoxels, {1, 2, 2}, ids.data());
        f.write_attribute(kVoxels, "spacing", 0.01);
        f.close();
    }
    {
        h5::File f = h5::File::create(p("voxels_h5", "bad_attributes.h5"), "bad_attributes.h5");
        std::vector<std::uint8_t> ids{0, 1, 2, 1};
        f.write_uint8(kVoxels, {1, 2, 2}, ids.data());
        f.write_attribute(kVoxels, "spacing", -1.0);
        f.write_attribute(kVoxels, "origin", std::vector<double>{0, 0});
        f.close();
    }
    write_truncated(p("voxels_h5", "valid.h5"), p("voxels_h5", "truncated.h5"));

    // Result reader: with and without velocity, a shape mismatch, a foreign format, truncated.
    write_result_h5(p("result_h5", "valid.h5"), small_result(true));
    write_result_h5(p("result_h5", "no_velocity.h5"), small_result(false));
    {
        Result r = small_result(false);
        r.receiver_names = {};
        r.receiver_positions = {};
        r.displacement = {};
        write_result_h5(p("result_h5", "no_receivers.h5"), r);
    }
    {
        write_result_h5(p("result_h5", "bad_shape.h5"), small_result(false));
        // Reopened read-write through the C API: a velocity dataset of the wrong shape.
        hid_t id = H5Fopen(p("result_h5", "bad_shape.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        hsize_t dims[2] = {2, 3};
        hid_t space = H5Screate_simple(2, dims, nullptr);
        hid_t ds = H5Dcreate2(id, "/traces/velocity", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        double v[6] = {1, 2, 3, 4, 5, 6};
        H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        H5Dclose(ds);
        H5Sclose(space);
        H5Fclose(id);
    }
    {
        h5::File f = h5::File::create(p("result_h5", "foreign.h5"), "foreign.h5");
        f.write_attribute("/", "format", std::string("something-else"));
        f.write_attribute("/", "version", std::int32_t(1));
        f.close();
    }
    write_truncated(p("result_h5", "valid.h5"), p("result_h5", "truncated.h5"));

    // Wavelet reader (dataset "/wavelet"): valid, integer, rank 2, a NaN, empty, truncated.
    {
        h5::File f = h5::File::create(p("wavelet_h5", "valid.h5"), "valid.h5");
        std::vector<double> w{0, 0.5, 1, 0.5, 0, -0.5, -1, -0.5, 0};
        f.write_doubles("/wavelet", {w.size()}, w.data());
        f.close();
    }
    write_int_dataset(p("wavelet_h5", "int32.h5"), "/wavelet", H5T_STD_I32LE, {0, 3, -2, 1}, {4});
    {
        h5::File f = h5::File::create(p("wavelet_h5", "rank2.h5"), "rank2.h5");
        std::vector<double> w{0, 1, 2, 3};
        f.write_doubles("/wavelet", {2, 2}, w.data());
        f.close();
    }
    {
        h5::File f = h5::File::create(p("wavelet_h5", "nan.h5"), "nan.h5");
        std::vector<double> w{0, std::numeric_limits<double>::quiet_NaN(), 1};
        f.write_doubles("/wavelet", {w.size()}, w.data());
        f.close();
    }
    {
        h5::File f = h5::File::create(p("wavelet_h5", "empty.h5"), "empty.h5");
        f.write_doubles("/wavelet", {0}, nullptr);
        f.write_strings("/names", {"a", "b"});
        f.close();
    }
    write_truncated(p("wavelet_h5", "valid.h5"), p("wavelet_h5", "truncated.h5"));
    std::printf("seeds written under %s\n", root.c_str());
    return 0;
}
