// CUDA delay-and-sum imaging against the CPU's (docs/architecture.md#imaging): the same image to
// 1e-6 relative for TFM in LL and LT, for plane-wave compounding and for sector scans (LL and LT,
// the lines and the fan drawn from them), on acquisitions of a point scatterer synthesised from a
// closed form. Skips without CUDA or a device.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "core/device.hpp"
#include "fmc_synthesis.hpp"
#include "require_cuda.hpp"
#include "wave/sector_imaging.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave {
namespace {

// The largest difference of two value arrays relative to the first one's peak (which must be > 0).
double relative_difference(const std::vector<double>& cpu, const std::vector<double>& gpu) {
    EXPECT_EQ(gpu.size(), cpu.size());
    double worst = 0, peak = 0;
    for (std::size_t i = 0; i < cpu.size() && i < gpu.size(); ++i) {
        worst = std::max(worst, std::fabs(gpu[i] - cpu[i]));
        peak = std::max(peak, std::fabs(cpu[i]));
    }
    EXPECT_GT(peak, 0);
    return worst / peak;
}

// What `make(request)` gives on the CPU and on CUDA.
template <class Make>
auto cpu_and_cuda(ImagingRequest r, const Make& make) {
    r.backend = Backend::Cpu;
    auto cpu = make(r);
    r.backend = Backend::Cuda;
    return std::make_pair(std::move(cpu), make(r));
}

double cuda_vs_cpu(const ArrayAcquisition& a, ImagingMethod method, ImagingMode mode) {
    ImagingRequest r;
    r.method = method;
    r.mode = mode;
    const auto [cpu, gpu] = cpu_and_cuda(r, [&](const ImagingRequest& q) { return make_image(a, q); });
    EXPECT_EQ(gpu.backend, "cuda");
    return relative_difference(cpu.values, gpu.values);
}

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

TEST(TfmImagingCuda, SectorImagesEqualTheCpu) {
    REQUIRE_CUDA();
    std::vector<double> angles;
    for (int a = -30; a <= 30; a += 2) angles.push_back(a);
    test::PointScatterer s;
    for (ImagingMode mode : {ImagingMode::LL, ImagingMode::LT}) {
        if (mode == ImagingMode::LT) {
            s.speed_rx = s.vs;
            s.samples = 1200;
        }
        const ArrayAcquisition a = test::point_scatterer_acquisition(s, AcquisitionType::Pwi, angles);
        ImagingRequest r;
        r.mode = mode;
        const auto [cpu, gpu] = cpu_and_cuda(r, [&](const ImagingRequest& q) { return make_sector_image(a, q); });
        EXPECT_EQ(cpu.backend, "cpu");
        EXPECT_EQ(gpu.backend, "cuda");
        ASSERT_EQ(gpu.ranges, cpu.ranges);
        ASSERT_EQ(gpu.angles, cpu.angles);
        EXPECT_LT(relative_difference(cpu.values, gpu.values), 1e-6) << to_string(mode);
        const Image fan_cpu = sector_scan_conversion(cpu), fan_gpu = sector_scan_conversion(gpu);
        EXPECT_EQ(fan_gpu.backend, "cuda");
        EXPECT_LT(relative_difference(fan_cpu.values, fan_gpu.values), 1e-6) << to_string(mode);
        // The same through the front ends' dispatch (voxwave-cli image --method sector).
        r.backend = Backend::Cuda;
        const Image by_name = make_image_by_method(a, "sector", r);
        EXPECT_EQ(by_name.values, fan_gpu.values);
    }
}

}  // namespace
}  // namespace voxwave
