#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>

#include "core/hdf5_util.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;

Result sample_result(std::size_t n, std::size_t nt) {
    Result r;
    r.method = "tcovfem";
    r.precision = "fp64";
    r.backend = "cuda";
    r.stages = 8;
    r.spacing = 0.002;
    r.dt = 5e-8;
    r.steps = 16384;
    r.wall_seconds = 14.2 + 1.0 / 3;
    r.setup_seconds = 0.2 + 1.0 / 7;
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    for (std::size_t i = 0; i < n; ++i) {
        r.receiver_names.push_back(i == 1 ? "récepteur ünïcode" : "R" + std::to_string(i + 1));
        r.receiver_positions.push_back({0.026 + 0.034 * double(i), 0.06, 0.384});
    }
    for (std::size_t t = 0; t < nt; ++t) r.time.push_back(double(t) * r.dt);
    for (std::size_t k = 0; k < n * nt * 3; ++k) {
        r.displacement.push_back(u(rng) * 1e-9);
        r.velocity.push_back(u(rng) * 1e-3);
    }
    // Awkward values must survive bit for bit.
    if (!r.displacement.empty()) {
        r.displacement[0] = -0.0;
        r.displacement.back() = std::numeric_limits<double>::denorm_min();
        r.velocity[0] = std::numeric_limits<double>::max();
    }
    return r;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

TEST(ResultH5, RoundTripIsBitExact) {
    test::TempDir dir;
    const std::string path = dir.file("out.h5");
    Result r = sample_result(3, 17);
    write_result_h5(path, r);
    Result back = read_result_h5(path);
    EXPECT_EQ(back, r);
    EXPECT_TRUE(same_bits(back.displacement, r.displacement));  // == treats -0.0 as 0.0
    EXPECT_TRUE(same_bits(back.velocity, r.velocity));
    EXPECT_TRUE(std::signbit(back.displacement[0]));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.h5"});
}

TEST(ResultH5, LayoutIsTheDocumentedOne) {
    // docs/architecture.md#files-and-cli: what h5py and ParaView users see.
    test::TempDir dir;
    const std::string path = dir.file("out.h5");
    write_result_h5(path, sample_result(2, 5));
    h5::File f = h5::File::open_read(path);
    EXPECT_EQ(f.read_string_attribute("/", "format"), "voxwave-result");
    EXPECT_EQ(f.read_int_attribute("/", "version"), 1);
    EXPECT_EQ(f.read_int_attribute("/", "steps"), 16384);
    EXPECT_EQ(f.read_double_attribute("/", "dt"), 5e-8);
    EXPECT_EQ(f.dims("/receivers/names"), (std::vector<hsize_t>{2}));
    EXPECT_EQ(f.dims("/receivers/positions"), (std::vector<hsize_t>{2, 3}));
    EXPECT_EQ(f.dims("/traces/time"), (std::vector<hsize_t>{5}));
    EXPECT_EQ(f.dims("/traces/displacement"), (std::vector<hsize_t>{2, 5, 3}));
    EXPECT_EQ(f.dims("/traces/velocity"), (std::vector<hsize_t>{2, 5, 3}));
    // Row-major (receiver, sample, component): element [1][4][2] is the last value.
    std::vector<double> u = f.read_doubles("/traces/displacement");
    EXPECT_EQ(u.back(), sample_result(2, 5).u(1, 4, 2));
}

TEST(ResultH5, NoReceiversAndNoVelocity) {
    test::TempDir dir;
    const std::string path = dir.file("out.h5");
    Result empty = sample_result(0, 9);
    write_result_h5(path, empty);
    EXPECT_EQ(read_result_h5(path), empty);

    Result no_samples = sample_result(2, 0);
    write_result_h5(path, no_samples);
    EXPECT_EQ(read_result_h5(path), no_samples);

    Result no_velocity = sample_result(2, 4);
    no_velocity.velocity.clear();
    write_result_h5(path, no_velocity);
    EXPECT_EQ(read_result_h5(path), no_velocity);
}

TEST(ResultH5, SceneNameIsOptional) {
    // The scene a run came from, when it was named; files without it (older ones) still read.
    test::TempDir dir;
    const std::string path = dir.file("out.h5");
    Result named = sample_result(2, 4);
    named.scene = "bloc armé.json";
    write_result_h5(path, named);
    EXPECT_EQ(h5::File::open_read(path).read_string_attribute("/", "scene"), "bloc armé.json");
    EXPECT_EQ(read_result_h5(path), named);

    const Result unnamed = sample_result(2, 4);
    write_result_h5(path, unnamed);
    EXPECT_FALSE(h5::File::open_read(path).has_attribute("/", "scene"));
    EXPECT_EQ(read_result_h5(path).scene, "");
}

TEST(ResultH5, InconsistentResultIsRefusedBeforeWriting) {
    test::TempDir dir;
    Result r = sample_result(2, 4);
    r.displacement.pop_back();
    EXPECT_THROW(write_result_h5(dir.file("out.h5"), r), RuntimeError);
    EXPECT_TRUE(dir.entries().empty());
}

TEST(ResultH5, BadFilesNameFileAndField) {
    test::TempDir dir;
    const std::string path = dir.file("out.h5");
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "", "cannot open: No such file or directory");

    test::write_file(path, "time,u\n0,0\n");
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "", "not an HDF5 file or truncated");

    write_result_h5(path, sample_result(4, 2000));
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "", "not an HDF5 file or truncated");

    // A valid HDF5 file that is something else.
    VoxelGrid g;
    g.n = {1, 1, 1};
    g.spacing = 1;
    g.ids = {1};
    write_voxels_h5(path, "/model/material_ids", g);
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "format", "missing attribute");
}

