// Sector images of steered plane waves (docs/architecture.md#imaging): what a phased-array
// instrument's sectorial scan shows. Each PWI shot at angle theta images its own line from the
// array centre: the pixel at range r on it (lateral r sin theta, depth r cos theta) is
//
//     I(theta, r) = | sum_rx A_theta,rx( r / c_tx + |x - e_rx| / c_rx ) |
//
// (the plane wave reaches that point r / c_tx after crossing the centre; the receive leg is
// TFM's, i.e. dynamic receive focusing), with the analytic signals and the one-home travel times
// of delay_and_sum.hpp (sector_line_value: the one home of the line's geometry, which the CPU loop
// and the CUDA kernel both call). Angles x ranges, drawn as a fan by sector_scan_conversion.
#pragma once

#include <vector>

#include "core/progress.hpp"
#include "wave/array_acquisition.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave {

struct SectorImage {
    std::vector<double> angles;  // degrees from the normal towards array_axis, the acquisition's order
    std::vector<double> ranges;  // m from the array centre, ascending, `pixel` apart
    std::vector<double> values;  // n_range x n_angle, row-major: envelope amplitude
    std::vector<double> element_lateral;
    std::string mode, source, backend;  // backend: the one that computed it (cpu or cuda)
    double vp = 0, vs = 0, pixel = 0, frequency = 0;

    std::size_t n_angle() const { return angles.size(); }
    std::size_t n_range() const { return ranges.size(); }
    double at(std::size_t i_range, std::size_t i_angle) const { return values[i_range * angles.size() + i_angle]; }
};

// The sector image of a PWI acquisition on the request's backend (resolve_backend: auto takes
// CUDA where there is a device). The request's mode, speeds and pixel (the range step) resolve as
// for plane-wave compounding (resolve_imaging); the ranges span the resolved depth range (the
// request's region's depths, else the defaults). Throws InputError("", "method", ...) for an FMC
// (a sector needs steered shots). progress: (done, total) angles on the CPU; once at the end on
// CUDA. `note` gets the backend note.
SectorImage make_sector_image(const ArrayAcquisition& a, const ImagingRequest& r, const std::string& source = "",
                              const ProgressFn& progress = {}, std::string* note = nullptr);

// The sector's values (n_depth ranges x n_tx angles, row-major) of a PWI's delay-and-sum problem
// (wave/tfm_imaging.hpp's delay_and_sum_problem with the resolved depth axis as the ranges).
// CPU: OpenMP threads over ranges, progress per angle (false throws Cancelled). CUDA: one thread
// per (range, angle) on the current device, the signals in device memory; RuntimeError on a CUDA
// failure, InputError in a build without CUDA.
std::vector<double> sector_lines_cpu(const DelayAndSumProblem& p, const ProgressFn& progress = {});
std::vector<double> sector_lines_cuda(const DelayAndSumProblem& p);

// The sector in the array's plane (scan conversion, as an instrument draws its fan): an Image of
// `pixel`-spaced pixels (the sector's own pixel for 0) over the fan's bounding box, each pixel at
// (lateral, depth) the sector's value at angle atan2(lateral, depth) and range hypot(lateral,
// depth), bilinear between the neighbouring lines and ranges; 0 outside the fan. Method "sector".
Image sector_scan_conversion(const SectorImage& sector, double pixel = 0);

// The image the front ends (voxwave-cli image, the explorer's Make image, voxwave.image) make by
// method name: "" (what the acquisition holds: TFM for an FMC, compounding for a PWI), "tfm",
// "pwi" or "sector" (make_sector_image drawn by sector_scan_conversion). `field` names the method
// in the error for any other name.
Image make_image_by_method(const ArrayAcquisition& a, const std::string& method, ImagingRequest r,
                           const std::string& source = "", const ProgressFn& progress = {}, std::string* note = nullptr,
                           const std::string& field = "method");

}  // namespace voxwave
