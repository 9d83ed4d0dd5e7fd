// Where the fused CUDA step does a run's sources and receivers (fused_points.hpp): the threshold's
// both sides for each count, the forced placements, and the benchmark knob (which overrides Auto
// only, and refuses an unknown value naming itself). Host logic only: runs without a device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/errors.hpp"
#include "wave/fused_points.hpp"

using namespace voxwave;

namespace {

// Sets VOXWAVE_FUSED_POINTS for one scope (unset: value null) and restores it after.
class KnobScope {
public:
    explicit KnobScope(const char* value) {
        if (const char* old = std::getenv(kName)) saved_ = old, had_ = true;
        value ? setenv(kName, value, 1) : unsetenv(kName);
    }
    ~KnobScope() { had_ ? setenv(kName, saved_.c_str(), 1) : unsetenv(kName); }

private:
    static constexpr const char* kName = "VOXWAVE_FUSED_POINTS";
    std::string saved_;
    bool had_ = false;
};

}  // namespace

TEST(FusedPoints, AutoKeepsUpToEightSourcesAndSixtyFourReceiversInTheKernel) {
    const KnobScope knob(nullptr);
    EXPECT_TRUE(fused_kernel_takes_points(FusedPoints::Auto, 0, 0));
    EXPECT_TRUE(fused_kernel_takes_points(FusedPoints::Auto, 1, 3));
    EXPECT_TRUE(fused_kernel_takes_points(FusedPoints::Auto, 8, 64));
    EXPECT_FALSE(fused_kernel_takes_points(FusedPoints::Auto, 9, 64));
    EXPECT_FALSE(fused_kernel_takes_points(FusedPoints::Auto, 8, 65));
    EXPECT_FALSE(fused_kernel_takes_points(FusedPoints::Auto, 0, 65));
    // An FMC single run: one element's face fires (about 84 nodes), every element's face records.
    EXPECT_FALSE(fused_kernel_takes_points(FusedPoints::Auto, 84, 2688));
}

TEST(FusedPoints, ForcedPlacementsIgnoreTheCountsAndTheKnob) {
    const KnobScope knob("launch");
    EXPECT_TRUE(fused_kernel_takes_points(FusedPoints::InKernel, 84, 2688));
    EXPECT_FALSE(fused_kernel_takes_points(FusedPoints::AfterKernel, 1, 0));
}

TEST(FusedPoints, KnobOverridesAutoAndRefusesUnknownValues) {
    {
        const KnobScope knob("kernel");
        EXPECT_TRUE(fused_kernel_takes_points(FusedPoints::Auto, 84, 2688));
    }
    {
        const KnobScope knob("launch");
        EXPECT_FALSE(fused_kernel_takes_points(FusedPoints::Auto, 1, 0));
    }
    {
        const KnobScope knob("");
        EXPECT_FALSE(fused_kernel_takes_points(FusedPoints::Auto, 9, 0));
    }
    const KnobScope knob("atomics");
    try {
        fused_kernel_takes_points(FusedPoints::Auto, 1, 0);
        FAIL() << "an unknown knob value was accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "VOXWAVE_FUSED_POINTS");
        EXPECT_NE(e.reason().find("atomics"), std::string::npos) << e.reason();
    }
}