// Writes a result, then rewrites one part of it by hand.
template <class Edit>
std::string damaged_result(const test::TempDir& dir, Edit edit) {
    const std::string path = dir.file("damaged.h5");
    Result r = sample_result(2, 3);
    h5::File f = h5::File::create(path, path);
    f.write_attribute("/", "format", std::string("voxwave-result"));
    f.write_attribute("/", "version", std::int32_t(1));
    for (const char* s : {"method", "precision", "backend"}) f.write_attribute("/", s, std::string("x"));
    f.write_attribute("/", "stages", std::int32_t(8));
    for (const char* s : {"spacing", "dt", "wall_seconds"}) f.write_attribute("/", s, 1.0);
    f.write_attribute("/", "steps", std::int64_t(3));
    f.write_strings("/receivers/names", r.receiver_names);
    std::vector<double> pos(6, 0.0);
    f.write_doubles("/receivers/positions", {2, 3}, pos.data());
    edit(f, r);
    f.close();
    return path;
}

TEST(ResultH5, MissingOrMisshapenDatasets) {
    test::TempDir dir;
    std::string path = damaged_result(dir, [](h5::File& f, const Result& r) {
        f.write_doubles("/traces/displacement", {2, 3, 3}, r.displacement.data());
    });
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "/traces/time", "missing dataset");

    path = damaged_result(dir, [](h5::File& f, const Result& r) {
        f.write_doubles("/traces/time", {3}, r.time.data());
        f.write_doubles("/traces/displacement", {2, 9}, r.displacement.data());
    });
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "/traces/displacement",
                 "shape (2, 9), expected (2, 3, 3)");

    path = damaged_result(dir, [](h5::File& f, const Result& r) {
        f.write_attribute("/", "version", std::int32_t(2));
        f.write_doubles("/traces/time", {3}, r.time.data());
    });
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "version", "unsupported version 2");

    path = damaged_result(dir, [](h5::File& f, const Result& r) {
        f.write_attribute("/", "stages", 8.5);
        f.write_doubles("/traces/time", {3}, r.time.data());
    });
    expect_error(catch_input_error([&] { read_result_h5(path); }), path, "stages", "expected one integer");
}

}  // namespace
}  // namespace voxwave
