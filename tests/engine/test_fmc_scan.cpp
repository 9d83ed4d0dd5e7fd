// FMC and PWI acquisitions simulated from an array probe (wave/probe_scan, scan.type "fmc" and
// "pwi"; docs/architecture.md#imaging): TFM of a simulated FMC finds a side-drilled hole's top,
// plane-wave imaging of a simulated PWI as well; an FMC's shot k equals a run of the scene with
// element k alone transmitting; the file carries exactly what the imaging's reader expects; the
// PWI laws cross the array centre at one time; bad scans are refused naming the field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "fmc_synthesis.hpp"
#include "probe/delay_law.hpp"
#include "scene/rasterise.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/array_acquisition.hpp"
#include "wave/probe_scan.hpp"
#include "wave/tfm_imaging.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kVp = 5900, kVs = 3200, kF = 2e6, kCycles = 2;

using test::image_peak;
using test::Peak;

// The block, the example scene assets/scenes/probe_fmc_sdh.json: steel, a 16-element
// 1 mm pitch array at 2 MHz (2-cycle tone burst) on the top face of a slab one voxel (0.25 mm)
// thick, a 2 mm side-drilled hole through it 20 mm under the array's centre. The slab is a
// plane-stress plate (free faces 0.5 MHz mm apart, far below its first thickness resonance), so
// its P wave is the plate's, c = sqrt(E / (rho (1 - nu^2))) (5377 m/s in steel): a slab 4 voxels
// thick (2 MHz mm) carried dispersive plate modes that rang under each element and put the TFM
// maximum 3 mm too deep. 11.8 voxels a P wavelength, 8 across the hole, PML on the sides and the
// bottom so that only the hole echoes; the record (9 us) ends after the farthest element pair's
// echo off the hole's top (2 sqrt(7.5^2 + 19^2) mm / c after the 1 us burst).
constexpr double kHoleDepth = 20e-3, kHoleRadius = 1e-3;

// The plane-stress P speed from vp and vs: E / rho = vs^2 (3 vp^2 - 4 vs^2) / (vp^2 - vs^2),
// nu = (vp^2 - 2 vs^2) / (2 (vp^2 - vs^2)).
double plate_velocity() {
    const double p2 = kVp * kVp, s2 = kVs * kVs;
    const double e_over_rho = s2 * (3 * p2 - 4 * s2) / (p2 - s2), nu = (p2 - 2 * s2) / (2 * (p2 - s2));
    return std::sqrt(e_over_rho / (1 - nu * nu));
}

Scene side_drilled_hole_scene(const std::string& type) {
    Scene s = read_scene_json(std::string(VOXWAVE_ASSETS_DIR) + "/scenes/probe_fmc_sdh.json");
    // The example is the configuration.
    EXPECT_EQ(s.probes.at(0).elements, 16);
    EXPECT_DOUBLE_EQ(s.probes[0].pitch, 1e-3);
    EXPECT_EQ(s.probes[0].wavelet.type, WaveletType::ToneBurst);
    EXPECT_DOUBLE_EQ(s.probes[0].wavelet.frequency, kF);
    EXPECT_DOUBLE_EQ(s.probes[0].wavelet.cycles, kCycles);
    const auto& hole = std::get<CylinderShape>(s.shapes.at(0).geometry);
    EXPECT_DOUBLE_EQ(hole.radius, kHoleRadius);
    EXPECT_DOUBLE_EQ(s.probes[0].center[2] - hole.center[2], kHoleDepth);
    EXPECT_DOUBLE_EQ(s.probes[0].center[0], hole.center[0]);
    s.run.backend = Backend::Cpu;
    s.scan->type = type;
    if (type == "pwi") {
        s.scan->angles = {-10, 0, 10};
        s.probes[0].delay_law.velocity = plate_velocity();  // steer in the plate
    }
    validate_scene(s, "sdh");
    return s;
}

// One simulated acquisition per type, shared by the tests that image it.
const ArrayAcquisition& simulated(const std::string& type) {
    static std::map<std::string, ArrayAcquisition> cache;
    auto it = cache.find(type);
    if (it != cache.end()) return it->second;
    const Scene s = side_drilled_hole_scene(type);
    const VoxelGrid model = rasterise(s);
    const Result r = run_probe_scan(s, model, "sdh", {});
    return cache[type] = scan_array_acquisition(s, model, r, "sdh");
}

