#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/hdf5_util.hpp"
#include "scene/result.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;

TEST(AtomicFile, WritesAndReplacesLeavingNoTemporary) {
    test::TempDir dir;
    const std::string path = dir.file("scene.json");
    write_text_atomically(path, "first");
    EXPECT_EQ(test::read_file(path), "first");
    write_text_atomically(path, "second, longer");
    EXPECT_EQ(test::read_file(path), "second, longer");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"scene.json"});
}

TEST(AtomicFile, MissingDirectoryThrowsAndCreatesNothing) {
    test::TempDir dir;
    const std::string path = dir.file("no-such-dir/x.json");
    InputError e = catch_input_error([&] { write_text_atomically(path, "x"); });
    expect_error(e, path, "", "cannot write: No such file or directory");
    EXPECT_TRUE(dir.entries().empty());

    const std::string abs = "/nonexistent-voxwave-dir/x.h5";
    e = catch_input_error([&] { write_file_atomically(abs, [](const std::string&) {}); });
    expect_error(e, abs, "", "cannot write");
    EXPECT_FALSE(std::filesystem::exists("/nonexistent-voxwave-dir"));
}

TEST(AtomicFile, ReadOnlyDirectoryThrows) {
    if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
    test::TempDir dir;
    std::filesystem::create_directory(dir.file("ro"));
    std::filesystem::permissions(dir.file("ro"),
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const std::string path = dir.file("ro/x.json");
    InputError e = catch_input_error([&] { write_text_atomically(path, "x"); });
    expect_error(e, path, "", "cannot write: Permission denied");
    std::filesystem::permissions(dir.file("ro"), std::filesystem::perms::owner_all);
    EXPECT_TRUE(std::filesystem::is_empty(dir.file("ro")));
}

TEST(AtomicFile, WriterFailureKeepsTheOldFile) {
    test::TempDir dir;
    const std::string path = dir.file("result.h5");
    write_text_atomically(path, "the user's previous file");
    std::string seen_temp;
    EXPECT_THROW(write_file_atomically(path,
                                       [&](const std::string& temp) {
                                           seen_temp = temp;
                                           test::write_file(temp, "half of the new con");
                                           throw std::runtime_error("disk full");
                                       }),
                 std::runtime_error);
    EXPECT_EQ(test::read_file(path), "the user's previous file");
    EXPECT_FALSE(std::filesystem::exists(seen_temp));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"result.h5"});
    // The temporary lives beside the target (same file system, so rename is atomic).
    EXPECT_EQ(std::filesystem::path(seen_temp).parent_path(), std::filesystem::path(path).parent_path());
    EXPECT_EQ(std::filesystem::path(seen_temp).filename().string().rfind("result.h5.tmp-", 0), 0u);
}

TEST(AtomicFile, Hdf5WriterFailureKeepsTheOldFile) {
    test::TempDir dir;
    const std::string path = dir.file("out.h5");
    write_text_atomically(path, "old");
    EXPECT_THROW(write_file_atomically(path,
                                       [&](const std::string& temp) {
                                           h5::File f = h5::File::create(temp, path);
                                           double x = 1;
                                           f.write_doubles("/a", {1}, &x);
                                           // A second dataset of the same name fails inside the library.
                                           f.write_doubles("/a", {1}, &x);
                                       }),
                 InputError);
    EXPECT_EQ(test::read_file(path), "old");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.h5"});
}

TEST(AtomicFile, PermissionsAreThoseOfAnOrdinaryFileOrTheReplacedOne) {
    test::TempDir dir;
    const std::string path = dir.file("a.json");
    mode_t mask = ::umask(0);
    ::umask(mask);
    write_text_atomically(path, "x");
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);  // not mkstemp's 0600

    ::chmod(path.c_str(), 0640);
    write_text_atomically(path, "y");
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(AtomicFile, ResultWriterToMissingDirectoryLeavesNothing) {
    Result r;
    r.method = "ovfem";
    const std::string path = "/nonexistent-voxwave-dir/x.h5";
    InputError e = catch_input_error([&] { write_result_h5(path, r); });
    expect_error(e, path, "", "cannot write: No such file or directory");
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace voxwave
