// TFM and plane-wave imaging (docs/architecture.md#imaging) on acquisitions synthesised from a
// closed form (fmc_synthesis.hpp): the image maximum sits at the scatterer within a quarter
// wavelength for LL, TT and LT; the delay-and-sum equals an independent sum written here; bad
// files and requests are refused with one line naming the file, dataset or option.
#include <gtest/gtest.h>

#include <complex>

#include "core/hdf5_util.hpp"
#include "fmc_synthesis.hpp"
#include "test_util.hpp"
#include "wave/receiver_scans.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave {
namespace {

using test::point_scatterer_acquisition;
using test::PointScatterer;

using test::image_peak;
using test::Peak;

ImagingRequest cpu_request(ImagingMethod method, ImagingMode mode = ImagingMode::LL) {
    ImagingRequest r;
    r.method = method;
    r.mode = mode;
    r.backend = Backend::Cpu;
    return r;
}

void expect_at_scatterer(const Image& im, const PointScatterer& s, double wavelength) {
    const Peak p = image_peak(im);
    EXPECT_NEAR(p.lateral, s.lateral, wavelength / 4) << "peak at depth " << p.depth;
    EXPECT_NEAR(p.depth, s.depth, wavelength / 4) << "peak at lateral " << p.lateral;
}

TEST(TfmImaging, FmcWithDefaultsPutsTheMaximumAtTheScatterer) {
    PointScatterer s;
    const ArrayAcquisition a = point_scatterer_acquisition(s, AcquisitionType::Fmc);
    const Image im = make_image(a, cpu_request(ImagingMethod::Tfm));
    const double wavelength = s.vp / s.frequency;
    // The defaults: a quarter-wavelength pixel over the aperture, from two wavelengths down.
    EXPECT_NEAR(im.pixel, wavelength / 4, 1e-12);
    EXPECT_NEAR(im.lateral.front(), -(s.elements - 1) / 2.0 * s.pitch, 1e-12);
    EXPECT_NEAR(im.depth.front(), 2 * wavelength, 1e-12);
    EXPECT_GT(im.depth.back(), s.depth);
    EXPECT_EQ(im.values.size(), im.n_depth() * im.n_lateral());
    expect_at_scatterer(im, s, wavelength);
}

TEST(TfmImaging, DefaultPixelFollowsTheSignalsSpectrumWithoutAFrequencyAttribute) {
    PointScatterer s;
    ArrayAcquisition a = point_scatterer_acquisition(s, AcquisitionType::Fmc);
    a.frequency = 0;
    a.vp = 0;  // and vp is the documented default, steel's
    const Image im = make_image(a, cpu_request(ImagingMethod::Tfm));
    EXPECT_EQ(im.vp, kDefaultImagingVp);
    // The Gaussian pulse's spectrum peaks at its carrier (to the FFT's bin, 1/(1024 dt) ~ 0.1 MHz).
    EXPECT_NEAR(im.frequency, s.frequency, 0.15e6);
    expect_at_scatterer(im, s, s.vp / s.frequency);
}

TEST(TfmImaging, ModesTTAndLTWithTwoVelocities) {
    for (ImagingMode mode : {ImagingMode::TT, ImagingMode::LT}) {
        PointScatterer s;
        s.speed_tx = mode == ImagingMode::TT ? s.vs : s.vp;
        s.speed_rx = s.vs;
        s.samples = 1200;
        const ArrayAcquisition a = point_scatterer_acquisition(s, AcquisitionType::Fmc);
        const Image im = make_image(a, cpu_request(ImagingMethod::Tfm, mode));
        SCOPED_TRACE(to_string(mode));
        EXPECT_EQ(im.vs, s.vs);
        expect_at_scatterer(im, s, s.vs / s.frequency);
        // The same data imaged as LL focuses elsewhere (deeper: the slower leg looks longer).
        const Peak wrong = image_peak(make_image(a, cpu_request(ImagingMethod::Tfm, ImagingMode::LL)));
        EXPECT_GT(wrong.depth, s.depth + s.vp / s.frequency);
    }
}

TEST(TfmImaging, PlaneWaveCompoundingPutsTheMaximumAtTheScatterer) {
    PointScatterer s;
    const ArrayAcquisition a = point_scatterer_acquisition(s, AcquisitionType::Pwi, {-12, -8, -4, 0, 4, 8, 12});
    const Image im = make_image(a, cpu_request(ImagingMethod::Pwi));
    EXPECT_EQ(im.method, "pwi");
    expect_at_scatterer(im, s, s.vp / s.frequency);
}

// delay_and_sum_cpu against a direct sum over the analytic signals written here: element
// positions from the file (not the array frame), times from the pixel's 3D position.
TEST(TfmImaging, DelayAndSumEqualsADirectSum) {
    for (AcquisitionType type : {AcquisitionType::Fmc, AcquisitionType::Pwi}) {
        PointScatterer s;
        s.elements = 6;
        s.samples = 700;
        s.speed_rx = s.vs;
        const ArrayAcquisition a = point_scatterer_acquisition(s, type, {-10, 0, 15});
        ImagingRequest r =
            cpu_request(type == AcquisitionType::Fmc ? ImagingMethod::Tfm : ImagingMethod::Pwi, ImagingMode::LT);
        r.has_region = true;
        r.region = {-2e-3, 2.5e-3, 8e-3, 11e-3};
        r.pixel = 0.37e-3;
        const Image im = make_image(a, r);
        std::vector<std::vector<std::complex<double>>> z;
        for (std::size_t i = 0; i < a.n_tx * a.n_rx; ++i)
            z.push_back(analytic_signal(std::vector<double>(a.signal(i / a.n_rx, i % a.n_rx),
                                                            a.signal(i / a.n_rx, i % a.n_rx) + a.sample_count())));
        std::array<double, 3> centre{7e-3, 2e-3, 3e-3};  // fmc_synthesis.hpp's array centre
        double worst = 0, peak = 0;
        for (std::size_t d = 0; d < im.n_depth(); ++d)
            for (std::size_t l = 0; l < im.n_lateral(); ++l) {
                const std::array<double, 3> x{centre[0] + im.lateral[l], centre[1], centre[2] + im.depth[d]};
                auto dist = [&](std::size_t e) {
                    const auto& p = a.element_positions[e];
                    return std::sqrt((x[0] - p[0]) * (x[0] - p[0]) + (x[1] - p[1]) * (x[1] - p[1]) +
                                     (x[2] - p[2]) * (x[2] - p[2]));
                };
                std::complex<double> sum = 0;
                for (std::size_t tx = 0; tx < a.n_tx; ++tx)
                    for (std::size_t rx = 0; rx < a.n_rx; ++rx) {
                        double t = dist(rx) / s.vs;
                        if (type == AcquisitionType::Fmc) {
                            t += dist(tx) / s.vp;
                        } else {
                            const double th = a.angles[tx] * 3.14159265358979323846 / 180;
                            t += (im.lateral[l] * std::sin(th) + im.depth[d] * std::cos(th)) / s.vp;
                        }
                        const double k = (t + a.reference_time - a.time[0]) / s.dt;
                        if (k < 0 || k > double(a.sample_count() - 1)) continue;
                        const auto k0 = std::min(std::size_t(k), a.sample_count() - 2);
                        const double w = k - double(k0);
                        sum += (1 - w) * z[tx * a.n_rx + rx][k0] + w * z[tx * a.n_rx + rx][k0 + 1];
                    }
                worst = std::max(worst, std::fabs(std::abs(sum) - im.at(d, l)));
                peak = std::max(peak, std::abs(sum));
            }
        EXPECT_GT(peak, 0);
        EXPECT_LT(worst, 1e-12 * peak) << to_string(type);
    }
}

TEST(TfmImaging, AcquisitionAndImageFilesRoundTrip) {
    test::TempDir dir;
    PointScatterer s;
    s.elements = 4;
    s.samples = 300;
    const ArrayAcquisition a = point_scatterer_acquisition(s, AcquisitionType::Pwi, {-5, 5});
    write_array_acquisition_h5(dir.file("pwi.h5"), a);
    const ArrayAcquisition b = read_array_acquisition_h5(dir.file("pwi.h5"));
    EXPECT_EQ(b.type, AcquisitionType::Pwi);
    EXPECT_EQ(b.data, a.data);
    EXPECT_EQ(b.angles, a.angles);
    EXPECT_EQ(b.element_positions, a.element_positions);
    EXPECT_EQ(b.reference_time, a.reference_time);
    EXPECT_EQ(b.vs, a.vs);
    ImagingRequest r = cpu_request(ImagingMethod::Pwi);
    r.has_region = true;
    r.region = {-1e-3, 1e-3, 9e-3, 11e-3};
    r.pixel = 0.5e-3;
    const Image im = make_image(b, r, "pwi.h5");
    write_image_h5(dir.file("image.h5"), im);
    const Image back = read_image_h5(dir.file("image.h5"));
    EXPECT_EQ(back.values, im.values);
    EXPECT_EQ(back.lateral, im.lateral);
    EXPECT_EQ(back.depth, im.depth);
    EXPECT_EQ(back.element_lateral.size(), 4u);
    EXPECT_EQ(back.source, "pwi.h5");
    ASSERT_EQ(im.lateral.size(), 5u);  // -1, -0.5, 0, 0.5, 1 mm
    EXPECT_NEAR(im.lateral.back(), 1e-3, 1e-15);
}

// Replaces a dataset of a file being written.
void replace(h5::File& f, const std::string& name, const std::vector<hsize_t>& dims, const double* data) {
    H5Ldelete(f.id(), name.c_str(), H5P_DEFAULT);
    f.write_doubles(name, dims, data);
}

// A valid FMC file with one thing spoiled by `spoil`; the reader's message must name `field`.
void expect_bad_file(const std::function<void(h5::File&)>& spoil, const std::string& field, const std::string& reason) {
    test::TempDir dir;
    PointScatterer s;
    s.elements = 3;
    s.samples = 50;
    const std::string path = dir.file("fmc.h5");
    write_array_acquisition_h5(path, point_scatterer_acquisition(s, AcquisitionType::Fmc));
    {
        h5::File f = h5::File::create(dir.file("bad.h5"), dir.file("bad.h5"));
        const ArrayAcquisition a = read_array_acquisition_h5(path);
        std::vector<double> pos;
        for (const auto& p : a.element_positions) pos.insert(pos.end(), p.begin(), p.end());
        f.write_doubles("/fmc/data", {3, 3, 50}, a.data.data());
        f.write_doubles("/fmc/time", {50}, a.time.data());
        f.write_doubles("/fmc/element_positions", {3, 3}, pos.data());
        f.write_attribute("/fmc", "pitch", a.pitch);
        f.write_attribute("/fmc", "normal", std::vector<double>{0, 0, 1});
        f.write_attribute("/fmc", "array_axis", std::vector<double>{1, 0, 0});
        f.write_attribute("/fmc", "reference_time", a.reference_time);
        spoil(f);
        f.close();
    }
    if (field.empty()) {  // the unspoiled copy: must read
        EXPECT_EQ(read_array_acquisition_h5(dir.file("bad.h5")).n_tx, 3u);
        return;
    }
    try {
        read_array_acquisition_h5(dir.file("bad.h5"));
        ADD_FAILURE() << "accepted a file with a bad " << field;
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        EXPECT_NE(what.find("bad.h5"), std::string::npos) << what;
        EXPECT_NE(what.find(field), std::string::npos) << what;
        EXPECT_NE(what.find(reason), std::string::npos) << what;
    }
}

TEST(TfmImaging, BadAcquisitionFilesAreRefusedWithOneLineNamingTheDataset) {
    expect_bad_file([](h5::File&) {}, "", "");  // the hand-built file is valid until spoiled
    std::vector<double> v(9 * 50, 0.0), t(50), t2(49), pos6(6, 0.0);
    for (int k = 0; k < 50; ++k) t[std::size_t(k)] = k * 1e-8 + (k == 30 ? 3e-9 : 0);
    expect_bad_file([&](h5::File& f) { replace(f, "/fmc/time", {50}, t.data()); }, "/fmc/time", "uniformly");
    expect_bad_file([&](h5::File& f) { replace(f, "/fmc/time", {49}, t2.data()); }, "/fmc/time", "shape");
    expect_bad_file(
        [&](h5::File& f) {
            replace(f, "/fmc/element_positions", {2, 3}, pos6.data());
        },
        "/fmc/element_positions", "shape");
    expect_bad_file([&](h5::File& f) { replace(f, "/fmc/data", {3, 150}, v.data()); }, "/fmc/data", "3 dimensions");
    expect_bad_file(
        [&](h5::File& f) {
            f.write_attribute("/fmc", "normal", std::vector<double>{1, 0, 0});
        },
        "array_axis", "perpendicular");
    expect_bad_file([&](h5::File& f) { f.write_attribute("/fmc", "pitch", -1.0); }, "pitch", "positive");
    expect_bad_file(
        [&](h5::File& f) {
            f.write_attribute("/fmc", "normal", std::vector<double>{0, 1});
        },
        "normal", "expected 3");
    std::vector<double> nan_data(9 * 50, 0.0);
    nan_data[7] = std::nan("");
    expect_bad_file(
        [&](h5::File& f) {
            replace(f, "/fmc/data", {3, 3, 50}, nan_data.data());
        },
        "/fmc/data", "not finite");
}

TEST(TfmImaging, MissingPartsAreNamed) {
    test::TempDir dir;
    {
        h5::File f = h5::File::create(dir.file("empty.h5"), dir.file("empty.h5"));
        std::vector<double> x(3, 0.0);
        f.write_doubles("/traces/time", {3}, x.data());
        f.close();
    }
    try {
        read_array_acquisition_h5(dir.file("empty.h5"));
        ADD_FAILURE();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("empty.h5: /fmc/data: missing dataset"), std::string::npos) << e.what();
    }
    EXPECT_THROW(read_array_acquisition_h5(dir.file("none.h5")), InputError);
    EXPECT_THROW(read_image_h5(dir.file("empty.h5")), InputError);
}

