// TFM and plane-wave compounding on the CPU and the defaults (docs/architecture.md#imaging).
#include "wave/tfm_imaging.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <unsupported/Eigen/FFT>

#include "core/errors.hpp"
#include "wave/receiver_scans.hpp"

namespace voxwave {
namespace {

constexpr double kPi = 3.14159265358979323846;

double dot3(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// The frequency of the largest bin of the signals' summed power spectrum (0 for silent signals).
double spectrum_peak_frequency(const ArrayAcquisition& a) {
    const std::size_t nt = a.sample_count();
    std::size_t m = 1;
    while (m < nt) m <<= 1;
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    std::vector<double> power(m / 2 + 1, 0.0), padded(m, 0.0);
    std::vector<std::complex<double>> half;
    for (std::size_t s = 0; s < a.n_tx * a.n_rx; ++s) {
        std::copy(a.data.begin() + long(s * nt), a.data.begin() + long((s + 1) * nt), padded.begin());
        fft.fwd(half, padded);
        for (std::size_t k = 0; k < power.size() && k < half.size(); ++k) power[k] += std::norm(half[k]);
    }
    std::size_t best = 1;
    for (std::size_t k = 1; k < power.size(); ++k)
        if (power[k] > power[best]) best = k;
    if (!(power[best] > 0)) return 0;
    return double(best) / (double(m) * a.dt());
}

std::vector<double> pixel_axis(double first, double last, double pixel) {
    const auto n = std::size_t(std::floor((last - first) / pixel + 1e-9)) + 1;
    std::vector<double> axis(n);
    for (std::size_t i = 0; i < n; ++i) axis[i] = first + double(i) * pixel;
    return axis;
}

}  // namespace

const char* to_string(ImagingMethod m) { return m == ImagingMethod::Pwi ? "pwi" : "tfm"; }
const char* to_string(ImagingMode m) { return m == ImagingMode::TT ? "TT" : m == ImagingMode::LT ? "LT" : "LL"; }

ImagingMethod parse_imaging_method(const std::string& s, const std::string& field) {
    if (s == "tfm") return ImagingMethod::Tfm;
    if (s == "pwi") return ImagingMethod::Pwi;
    throw InputError("", field, "'" + s + "' is not an imaging method (tfm or pwi)");
}

ImagingMode parse_imaging_mode(const std::string& s, const std::string& field) {
    if (s == "LL") return ImagingMode::LL;
    if (s == "TT") return ImagingMode::TT;
    if (s == "LT") return ImagingMode::LT;
    throw InputError("", field, "'" + s + "' is not an imaging mode (LL, TT or LT)");
}

ImagingSetup resolve_imaging(const ArrayAcquisition& a, const ImagingRequest& r) {
    if (r.method == ImagingMethod::Tfm && a.type != AcquisitionType::Fmc)
        throw InputError("", "method",
                         "tfm needs a full matrix capture (/fmc); this file holds a PWI (use --method pwi)");
    if (r.method == ImagingMethod::Pwi && a.type != AcquisitionType::Pwi)
        throw InputError("", "method",
                         "pwi needs a plane-wave acquisition (/pwi); this file holds an FMC (use --method tfm)");
    ImagingSetup s;
    if (r.vp < 0 || !std::isfinite(r.vp)) throw InputError("", "velocity", "must be positive (m/s)");
    if (r.vs < 0 || !std::isfinite(r.vs)) throw InputError("", "shear-velocity", "must be positive (m/s)");
    s.vp = r.vp > 0 ? r.vp : a.vp > 0 ? a.vp : kDefaultImagingVp;
    s.vs = r.vs > 0 ? r.vs : a.vs;
    if (r.mode != ImagingMode::LL && !(s.vs > 0))
        throw InputError("", "shear-velocity",
                         std::string("mode ") + to_string(r.mode) +
                             " needs the S-wave speed: the file records no vs, give --shear-velocity");
    s.speed_tx = r.mode == ImagingMode::TT ? s.vs : s.vp;
    s.speed_rx = r.mode == ImagingMode::LL ? s.vp : s.vs;

    s.frequency = a.frequency > 0 ? a.frequency : spectrum_peak_frequency(a);
    if (!(s.frequency > 0)) s.frequency = kDefaultImagingFrequency;
    const double wavelength = std::min(s.speed_tx, s.speed_rx) / s.frequency;
    if (r.pixel < 0 || !std::isfinite(r.pixel)) throw InputError("", "pixel", "must be positive (m)");
    s.pixel = r.pixel > 0 ? r.pixel : wavelength / kDefaultImagingPixelsPerWavelength;

    const std::size_t n = a.element_positions.size();
    for (const auto& p : a.element_positions)
        for (int i = 0; i < 3; ++i) s.centre[i] += p[i] / double(n);
    const std::array<double, 3> off_axis{a.array_axis[1] * a.normal[2] - a.array_axis[2] * a.normal[1],
                                         a.array_axis[2] * a.normal[0] - a.array_axis[0] * a.normal[2],
                                         a.array_axis[0] * a.normal[1] - a.array_axis[1] * a.normal[0]};
    for (const auto& p : a.element_positions) {
        const std::array<double, 3> d{p[0] - s.centre[0], p[1] - s.centre[1], p[2] - s.centre[2]};
        s.element_lateral.push_back(dot3(d, a.array_axis));
        s.element_depth.push_back(dot3(d, a.normal));
        s.element_offset.push_back(dot3(d, off_axis));
    }

    std::array<double, 4> region = r.region;
    if (r.has_region) {
        for (double v : region)
            if (!std::isfinite(v)) throw InputError("", "region", "holds a value that is not finite");
        if (!(region[0] < region[1])) throw InputError("", "region", "LAT0 must be below LAT1");
        if (!(region[2] < region[3])) throw InputError("", "region", "DEPTH0 must be below DEPTH1");
    } else {
        const auto [lo, hi] = std::minmax_element(s.element_lateral.begin(), s.element_lateral.end());
        region[0] = *lo;
        region[1] = *hi;
        if (region[1] - region[0] < 2 * s.pixel) {  // one element: a strip around it
            region[0] -= 10 * s.pixel;
            region[1] += 10 * s.pixel;
        }
        region[2] = kDefaultImagingDeadZoneWavelengths * wavelength;
        // The deepest point whose echo (down one leg, back the other) the record still holds.
        region[3] = (a.time.back() - a.reference_time) / (1 / s.speed_tx + 1 / s.speed_rx);
        if (!(region[3] > region[2]))
            throw InputError("", "region",
                             "the record ends before an echo from below the dead zone returns: give --region");
    }
    const double nl = std::floor((region[1] - region[0]) / s.pixel) + 1,
                 nd = std::floor((region[3] - region[2]) / s.pixel) + 1;
    if (nl * nd > double(kMaxImagePixels))
        throw InputError("", "pixel",
                         "the image would have " + std::to_string((long long)(nl * nd)) + " pixels, more than " +
                             std::to_string(kMaxImagePixels) + ": give a larger --pixel or a smaller --region");
    s.lateral = pixel_axis(region[0], region[1], s.pixel);
    s.depth = pixel_axis(region[2], region[3], s.pixel);
    return s;
}

void acquisition_analytic_signals(const ArrayAcquisition& a, std::vector<double>& re, std::vector<double>& im) {
    const std::size_t nt = a.sample_count(), n = a.n_tx * a.n_rx;
    re.assign(n * nt, 0.0);
    im.assign(n * nt, 0.0);
#pragma omp parallel for schedule(dynamic, 4)
    for (long long s = 0; s < (long long)n; ++s) {
        const std::vector<double> x(a.data.begin() + s * (long long)nt, a.data.begin() + (s + 1) * (long long)nt);
        const std::vector<std::complex<double>> z = analytic_signal(x);
        for (std::size_t k = 0; k < nt; ++k) {
            re[std::size_t(s) * nt + k] = z[k].real();
            im[std::size_t(s) * nt + k] = z[k].imag();
        }
    }
}

DelayAndSumProblem delay_and_sum_problem(const ArrayAcquisition& a, const ImagingSetup& s,
                                         const std::vector<double>& re, const std::vector<double>& im,
                                         std::vector<double>& plane) {
    DelayAndSumProblem p;
    p.signal_re = re.data();
    p.signal_im = im.data();
    p.n_tx = int(a.n_tx);
    p.n_rx = int(a.n_rx);
    p.nt = int(a.sample_count());
    p.t_first = a.time[0] - a.reference_time;
    p.dt = a.dt();
    p.element_lateral = s.element_lateral.data();
    p.element_depth = s.element_depth.data();
    p.element_offset = s.element_offset.data();
    if (a.type == AcquisitionType::Pwi) {
        plane.resize(2 * a.n_tx);
        for (std::size_t i = 0; i < a.n_tx; ++i) {
            plane[i] = std::sin(a.angles[i] * kPi / 180);
            plane[a.n_tx + i] = std::cos(a.angles[i] * kPi / 180);
        }
        p.plane_sin = plane.data();
        p.plane_cos = plane.data() + a.n_tx;
    }
    p.speed_tx = s.speed_tx;
    p.speed_rx = s.speed_rx;
    p.n_lateral = int(s.lateral.size());
    p.n_depth = int(s.depth.size());
    p.lateral0 = s.lateral.front();
    p.depth0 = s.depth.front();
    p.pixel = s.pixel;
    return p;
}

std::vector<double> delay_and_sum_cpu(const DelayAndSumProblem& p, const ProgressFn& progress) {
    std::vector<double> image(std::size_t(p.pixel_count()), 0.0);
    constexpr int kRowsPerCheck = 8;
    for (int row0 = 0; row0 < p.n_depth; row0 += kRowsPerCheck) {
        const int row1 = std::min(p.n_depth, row0 + kRowsPerCheck);
        const long long first = (long long)row0 * p.n_lateral, last = (long long)row1 * p.n_lateral;
#pragma omp parallel
        {
            std::vector<double> t_rx(std::size_t(p.n_rx));
#pragma omp for schedule(dynamic, 16)
            for (long long pix = first; pix < last; ++pix) {
                const double depth = p.depth0 + double(pix / p.n_lateral) * p.pixel;
                const double lateral = p.lateral0 + double(pix % p.n_lateral) * p.pixel;
                for (int rx = 0; rx < p.n_rx; ++rx)
                    t_rx[std::size_t(rx)] = element_leg_time(p, rx, lateral, depth, p.speed_rx);
                double re = 0, im = 0;
                for (int tx = 0; tx < p.n_tx; ++tx) {
                    const double t_tx = transmit_time(p, tx, lateral, depth);
                    for (int rx = 0; rx < p.n_rx; ++rx)
                        add_interpolated_sample(p, (long long)tx * p.n_rx + rx, t_tx + t_rx[std::size_t(rx)], re, im);
                }
                image[std::size_t(pix)] = std::sqrt(re * re + im * im);
            }
        }
        if (progress && !progress(row1, p.n_depth)) throw Cancelled{};
    }
    return image;
}

DelayAndSumRun::DelayAndSumRun(const ArrayAcquisition& a, const ImagingRequest& r, std::string* note)
    : setup(resolve_imaging(a, r)) {
    std::string why;
    backend = resolve_backend(r.backend, why);
    if (note) *note = why;
    acquisition_analytic_signals(a, re, im);
    problem = delay_and_sum_problem(a, setup, re, im, plane);
}

Image make_image(const ArrayAcquisition& a, const ImagingRequest& r, const std::string& source,
                 const ProgressFn& progress, std::string* note) {
    const DelayAndSumRun run(a, r, note);
    const ImagingSetup& s = run.setup;
    const Backend backend = run.backend;
    const DelayAndSumProblem& p = run.problem;
    Image image;
    if (backend == Backend::Cuda) {
        image.values = delay_and_sum_cuda(p);
        if (progress) progress(p.n_depth, p.n_depth);
    } else {
        image.values = delay_and_sum_cpu(p, progress);
    }
    image.lateral = s.lateral;
    image.depth = s.depth;
    image.element_lateral = s.element_lateral;
    image.element_depth = s.element_depth;
    image.method = to_string(r.method);
    image.mode = to_string(r.mode);
    image.backend = to_string(backend);
    image.source = source;
    image.vp = s.vp;
    image.vs = s.vs;
    image.pixel = s.pixel;
    image.frequency = s.frequency;
    return image;
}

}  // namespace voxwave