ImagingRequest around_the_hole(ImagingMethod method) {
    ImagingRequest q;
    q.method = method;
    q.backend = Backend::Cpu;
    q.has_region = true;
    q.region = {-7.5e-3, 7.5e-3, 12e-3, 25e-3};
    q.pixel = 0.1e-3;
    q.vp = plate_velocity();
    return q;
}

// The must-show: the TFM image's maximum at the hole's top (lateral 0, depth 19 mm)
// within a quarter P wavelength laterally and half a wavelength in depth.
void expect_at_the_holes_top(const Image& im, const char* what) {
    const Peak p = image_peak(im);
    const double lambda = plate_velocity() / kF;
    std::printf("%s: maximum at lateral %.3f mm, depth %.3f mm (hole top at 0, 19 mm; lambda_P %.3f mm)\n", what,
                p.lateral * 1e3, p.depth * 1e3, lambda * 1e3);
    EXPECT_LE(std::abs(p.lateral), 0.25 * lambda);
    EXPECT_LE(std::abs(p.depth - (kHoleDepth - kHoleRadius)), 0.5 * lambda);
}

}  // namespace

TEST(FmcScan, TfmOfASimulatedFmcFindsTheSideDrilledHolesTop) {
    const ArrayAcquisition& a = simulated("fmc");
    ASSERT_EQ(a.n_tx, 16u);
    ASSERT_EQ(a.n_rx, 16u);
    expect_at_the_holes_top(make_image(a, around_the_hole(ImagingMethod::Tfm)), "TFM of the simulated FMC");
}

TEST(PwiScan, PlaneWaveImageOfASimulatedPwiFindsTheSideDrilledHolesTop) {
    const ArrayAcquisition& a = simulated("pwi");
    ASSERT_EQ(a.n_tx, 3u);
    ASSERT_EQ(a.n_rx, 16u);
    expect_at_the_holes_top(make_image(a, around_the_hole(ImagingMethod::Pwi)), "PWI image of the simulated PWI");
}

namespace {

// A small block for the exact comparisons: 4 elements, 40 steps.
Scene small_scene(const std::string& type) {
    Scene s = array_on_steel_block(4, 1e-3, 0.8e-3);
    s.probes[0].wavelet.delay = 0.1e-6;
    ScanSpec scan;
    scan.probe = "PA";
    scan.type = type;
    if (type == "pwi") scan.angles = {-20, 5, 30};
    s.scan = scan;
    validate_scene(s, "small");
    return s;
}

}  // namespace

// Shot k of the FMC against a run of the scene in which a one-element aperture [k, 1] transmits
// and a second, receive-only copy of the array listens on every element.
TEST(FmcScan, ShotKEqualsARunWithOnlyElementKTransmitting) {
    const Scene s = small_scene("fmc");
    const Result r = run_probe_scan(s, rasterise(s), "small", {});
    ASSERT_TRUE(r.scan.has_value());
    const std::size_t n = 4, nt = r.sample_count();
    ASSERT_EQ(r.scan->shot_signals.size(), n * n * nt);
    for (int k : {0, 2, 3}) {
        Scene single = s;
        single.scan.reset();
        ProbeSpec sender = s.probes[0], listener = s.probes[0];
        sender.name = "TX";
        sender.receive = false;
        sender.active_first = k;
        sender.active_count = 1;
        listener.transmit = false;
        single.probes = {sender, listener};
        validate_scene(single, "single");
        const Result one = run_wave(build_wave_problem(single, "single"), {});
        ASSERT_EQ(one.probes.size(), 1u);
        const std::vector<double>& want = one.probes[0].element_signals;
        ASSERT_EQ(want.size(), n * nt);
        double peak = 0, diff = 0;
        for (std::size_t i = 0; i < n * nt; ++i) {
            peak = std::max(peak, std::abs(want[i]));
            diff = std::max(diff, std::abs(r.scan->shot_signals[std::size_t(k) * n * nt + i] - want[i]));
        }
        EXPECT_GT(peak, 0);
        EXPECT_LE(diff, 1e-12 * peak) << "shot " << k;
    }
}

