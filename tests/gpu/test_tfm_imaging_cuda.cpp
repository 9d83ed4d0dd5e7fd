// CUDA delay-and-sum imaging against the CPU's (docs/architecture.md#imaging): the same image to
// 1e-6 relative for TFM in LL and LT and for plane-wave compounding, on acquisitions of a point
// scatterer synthesised from a closed form. Skips without CUDA or a device.
#include <gtest/gtest.h>

#include <cmath>

#include "core/device.hpp"
#include "fmc_synthesis.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave {
namespace {

double cuda_vs_cpu(const ArrayAcquisition& a, ImagingMethod method, ImagingMode mode) {
    ImagingRequest r;
    r.method = method;
    r.mode = mode;
    r.backend = Backend::Cpu;
    const Image cpu = make_image(a, r);
    r.backend = Backend::Cuda;
    const Image gpu = make_image(a, r);
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_EQ(gpu.values.size(), cpu.values.size());
    double worst = 0, peak = 0;
    for (std::size_t i = 0; i < cpu.values.size() && i < gpu.values.size(); ++i) {
        worst = std::max(worst, std::fabs(gpu.values[i] - cpu.values[i]));
        peak = std::max(peak, std::fabs(cpu.values[i]));
    }
    EXPECT_GT(peak, 0);
    return worst / peak;
}

#define REQUIRE_CUDA()                                                             \
    do {                                                                           \
        std::string why;                                                           \
        if (!cuda_compiled()) GTEST_SKIP() << "this build has no CUDA";            \
        if (cuda_devices(&why).empty()) GTEST_SKIP() << "no CUDA device: " << why; \
    } while (0)

TEST(TfmImagingCuda, FmcImagesEqualTheCpu) {
    REQUIRE_CUDA();
    test::PointScatterer s;
    const ArrayAcquisition ll = test::point_scatterer_acquisition(s, AcquisitionType::Fmc);
    EXPECT_LT(cuda_vs_cpu(ll, ImagingMethod::Tfm, ImagingMode::LL), 1e-6);
    s.speed_rx = s.vs;
    s.samples = 1200;
    const ArrayAcquisition lt = test::point_scatterer_acquisition(s, AcquisitionType::Fmc);
    EXPECT_LT(cuda_vs_cpu(lt, ImagingMethod::Tfm, ImagingMode::LT), 1e-6);
}

TEST(TfmImagingCuda, PlaneWaveImagesEqualTheCpu) {
    REQUIRE_CUDA();
    const ArrayAcquisition a =
        test::point_scatterer_acquisition(test::PointScatterer{}, AcquisitionType::Pwi, {-10, -5, 0, 5, 10});
    EXPECT_LT(cuda_vs_cpu(a, ImagingMethod::Pwi, ImagingMode::LL), 1e-6);
}

}  // namespace
}  // namespace voxwave