TEST(TfmImaging, BadRequestsAreRefusedNamingTheOption) {
    PointScatterer s;
    s.elements = 4;
    s.samples = 400;
    ArrayAcquisition a = point_scatterer_acquisition(s, AcquisitionType::Fmc);
    auto refused = [&](ImagingRequest r, const std::string& field, const std::string& reason) {
        try {
            make_image(a, r);
            ADD_FAILURE() << "accepted a bad " << field;
        } catch (const InputError& e) {
            EXPECT_EQ(e.field(), field) << e.what();
            EXPECT_NE(e.reason().find(reason), std::string::npos) << e.what();
        }
    };
    ImagingRequest r = cpu_request(ImagingMethod::Tfm);
    r.has_region = true;
    r.region = {1e-3, -1e-3, 5e-3, 10e-3};
    refused(r, "region", "LAT0");
    r.region = {-1e-3, 1e-3, 10e-3, 5e-3};
    refused(r, "region", "DEPTH0");
    r.region = {-1e-3, 1e-3, 5e-3, 10e-3};
    r.pixel = -1;
    refused(r, "pixel", "positive");
    r.pixel = 1e-8;
    refused(r, "pixel", "pixels");
    refused(cpu_request(ImagingMethod::Pwi), "method", "FMC");
    a.vs = 0;
    refused(cpu_request(ImagingMethod::Tfm, ImagingMode::TT), "shear-velocity", "vs");
    ImagingRequest with_vs = cpu_request(ImagingMethod::Tfm, ImagingMode::LT);
    with_vs.vs = 3000;
    EXPECT_EQ(make_image(a, with_vs).vs, 3000);
    EXPECT_THROW(parse_imaging_mode("LX"), InputError);
    EXPECT_THROW(parse_imaging_method("saft"), InputError);
}

}  // namespace
}  // namespace voxwave
