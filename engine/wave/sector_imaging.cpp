// Sector images of steered plane waves, docs/architecture.md#imaging.
#include "wave/sector_imaging.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"
#include "wave/delay_and_sum.hpp"

namespace voxwave {

std::vector<double> sector_lines_cpu(const DelayAndSumProblem& p, const ProgressFn& progress) {
    const int na = p.n_tx, nr = p.n_depth;
    std::vector<double> values(std::size_t(na) * std::size_t(nr), 0.0);
    for (int k = 0; k < na; ++k) {
        if (progress && !progress(k, na)) throw Cancelled();
#pragma omp parallel for schedule(static)
        for (int i = 0; i < nr; ++i)
            values[std::size_t(i) * std::size_t(na) + std::size_t(k)] = sector_line_value(p, k, sector_range(p, i));
    }
    if (progress) progress(na, na);
    return values;
}

SectorImage make_sector_image(const ArrayAcquisition& a, const ImagingRequest& request, const std::string& source,
                              const ProgressFn& progress, std::string* note) {
    if (a.type != AcquisitionType::Pwi)
        throw InputError("", "method", "a sector image needs steered plane-wave shots (a PWI acquisition)");
    ImagingRequest r = request;
    r.method = ImagingMethod::Pwi;
    const DelayAndSumRun run(a, r, note);
    const ImagingSetup& s = run.setup;
    const Backend backend = run.backend;
    const DelayAndSumProblem& p = run.problem;
    SectorImage out;
    out.angles = a.angles;
    out.ranges = s.depth;
    out.element_lateral = s.element_lateral;
    out.mode = to_string(r.mode);
    out.source = source;
    out.backend = to_string(backend);
    out.vp = s.vp;
    out.vs = s.vs;
    out.pixel = s.pixel;
    out.frequency = s.frequency;
    if (backend == Backend::Cuda) {
        out.values = sector_lines_cuda(p);
        if (progress) progress(p.n_tx, p.n_tx);
    } else {
        out.values = sector_lines_cpu(p, progress);
    }
    return out;
}

Image make_image_by_method(const ArrayAcquisition& a, const std::string& method, ImagingRequest r,
                           const std::string& source, const ProgressFn& progress, std::string* note,
                           const std::string& field) {
    if (method == "sector") return sector_scan_conversion(make_sector_image(a, r, source, progress, note));
    if (method.empty())
        r.method = a.type == AcquisitionType::Pwi ? ImagingMethod::Pwi : ImagingMethod::Tfm;
    else if (method == "tfm" || method == "pwi")
        r.method = parse_imaging_method(method, field);
    else
        throw InputError("", field, "'" + method + "' is not an imaging method (tfm, pwi or sector)");
    return make_image(a, r, source, progress, note);
}

Image sector_scan_conversion(const SectorImage& sector, double pixel) {
    const std::size_t na = sector.n_angle(), nr = sector.n_range();
    if (na == 0 || nr == 0 || sector.values.size() != na * nr)
        throw RuntimeError("sector_scan_conversion: an empty or inconsistent sector image");
    if (!(pixel > 0)) pixel = sector.pixel;
    constexpr double kDeg = 3.14159265358979323846 / 180;
    // The lines in ascending angle, to interpolate between neighbours.
    std::vector<std::size_t> order(na);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t i, std::size_t j) { return sector.angles[i] < sector.angles[j]; });
    std::vector<double> theta(na);
    for (std::size_t i = 0; i < na; ++i) theta[i] = sector.angles[order[i]] * kDeg;
    const double r0 = sector.ranges.front(), r1 = sector.ranges.back();
    const double dr = nr > 1 ? sector.ranges[1] - sector.ranges[0] : 1;
    const double lat_lo = std::min(r1 * std::sin(theta.front()), 0.0),
                 lat_hi = std::max(r1 * std::sin(theta.back()), 0.0);
    const double widest = std::max(std::abs(theta.front()), std::abs(theta.back()));
    const double dep_lo = r0 * std::cos(widest), dep_hi = r1;
    Image im;
    for (double x = lat_lo; x <= lat_hi + 1e-12; x += pixel) im.lateral.push_back(x);
    for (double z = dep_lo; z <= dep_hi + 1e-12; z += pixel) im.depth.push_back(z);
    im.values.assign(im.lateral.size() * im.depth.size(), 0.0);
    for (std::size_t d = 0; d < im.depth.size(); ++d)
        for (std::size_t l = 0; l < im.lateral.size(); ++l) {
            const double r = std::hypot(im.lateral[l], im.depth[d]), th = std::atan2(im.lateral[l], im.depth[d]);
            if (r < r0 || r > r1 || th < theta.front() || th > theta.back()) continue;
            const double x = (r - r0) / dr;
            const std::size_t k = std::min(std::size_t(x), nr > 1 ? nr - 2 : 0);
            const double wr = nr > 1 ? x - double(k) : 0;
            std::size_t a = 0;
            while (a + 2 < na && theta[a + 1] < th) ++a;
            const double wa = na > 1 && theta[a + 1] > theta[a] ? (th - theta[a]) / (theta[a + 1] - theta[a]) : 0;
            auto value = [&](std::size_t ir, std::size_t ia) {
                return sector.at(std::min(ir, nr - 1), order[std::min(ia, na - 1)]);
            };
            im.values[d * im.lateral.size() + l] = (1 - wr) * ((1 - wa) * value(k, a) + wa * value(k, a + 1)) +
                                                   wr * ((1 - wa) * value(k + 1, a) + wa * value(k + 1, a + 1));
        }
    im.element_lateral = sector.element_lateral;
    im.element_depth.assign(sector.element_lateral.size(), 0.0);
    im.method = "sector";
    im.mode = sector.mode;
    im.backend = sector.backend.empty() ? "cpu" : sector.backend;
    im.source = sector.source;
    im.vp = sector.vp;
    im.vs = sector.vs;
    im.pixel = pixel;
    im.frequency = sector.frequency;
    return im;
}

}  // namespace voxwave
