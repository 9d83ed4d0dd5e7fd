// Regression tests for what the fuzz targets (tests/fuzz, bench/results/fuzz.md) found in the
// readers, each written down as the behaviour the reader owes.
#include <hdf5.h>

#include "core/hdf5_util.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;

// fuzz_scene_json: a JSON key with an escaped newline was echoed into a two-line message.
TEST(FuzzFindings, ControlCharactersAreEscapedInInputErrorMessages) {
    InputError e("a\nb.json", "key\twith\ttabs", std::string("bell\x07 and DEL\x7f and CR\r"));
    EXPECT_EQ(std::string(e.what()), "a\\nb.json: key\\twith\\ttabs: bell\\x07 and DEL\\x7f and CR\\r");
    // The parts stay as the user wrote them: only the printed line is escaped.
    EXPECT_EQ(e.file(), "a\nb.json");
    EXPECT_EQ(e.field(), "key\twith\ttabs");
    // UTF-8 text (bytes >= 0x80) is not touched.
    EXPECT_EQ(std::string(InputError("", "", "B\xc3\xa9ton").what()), "B\xc3\xa9ton");
}

TEST(FuzzFindings, SceneKeyWithNewlineGivesOneLine) {
    const std::string text = R"({"format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.01, 0.01, 0.01], "spacing": 0.005},
      "materials": [{"name": "m", "d\nsity": 1000, "vp": 1500, "vs": 0}], "background": "m"})";
    InputError e = catch_input_error([&] { parse_scene_json(text, "s.json", ""); });
    EXPECT_EQ(e.field(), "materials[0].d\nsity");
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("materials[0].d\\nsity: unknown key"), std::string::npos) << what;
}

// fuzz_result_h5: a dataspace claiming ~2^49 values made read_doubles allocate for all of them
// (std::bad_alloc out of the reader). Here a legal file: a 2^40-value dataset never written.
TEST(FuzzFindings, DatasetLargerThanTheFileIsRefusedBeforeAllocating) {
    test::TempDir dir;
    const std::string path = dir.file("huge.h5");
    {
        h5::File f = h5::File::create(path, path);
        for (const char* name : {"/huge_doubles", "/huge_ids"}) {
            hsize_t dims[3] = {hsize_t(1) << 14, hsize_t(1) << 13, hsize_t(1) << 13};
            hid_t space = H5Screate_simple(3, dims, nullptr);
            hid_t ds = H5Dcreate2(f.id(), name, name[6] == 'd' ? H5T_IEEE_F64LE : H5T_STD_U8LE, space, H5P_DEFAULT,
                                  H5P_DEFAULT, H5P_DEFAULT);
            ASSERT_GE(ds, 0);
            H5Dclose(ds);
            H5Sclose(space);
        }
        f.write_attribute("/huge_ids", "spacing", 0.01);
        f.close();
    }
    h5::File f = h5::File::open_read(path);
    expect_error(catch_input_error([&] { f.read_doubles("/huge_doubles"); }), path, "/huge_doubles",
                 "declares more values than the file holds");
    expect_error(catch_input_error([&] { f.read_uint8("/huge_ids"); }), path, "/huge_ids",
                 "declares more values than the file holds");
    // The voxel reader's own limit (2^31 voxels) speaks first for a painted file.
    expect_error(catch_input_error([&] { read_voxels_h5(path, "/huge_ids"); }), path, "/huge_ids",
                 "more than 2^31 voxels");
}

}  // namespace
}  // namespace voxwave
