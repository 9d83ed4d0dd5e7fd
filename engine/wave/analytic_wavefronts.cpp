#include "wave/analytic_wavefronts.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace voxwave {

namespace {
// Whether a face (index 2 axis + upper, as kBoundaryFaceNames) is a free surface.
bool face_is_free(const Scene& s, int face) {
    const std::string name = kBoundaryFaceNames[std::size_t(face)];
    auto has = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), name) != v.end(); };
    return !has(s.boundary.absorbing.faces) && !has(s.boundary.fixed_faces);
}

// The Rayleigh equation's residual for x = (v_R / vs)^2 and k = (vs / vp)^2.
double rayleigh_residual(double x, double k) { return (2 - x) * (2 - x) - 4 * std::sqrt(1 - x * k) * std::sqrt(1 - x); }
}  // namespace

double rayleigh_wave_speed(double vp, double vs) {
    if (!(vs > 0) || !(vp > vs)) return 0;
    const double k = (vs / vp) * (vs / vp);
    // The residual is 0 at x = 0 (a spurious root), falls below 0 just above it (its slope there
    // is 2 k - 2 < 0) and is 1 at x = 1: the Rayleigh root is its one crossing from negative to
    // positive in (0, 1). Bisect from a negative lower end.
    double lo = 0.5, hi = 1.0;
    while (rayleigh_residual(lo, k) >= 0 && lo > 1e-6) lo *= 0.5;
    for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
        const double mid = 0.5 * (lo + hi);
        (rayleigh_residual(mid, k) < 0 ? lo : hi) = mid;
    }
    return vs * std::sqrt(0.5 * (lo + hi));
}

double wavelet_peak_time(const Wavelet& w) {
    switch (w.type) {
        case WaveletType::Ricker:
        case WaveletType::Bandpass:
            return w.delay;
        case WaveletType::ToneBurst:
            return w.frequency > 0 ? w.delay + 0.5 * w.cycles / w.frequency : w.delay;
        case WaveletType::Samples: {
            std::size_t peak = 0;
            for (std::size_t i = 1; i < w.samples.size(); ++i)
                if (std::abs(w.samples[i]) > std::abs(w.samples[peak])) peak = i;
            return double(peak) * w.sample_dt;
        }
    }
    return 0;
}

double wavelet_centre_frequency(const Wavelet& w) {
    switch (w.type) {
        case WaveletType::Ricker:
        case WaveletType::ToneBurst:
            return w.frequency;
        case WaveletType::Bandpass:
            return 0.5 * (w.f_low + w.f_high);
        case WaveletType::Samples:
            return 0;
    }
    return 0;
}

SourceWaveSpeeds source_wave_speeds(const Scene& scene, const VoxelGrid& grid, const Source& source) {
    SourceWaveSpeeds out;
    if (grid.ids.empty()) return out;
    const auto node = nearest_node(grid, source.position);
    // The eight elements around the node, the one on its upper side first.
    for (int dk = 0; dk >= -1 && !out.material; --dk)
        for (int dj = 0; dj >= -1 && !out.material; --dj)
            for (int di = 0; di >= -1 && !out.material; --di) {
                const int i = node[0] + di, j = node[1] + dj, k = node[2] + dk;
                if (i < 0 || j < 0 || k < 0 || i >= grid.n[0] || j >= grid.n[1] || k >= grid.n[2]) continue;
                out.material = grid.at(i, j, k);
            }
    if (out.material == kVoidId || std::size_t(out.material) > scene.materials.size()) return {};
    const Material& m = scene.materials[std::size_t(out.material) - 1];
    out.vp = m.vp;
    out.vs = m.vs;
    out.vr = rayleigh_wave_speed(m.vp, m.vs);
    return out;
}

SliceWavefronts slice_wavefronts(const Scene& scene, const VoxelGrid& grid, SlicePlane plane, int node_plane,
                                 double t) {
    SliceWavefronts out;
    const double ds = grid.spacing;
    if (!(ds > 0)) return out;
    const auto [ax_a, ax_b, ax_n] = plane_axes(plane);
    for (std::size_t si = 0; si < scene.sources.size(); ++si) {
        const Source& src = scene.sources[si];
        const SourceWaveSpeeds v = source_wave_speeds(scene, grid, src);
        const double since = t - wavelet_peak_time(src.wavelet);
        if (v.material == 0 || !(since > 0)) continue;
        const auto node = nearest_node(grid, src.position);
        const double a = node[std::size_t(ax_a)], b = node[std::size_t(ax_b)];
        const double d = std::abs(double(node[std::size_t(ax_n)] - node_plane));  // to the slice, in spacings
        for (auto [kind, speed] : {std::pair{WavefrontKind::P, v.vp}, std::pair{WavefrontKind::S, v.vs}}) {
            const double r = speed * since / ds;
            if (r > d) out.circles.push_back({kind, int(si), a, b, std::sqrt(r * r - d * d)});
        }
        if (!(v.vr > 0)) continue;
        const double rr = v.vr * since / ds;
        const double f = wavelet_centre_frequency(src.wavelet);
        const double wavelength = f > 0 ? v.vr / f / ds : 0;  // spacings
        for (int face = 0; face < 6; ++face) {
            const int k = face / 2;
            const bool upper = face % 2 == 1;
            if (!face_is_free(scene, face)) continue;
            const double depth = upper ? grid.n[std::size_t(k)] - node[std::size_t(k)] : node[std::size_t(k)];
            if (wavelength > 0 ? (depth > wavelength || grid.n[std::size_t(k)] < 2 * wavelength) : depth > 2) continue;
            const double face_at = upper ? grid.n[std::size_t(k)] : 0;
            if (k == ax_n) {
                // The slice lies in the face: the whole circle.
                if (node_plane == int(face_at)) out.circles.push_back({WavefrontKind::Rayleigh, int(si), a, b, rr});
                continue;
            }
            // The face crosses the slice along a line: a = face_at (k the first axis) or b = face_at.
            // Its circle about the source's foot point meets the slice where the in-line offset
            // c satisfies c^2 + d^2 = rr^2.
            if (rr <= d) continue;
            const double c = std::sqrt(rr * rr - d * d);
            const double inward = upper ? -1 : 1;
            for (double sign : {-1.0, 1.0}) {
                WavefrontMark m;
                m.source = int(si);
                if (k == ax_a) {
                    m.a = face_at;
                    m.b = b + sign * c;
                    m.na = inward;
                } else {
                    m.a = a + sign * c;
                    m.b = face_at;
                    m.nb = inward;
                }
                const double along = k == ax_a ? m.b : m.a;
                const int extent = grid.n[std::size_t(k == ax_a ? ax_b : ax_a)];
                if (along >= 0 && along <= extent) out.marks.push_back(m);
            }
        }
    }
    return out;
}

}  // namespace voxwave
