// Images from array acquisitions (docs/architecture.md#imaging): the total focusing method on a
// full matrix capture and plane-wave compounding on a PWI, both delay-and-sum of the analytic
// signals with linear interpolation, the image the envelope |sum|. The defaults give a sensible
// image from the file alone; the CPU (threads) and CUDA backends compute the same sums.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/progress.hpp"
#include "wave/array_acquisition.hpp"
#include "wave/delay_and_sum.hpp"

namespace voxwave {

enum class ImagingMethod { Tfm, Pwi };
// The wave type of each leg, transmit then receive: L (P waves, vp) or T (S waves, vs).
enum class ImagingMode { LL, TT, LT };

const char* to_string(ImagingMethod m);
const char* to_string(ImagingMode m);
// Throw InputError("", field, ...) for anything else ("tfm" | "pwi"; "LL" | "TT" | "LT").
ImagingMethod parse_imaging_method(const std::string& s, const std::string& field = "method");
ImagingMode parse_imaging_mode(const std::string& s, const std::string& field = "mode");

// Used when neither the file nor the request gives vp: steel's P-wave speed.
inline constexpr double kDefaultImagingVp = 5900;
// Used when the file records no centre frequency and its spectrum is flat (no signal).
inline constexpr double kDefaultImagingFrequency = 1e6;
// The default depth range starts this many wavelengths under the array, past the elements' own
// transmission.
inline constexpr double kDefaultImagingDeadZoneWavelengths = 2;
// The default pixel is the mode's shortest wavelength over this.
inline constexpr double kDefaultImagingPixelsPerWavelength = 4;

struct ImagingRequest {
    ImagingMethod method = ImagingMethod::Tfm;
    ImagingMode mode = ImagingMode::LL;
    bool has_region = false;
    std::array<double, 4> region{};  // lateral0, lateral1, depth0, depth1 (m)
    double pixel = 0;                // m; 0: the shortest wavelength / 4
    double vp = 0, vs = 0;           // m/s; 0: the file's (vp: kDefaultImagingVp without it)
    Backend backend = Backend::Auto;
};

// What a request resolves to on one acquisition: velocities, frequency, the pixel grid.
struct ImagingSetup {
    double vp = 0, vs = 0;  // vs 0 when the mode needs none and the file has none
    double speed_tx = 0, speed_rx = 0;
    double frequency = 0;  // Hz: the file's, or the peak of the signals' spectrum
    double pixel = 0;
    std::vector<double> lateral, depth;  // pixel centres, m
    // Elements in the array frame (lateral, depth, offset), m.
    std::vector<double> element_lateral, element_depth, element_offset;
    std::array<double, 3> centre{};  // the mean element position, m
};

// Checks the request against the acquisition (method against /fmc or /pwi, velocities the mode
// needs, a region with lateral0 < lateral1 and depth0 < depth1, a positive pixel, at most
// kMaxImagePixels pixels) and fills in the defaults. Throws InputError("", option, reason), the
// field named like the CLI's option without dashes ("region", "pixel", "velocity", ...).
ImagingSetup resolve_imaging(const ArrayAcquisition& a, const ImagingRequest& r);
inline constexpr long long kMaxImagePixels = 16LL * 1024 * 1024;

struct Image {
    std::vector<double> values;                          // n_depth x n_lateral, row-major: envelope amplitude
    std::vector<double> lateral, depth;                  // m, from the array centre along array_axis and normal
    std::vector<double> element_lateral, element_depth;  // the array in the image's frame, m
    std::string method, mode, backend, source;
    double vp = 0, vs = 0, pixel = 0, frequency = 0;

    std::size_t n_lateral() const { return lateral.size(); }
    std::size_t n_depth() const { return depth.size(); }
    double at(std::size_t i_depth, std::size_t i_lateral) const { return values[i_depth * lateral.size() + i_lateral]; }
};

// The analytic signals of every transmission x receiver pair, real and imaginary parts
// (n_tx * n_rx) x nt each.
void acquisition_analytic_signals(const ArrayAcquisition& a, std::vector<double>& re, std::vector<double>& im);

// The problem the backends sum, pointing into `setup`, the analytic signals and `plane` (sin then
// cos of the PWI angles, filled here).
DelayAndSumProblem delay_and_sum_problem(const ArrayAcquisition& a, const ImagingSetup& setup,
                                         const std::vector<double>& re, const std::vector<double>& im,
                                         std::vector<double>& plane);

// The pipeline's start, shared by the images and the sector images: the resolved request, the
// backend (its note into `note`: resolve_backend's), the analytic signals and the problem, which
// points into this object's members (so it is neither copied nor moved).
struct DelayAndSumRun {
    DelayAndSumRun(const ArrayAcquisition& a, const ImagingRequest& r, std::string* note);
    DelayAndSumRun(const DelayAndSumRun&) = delete;
    DelayAndSumRun& operator=(const DelayAndSumRun&) = delete;

    ImagingSetup setup;
    Backend backend = Backend::Cpu;
    std::vector<double> re, im, plane;
    DelayAndSumProblem problem;
};

// The envelope image, pixel_count values, row-major by depth. CPU: OpenMP threads over depth rows,
// progress (done, total depth rows) checked per row (returning false throws Cancelled).
std::vector<double> delay_and_sum_cpu(const DelayAndSumProblem& p, const ProgressFn& progress = {});
// CUDA: the travel-time tables then one thread per pixel, signals in device memory; on the
// current device. RuntimeError on a CUDA failure; InputError in a build without CUDA.
std::vector<double> delay_and_sum_cuda(const DelayAndSumProblem& p);

// The whole pipeline: resolve, analytic signals, the chosen backend. `note` gets the backend
// note (resolve_backend's). `source` is written into the image (the acquisition's file name).
Image make_image(const ArrayAcquisition& a, const ImagingRequest& r, const std::string& source = "",
                 const ProgressFn& progress = {}, std::string* note = nullptr);

// Image files: root attributes format "voxwave-image", version 1, method, mode, backend, source,
// vp, vs, pixel, frequency; /image/values (n_depth x n_lateral), /image/lateral, /image/depth,
// /image/element_lateral, /image/element_depth. Written atomically; the reader checks shapes.
void write_image_h5(const std::string& path, const Image& image);
Image read_image_h5(const std::string& path);
// Whether `path` is an HDF5 file whose format attribute says image; whether it holds /fmc/data or
// /pwi/data. Never throw: front ends pick how to open a file with them.
bool is_image_h5(const std::string& path) noexcept;
bool has_array_acquisition_h5(const std::string& path) noexcept;

}  // namespace voxwave