// The result file of an FMC scan carries /fmc as the imaging reads it: shapes, element
// positions on the face, pitch, frame, the tone burst's centre as the reference time, the
// steel's speeds and the centre frequency; the scan datasets stay readable as before.
TEST(FmcScan, ResultFileCarriesTheAcquisitionTheImagingReads) {
    const Scene s = small_scene("fmc");
    const VoxelGrid model = rasterise(s);
    const Result r = run_probe_scan(s, model, "small", {});
    const ArrayAcquisition a = scan_array_acquisition(s, model, r, "small");
    test::TempDir dir;
    const std::string path = dir.file("fmc.h5");
    write_result_h5(path, r, [&](h5::File& f) { write_array_acquisition_group(f, a); });

    const std::size_t n = 4, nt = r.sample_count();
    h5::File f = h5::File::open_read(path);
    EXPECT_EQ(f.dims("/fmc/data"), (std::vector<hsize_t>{n, n, nt}));
    EXPECT_EQ(f.dims("/fmc/time"), (std::vector<hsize_t>{nt}));
    EXPECT_EQ(f.dims("/fmc/element_positions"), (std::vector<hsize_t>{n, 3}));
    EXPECT_FALSE(f.has_dataset("/fmc/angles"));
    const std::vector<double> pos = f.read_doubles("/fmc/element_positions");
    const ProbeSpec& p = s.probes[0];
    for (std::size_t e = 0; e < n; ++e) {
        EXPECT_NEAR(pos[3 * e], p.center[0] + (double(e) - 1.5) * 1e-3, 1e-15) << e;
        EXPECT_NEAR(pos[3 * e + 1], p.center[1], 1e-15);
        EXPECT_NEAR(pos[3 * e + 2], p.center[2], 1e-15);
    }
    const std::vector<double> time = f.read_doubles("/fmc/time");
    for (std::size_t i = 0; i < nt; ++i) EXPECT_DOUBLE_EQ(time[i], double(i) * r.dt);
    EXPECT_DOUBLE_EQ(f.read_double_attribute("/fmc", "pitch"), 1e-3);
    EXPECT_EQ(f.read_double_array_attribute("/fmc", "normal"), (std::vector<double>{0, 0, -1}));
    EXPECT_EQ(f.read_double_array_attribute("/fmc", "array_axis"), (std::vector<double>{1, 0, 0}));
    EXPECT_DOUBLE_EQ(f.read_double_attribute("/fmc", "reference_time"), 0.1e-6 + 0.5 * kCycles / kF);
    EXPECT_DOUBLE_EQ(f.read_double_attribute("/fmc", "vp"), kVp);
    EXPECT_DOUBLE_EQ(f.read_double_attribute("/fmc", "vs"), kVs);
    EXPECT_DOUBLE_EQ(f.read_double_attribute("/fmc", "frequency"), kF);
    const std::vector<double> data = f.read_doubles("/fmc/data");
    EXPECT_EQ(data, r.scan->shot_signals);

    const ArrayAcquisition back = read_array_acquisition_h5(path);
    EXPECT_EQ(back.type, AcquisitionType::Fmc);
    EXPECT_EQ(back.data, a.data);
    const Result again = read_result_h5(path);
    ASSERT_TRUE(again.scan.has_value());
    EXPECT_EQ(again.scan->type, "fmc");
    EXPECT_EQ(again.scan->positions, 4);
    EXPECT_EQ(again.scan->shot_signals, r.scan->shot_signals);
}

