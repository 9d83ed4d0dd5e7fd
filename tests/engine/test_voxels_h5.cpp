#include <filesystem>

#include "core/hdf5_util.hpp"
#include "scene/scene_io.hpp"
#include "scene/wavelet_samples.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;

VoxelGrid sample_grid() {
    VoxelGrid g;
    g.n = {4, 3, 2};
    g.spacing = 0.1 / 3;
    g.origin = {-0.5, 0.25, 1e-3};
    for (std::size_t i = 0; i < g.element_count(); ++i) g.ids.push_back(MaterialId(i * 11 % 256));
    return g;
}

TEST(VoxelsH5, RoundTripAndLayout) {
    test::TempDir dir;
    const std::string path = dir.file("painted.h5");
    VoxelGrid g = sample_grid();
    write_voxels_h5(path, "/model/material_ids", g);
    EXPECT_EQ(read_voxels_h5(path, "/model/material_ids"), g);
    // (nz, ny, nx) with x fastest, so h5py's ids[k, j, i] is element (i, j, k).
    h5::File f = h5::File::open_read(path);
    EXPECT_EQ(f.dims("/model/material_ids"), (std::vector<hsize_t>{2, 3, 4}));
    EXPECT_EQ(f.read_uint8("/model/material_ids")[3 + 4 * (2 + 3 * 1)], g.at(3, 2, 1));
    EXPECT_EQ(f.read_double_array_attribute("/model/material_ids", "origin"), (std::vector<double>{-0.5, 0.25, 1e-3}));
}

// Writes `values` as a dataset of `file_type` with the HDF5 C API (our writer only makes uint8).
void write_raw(hid_t file, const char* name, hid_t file_type, const std::vector<long long>& values, hsize_t nz) {
    hsize_t dims[3] = {nz, 1, values.size() / nz};
    hid_t space = H5Screate_simple(3, dims, nullptr);
    hid_t ds = H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    double spacing = 0.01;
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(ds, "spacing", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_DOUBLE, &spacing);
    H5Aclose(attr);
    H5Sclose(scalar);
    H5Dclose(ds);
    H5Sclose(space);
}

TEST(VoxelsH5, WiderIntegerTypesAreAcceptedWhenInRange) {
    // numpy's default integer is int64: that is what a user's h5py script writes.
    test::TempDir dir;
    const std::string path = dir.file("p.h5");
    {
        h5::File f = h5::File::create(path, path);
        write_raw(f.id(), "/ids64", H5T_STD_I64LE, {0, 1, 2, 255}, 2);
        write_raw(f.id(), "/too_big", H5T_STD_I16BE, {0, 1, 300, 2}, 1);
        write_raw(f.id(), "/negative", H5T_STD_I32LE, {0, -1, 3, 2}, 1);
        std::vector<double> as_double{0, 1, 2, 255};
        f.write_doubles("/ids_float", {1, 2, 2}, as_double.data());
        f.write_attribute("/ids_float", "spacing", 0.01);
        f.close();
    }
    VoxelGrid g = read_voxels_h5(path, "/ids64");
    EXPECT_EQ(g.n, (std::array<int, 3>{2, 1, 2}));
    EXPECT_EQ(g.ids, (std::vector<MaterialId>{0, 1, 2, 255}));
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/too_big"); }), path, "/too_big",
                 "value 300 outside 0..255");
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/negative"); }), path, "/negative",
                 "value -1 outside 0..255");
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/ids_float"); }), path, "/ids_float",
                 "expected an integer dataset");
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/nothing/here"); }), path, "/nothing/here",
                 "missing dataset");
}

