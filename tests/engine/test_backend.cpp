// The one backend rule (core/backend.hpp) that the wave engine and the solver labs share.
#include <gtest/gtest.h>

#include <string>

#include "core/backend.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"

using namespace voxwave;

namespace {

TEST(Backend, NamesParseToTheirEnumAndBack) {
    for (Backend b : {Backend::Auto, Backend::Cpu, Backend::Cuda}) EXPECT_EQ(parse_backend(to_string(b)), b);
    EXPECT_STREQ(to_string(Backend::Cuda), "cuda");
    try {
        parse_backend("gpu", "--backend");
        ADD_FAILURE() << "gpu must be refused";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "--backend");
        EXPECT_NE(std::string(e.what()).find("unknown backend 'gpu' (expected auto, cpu or cuda)"), std::string::npos)
            << e.what();
    }
}

TEST(Backend, CpuIsTakenAsRequested) {
    std::string note;
    EXPECT_EQ(resolve_backend(Backend::Cpu, note), Backend::Cpu);
    EXPECT_EQ(note, "backend cpu (requested)");
}

// Auto takes CUDA exactly when a device is there, and says which or why not; an explicit cuda
// without a device is refused on the caller's field. Both branches are checked on any machine.
TEST(Backend, AutoAndCudaFollowTheDeviceQuery) {
    std::string why;
    const auto devices = cuda_devices(&why);
    if (!cuda_compiled()) {
        EXPECT_TRUE(devices.empty());
        EXPECT_FALSE(why.empty());
    }
    std::string note;
    const Backend b = resolve_backend(Backend::Auto, note);
    if (devices.empty()) {
        EXPECT_EQ(b, Backend::Cpu);
        EXPECT_EQ(note, "backend auto -> cpu: " + why);
        try {
            resolve_backend(Backend::Cuda, note, "--backend");
            ADD_FAILURE() << "cuda without a device must be refused";
        } catch (const InputError& e) {
            EXPECT_EQ(e.field(), "--backend");
            EXPECT_NE(std::string(e.what()).find("cuda requested but " + why), std::string::npos) << e.what();
        }
    } else {
        EXPECT_EQ(b, Backend::Cuda);
        EXPECT_EQ(note, "backend auto -> cuda: " + devices.front().name);
        EXPECT_EQ(resolve_backend(Backend::Cuda, note), Backend::Cuda);
        EXPECT_EQ(note, "backend cuda (requested): " + devices.front().name);
    }
}

}  // namespace