// A PWI's laws: shot k fires element e at x_e sin(angle_k) / c + T with one T for every shot
// (the front crosses the centre at T after the burst starts), the earliest delay of all 0; the
// file's reference time is the burst's centre plus T; /pwi holds the angles.
TEST(PwiScan, PlaneWaveLawsCrossTheCentreAtOneTime) {
    const Scene s = small_scene("pwi");
    const VoxelGrid model = rasterise(s);
    const ScanPlan plan = plan_scan_shots(s, model, "small");
    ASSERT_EQ(plan.shots.size(), 3u);
    const std::vector<double> x = {-1.5e-3, -0.5e-3, 0.5e-3, 1.5e-3};
    const double half = 1.5e-3 * std::sin(30 * kPi / 180) / kVp;  // the largest |x_e sin| / c
    EXPECT_NEAR(plan.pwi_centre_delay, half, 1e-18);
    double earliest = 1;
    for (std::size_t k = 0; k < 3; ++k) {
        ASSERT_EQ(plan.shots[k].probe.delay_law.type, "custom");
        const std::vector<double>& d = plan.shots[k].probe.delay_law.delays;
        ASSERT_EQ(d.size(), 4u);
        for (std::size_t e = 0; e < 4; ++e) {
            EXPECT_NEAR(d[e], x[e] * std::sin(s.scan->angles[k] * kPi / 180) / kVp + half, 1e-18) << k << " " << e;
            earliest = std::min(earliest, d[e]);
        }
    }
    EXPECT_NEAR(earliest, 0, 1e-18);
    EXPECT_DOUBLE_EQ(plan.reference_time, 0.1e-6 + 0.5 * kCycles / kF + half);

    const Result r = run_probe_scan(s, model, "small", {});
    const ArrayAcquisition a = scan_array_acquisition(s, model, r, "small");
    test::TempDir dir;
    const std::string path = dir.file("pwi.h5");
    write_result_h5(path, r, [&](h5::File& f) { write_array_acquisition_group(f, a); });
    h5::File f = h5::File::open_read(path);
    const std::size_t nt = r.sample_count();
    EXPECT_EQ(f.dims("/pwi/data"), (std::vector<hsize_t>{3, 4, nt}));
    EXPECT_EQ(f.read_doubles("/pwi/angles"), s.scan->angles);
    EXPECT_DOUBLE_EQ(f.read_double_attribute("/pwi", "reference_time"), plan.reference_time);
    EXPECT_FALSE(f.has_dataset("/fmc/data"));
    EXPECT_EQ(read_array_acquisition_h5(path).angles, s.scan->angles);
}

namespace {

std::string field_of(const Scene& s) {
    try {
        validate_scene(s, "bad");
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "bad");
        return e.field();
    }
    return "(accepted)";
}

}  // namespace

TEST(FmcScan, BadScansAreRefusedNamingTheField) {
    Scene s = small_scene("fmc");
    Scene piston = s;
    piston.probes[0].type = "piston";
    piston.probes[0].elements = 1;
    piston.probes[0].shape = "disk";
    piston.probes[0].diameter = 2e-3;
    EXPECT_EQ(field_of(piston), "scan.probe");
    Scene deaf = s;
    deaf.probes[0].receive = false;
    EXPECT_EQ(field_of(deaf), "scan.probe");
    Scene sub = s;
    sub.probes[0].active_count = 2;
    EXPECT_EQ(field_of(sub), "scan.probe");
    Scene moved = s;
    moved.scan->positions = 3;
    moved.scan->step = {1e-3, 0, 0};
    EXPECT_EQ(field_of(moved), "scan.positions");
    Scene gated = s;
    gated.scan->gated = true;
    gated.scan->gate_end = 1e-6;
    EXPECT_EQ(field_of(gated), "scan.gate");
    Scene fmc_angles = s;
    fmc_angles.scan->angles = {10};
    EXPECT_EQ(field_of(fmc_angles), "scan.angles");
    Scene pwi = small_scene("pwi");
    Scene none = pwi;
    none.scan->angles.clear();
    EXPECT_EQ(field_of(none), "scan.angles");
    Scene steep = pwi;
    steep.scan->angles = {0, 95};
    EXPECT_EQ(field_of(steep), "scan.angles[1]");
    Scene linear_angles = pwi;
    linear_angles.scan->type = "linear";
    EXPECT_EQ(field_of(linear_angles), "scan.angles");
    Scene unknown = s;
    unknown.scan->type = "sector";
    EXPECT_EQ(field_of(unknown), "scan.type");
}

// The scan block round-trips through the scene file with its type and angles.
TEST(PwiScan, AnglesRoundTripThroughTheSceneFile) {
    const Scene s = small_scene("pwi");
    test::TempDir dir;
    const std::string path = dir.file("pwi.json");
    write_scene_json(path, s);
    const Scene back = read_scene_json(path);
    ASSERT_TRUE(back.scan.has_value());
    EXPECT_EQ(back.scan->type, "pwi");
    EXPECT_EQ(back.scan->angles, s.scan->angles);
}