TEST(VoxelsH5, ShapeAndAttributesAreChecked) {
    test::TempDir dir;
    const std::string path = dir.file("p.h5");
    {
        h5::File f = h5::File::create(path, path);
        std::vector<std::uint8_t> ids{1, 2, 3, 4};
        f.write_uint8("/flat", {4}, ids.data());
        f.write_uint8("/no_spacing", {1, 2, 2}, ids.data());
        f.write_uint8("/bad_origin", {1, 2, 2}, ids.data());
        f.write_attribute("/bad_origin", "spacing", 0.01);
        f.write_attribute("/bad_origin", "origin", std::vector<double>{0, 0});
        f.write_uint8("/no_origin", {1, 2, 2}, ids.data());
        f.write_attribute("/no_origin", "spacing", 0.01);
        f.close();
    }
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/flat"); }), path, "/flat", "expected a 3-D dataset");
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/no_spacing"); }), path,
                 "/no_spacing attribute 'spacing'", "missing attribute");
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/bad_origin"); }), path,
                 "/bad_origin attribute 'origin'", "expected 3 numbers");
    VoxelGrid g = read_voxels_h5(path, "/no_origin");  // origin defaults to 0
    EXPECT_EQ(g.origin, (std::array<double, 3>{0, 0, 0}));
    EXPECT_EQ(g.n, (std::array<int, 3>{2, 2, 1}));
}

TEST(VoxelsH5, TruncatedFile) {
    test::TempDir dir;
    const std::string path = dir.file("p.h5");
    VoxelGrid g = sample_grid();
    g.n = {40, 30, 20};
    g.ids.assign(g.element_count(), 1);
    write_voxels_h5(path, "/ids", g);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 100);
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/ids"); }), path, "", "not an HDF5 file or truncated");
}

TEST(Hdf5Util, StringsReadBackFromVariableAndFixedLength) {
    test::TempDir dir;
    const std::string path = dir.file("s.h5");
    {
        h5::File f = h5::File::create(path, path);
        f.write_strings("/names", {"a", "", "ünï"});
        f.write_attribute("/", "title", std::string("voxwave"));
        // Fixed-length, null-padded strings of 4 bytes, as older tools and numpy 'S4' write them.
        hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, 4);
        H5Tset_strpad(type, H5T_STR_NULLPAD);
        hsize_t n = 3;
        hid_t space = H5Screate_simple(1, &n, nullptr);
        hid_t ds = H5Dcreate2(f.id(), "/fixed", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        const char data[12] = {'R', '1', 0, 0, 'a', 'b', 'c', 'd', 0, 0, 0, 0};
        H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
        hid_t scalar = H5Screate(H5S_SCALAR);
        hid_t attr = H5Acreate2(f.id(), "fixed_title", type, scalar, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(attr, type, "xyz");
        H5Aclose(attr);
        H5Sclose(scalar);
        H5Dclose(ds);
        H5Sclose(space);
        H5Tclose(type);
        f.close();
    }
    h5::File f = h5::File::open_read(path);
    EXPECT_EQ(f.read_strings("/names"), (std::vector<std::string>{"a", "", "ünï"}));
    EXPECT_EQ(f.read_strings("/fixed"), (std::vector<std::string>{"R1", "abcd", ""}));
    EXPECT_EQ(f.read_string_attribute("/", "title"), "voxwave");
    EXPECT_EQ(f.read_string_attribute("/", "fixed_title"), "xyz");
    expect_error(catch_input_error([&] { f.read_doubles("/names"); }), path, "/names", "expected a numeric dataset");
    expect_error(catch_input_error([&] { f.read_string_attribute("/", "nope"); }), path, "nope", "missing attribute");
    expect_error(catch_input_error([&] { f.read_doubles("/names/x"); }), path, "/names/x", "missing dataset");
}

TEST(WaveletSamples, Hdf5SamplesLoad) {
    test::TempDir dir;
    const std::string path = dir.file("w.hdf5");
    std::vector<double> v{0.0, 0.25, -0.5};
    {
        h5::File f = h5::File::create(path, path);
        f.write_doubles("/wavelet", {3}, v.data());
        f.close();
    }
    EXPECT_TRUE(is_hdf5_path("X.H5"));
    EXPECT_FALSE(is_hdf5_path("x.csv"));
    EXPECT_EQ(load_wavelet_samples(path, "/wavelet"), v);
    expect_error(catch_input_error([&] { load_wavelet_samples(path, "/other"); }), path, "/other", "missing dataset");
}

}  // namespace
}  // namespace voxwave
