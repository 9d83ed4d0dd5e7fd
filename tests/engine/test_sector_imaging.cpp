// Sector images of steered plane waves (wave/sector_imaging; docs/architecture.md#imaging): on a
// PWI of one point scatterer synthesised from the closed form (fmc_synthesis.hpp), the sector's
// maximum lies on the line nearest the scatterer's direction at its range, and the fan drawn in
// the array's plane peaks at the scatterer within a quarter wavelength with nothing outside the
// fan; an FMC is refused. make_image_by_method (the front ends' one dispatch) picks TFM for an
// FMC and compounding for a PWI by default, draws "sector" as the fan, and refuses other names.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "fmc_synthesis.hpp"
#include "wave/sector_imaging.hpp"

namespace voxwave {
namespace {

constexpr double kPi = 3.14159265358979323846;

ImagingRequest cpu() {
    ImagingRequest r;
    r.backend = Backend::Cpu;
    return r;
}

}  // namespace

TEST(SectorImage, PeaksOnTheLineTowardsTheScattererAtItsRange) {
    test::PointScatterer s;
    std::vector<double> angles;
    for (int a = -20; a <= 20; ++a) angles.push_back(a);
    const ArrayAcquisition a = test::point_scatterer_acquisition(s, AcquisitionType::Pwi, angles);
    const SectorImage sector = make_sector_image(a, cpu());
    ASSERT_EQ(sector.n_angle(), angles.size());
    ASSERT_EQ(sector.values.size(), sector.n_angle() * sector.n_range());
    std::size_t best_r = 0, best_a = 0;
    for (std::size_t r = 0; r < sector.n_range(); ++r)
        for (std::size_t k = 0; k < sector.n_angle(); ++k)
            if (sector.at(r, k) > sector.at(best_r, best_a)) best_r = r, best_a = k;
    const double direction = std::atan2(s.lateral, s.depth) * 180 / kPi, range = std::hypot(s.lateral, s.depth);
    const double quarter = s.vp / s.frequency / 4;
    std::printf("sector maximum at %.1f degrees, %.3f mm (scatterer at %.2f degrees, %.3f mm)\n", sector.angles[best_a],
                sector.ranges[best_r] * 1e3, direction, range * 1e3);
    EXPECT_LE(std::abs(sector.angles[best_a] - direction), 1.0);
    EXPECT_LE(std::abs(sector.ranges[best_r] - range), quarter);

    const Image im = sector_scan_conversion(sector);
    EXPECT_EQ(im.method, "sector");
    ASSERT_EQ(im.values.size(), im.n_lateral() * im.n_depth());
    std::size_t best = 0;
    for (std::size_t i = 0; i < im.values.size(); ++i)
        if (im.values[i] > im.values[best]) best = i;
    const double lat = im.lateral[best % im.n_lateral()], dep = im.depth[best / im.n_lateral()];
    EXPECT_LE(std::abs(lat - s.lateral), quarter) << lat;
    EXPECT_LE(std::abs(dep - s.depth), quarter) << dep;
    // Outside the fan (beyond 20 degrees, or nearer than its first range): nothing.
    std::size_t outside = 0, inside = 0;
    for (std::size_t d = 0; d < im.n_depth(); ++d)
        for (std::size_t l = 0; l < im.n_lateral(); ++l) {
            const double th = std::atan2(im.lateral[l], im.depth[d]) * 180 / kPi;
            const double r = std::hypot(im.lateral[l], im.depth[d]);
            if (std::abs(th) > 20.01 || r < sector.ranges.front() - 1e-12) {
                EXPECT_EQ(im.at(d, l), 0.0) << th << " " << r;
                ++outside;
            } else if (im.at(d, l) > 0) {
                ++inside;
            }
        }
    EXPECT_GT(outside, 0u);
    EXPECT_GT(inside, 0u);
}

TEST(SectorImage, AnFmcIsRefused) {
    test::PointScatterer s;
    s.elements = 4;
    const ArrayAcquisition a = test::point_scatterer_acquisition(s, AcquisitionType::Fmc);
    try {
        (void)make_sector_image(a, cpu());
        FAIL() << "an FMC made a sector image";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "method");
    }
}

TEST(SectorImage, TheFrontEndsDispatchByMethodName) {
    test::PointScatterer s;
    s.elements = 8;
    const ArrayAcquisition pwi = test::point_scatterer_acquisition(s, AcquisitionType::Pwi, {-10, 0, 10});
    const ArrayAcquisition fmc = test::point_scatterer_acquisition(s, AcquisitionType::Fmc);
    ImagingRequest r = cpu();
    const Image fan = make_image_by_method(pwi, "sector", r, "p.h5");
    const SectorImage lines = make_sector_image(pwi, r);
    EXPECT_EQ(lines.backend, "cpu");
    EXPECT_EQ(fan.method, "sector");
    EXPECT_EQ(fan.backend, "cpu");
    EXPECT_EQ(fan.source, "p.h5");
    EXPECT_EQ(fan.values, sector_scan_conversion(lines).values);
    // No name: what the acquisition holds.
    r.method = ImagingMethod::Pwi;
    EXPECT_EQ(make_image_by_method(pwi, "", cpu()).values, make_image(pwi, r).values);
    EXPECT_EQ(make_image_by_method(pwi, "", cpu()).method, "pwi");
    r.method = ImagingMethod::Tfm;
    EXPECT_EQ(make_image_by_method(fmc, "", cpu()).values, make_image(fmc, r).values);
    EXPECT_EQ(make_image_by_method(fmc, "tfm", cpu()).method, "tfm");
    try {
        (void)make_image_by_method(fmc, "saft", cpu(), "", {}, nullptr, "--method");
        FAIL() << "an unknown method was accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "--method");
        EXPECT_NE(std::string(e.what()).find("tfm, pwi or sector"), std::string::npos) << e.what();
    }
}

}  // namespace voxwave
