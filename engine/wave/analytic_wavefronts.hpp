// The analytic wavefronts of a scene's sources on a slice (the wavefield view's overlay, issue 35):
// where the P, S and Rayleigh waves of a homogeneous body around each source would be at time t,
// for the material at the source. A teaching aid drawn over the computed field: the numerical
// wave should sit on these curves until it meets another material or a boundary.
//
//   r(t) = v (t - t0),  t0 = the time the source's pulse peaks (wavelet_peak_time)
//   P and S: spheres of radius r about the source; a slice at distance d cuts them in circles
//            of radius sqrt(r^2 - d^2).
//   Rayleigh: along a free face of the box (not absorbing, not fixed) whose source lies within
//            one Rayleigh wavelength of it, in a body at least two wavelengths thick (thinner
//            is a plate: Lamb waves, not Rayleigh waves): a circle of radius v_R (t - t0) in
//            the face about the source's foot point. A slice across the face meets it in two
//            points on the face's line (marks); a slice in the face shows the whole circle.
#pragma once

#include <vector>

#include "model/voxel_grid.hpp"
#include "scene/scene.hpp"
#include "wave/slice.hpp"

namespace voxwave {

enum class WavefrontKind { P, S, Rayleigh };

// Slice coordinates are in node spacings: (a, b) = node (a, b) of the slice image (a along the
// plane's first axis: XY x, y; XZ x, z; YZ y, z).
struct WavefrontCircle {
    WavefrontKind kind = WavefrontKind::P;
    int source = 0;       // index into scene.sources
    double a = 0, b = 0;  // centre
    double radius = 0;    // > 0
};

// A point where a Rayleigh front crosses a free face's line in the slice; (na, nb) is the unit
// normal of that face pointing into the body.
struct WavefrontMark {
    int source = 0;
    double a = 0, b = 0;
    double na = 0, nb = 0;
};

struct SliceWavefronts {
    std::vector<WavefrontCircle> circles;
    std::vector<WavefrontMark> marks;
};

// The speeds the overlay uses for one source: of the material of the element at its node (the
// first non-void one of the eight around it); all 0 when it touches only void.
struct SourceWaveSpeeds {
    double vp = 0, vs = 0, vr = 0;
    int material = 0;  // id
};

// The Rayleigh wave speed of an isotropic solid: the root of the Rayleigh equation
// (2 - x)^2 = 4 sqrt(1 - x k) sqrt(1 - x), x = (v_R / vs)^2, k = (vs / vp)^2, in (0, vs);
// 0 when vs is 0 (a fluid).
double rayleigh_wave_speed(double vp, double vs);
// When the source's pulse peaks: ricker and bandpass at `delay`, a tone burst at the middle of
// its window, sampled wavelets at their largest |sample|.
double wavelet_peak_time(const Wavelet& w);
// Its centre frequency (Hz): ricker and tone burst f, bandpass the middle of the band; 0 when
// unknown (samples).
double wavelet_centre_frequency(const Wavelet& w);
SourceWaveSpeeds source_wave_speeds(const Scene& scene, const VoxelGrid& grid, const Source& source);
// The wavefronts on node plane `node_plane` of `plane` at time t.
SliceWavefronts slice_wavefronts(const Scene& scene, const VoxelGrid& grid, SlicePlane plane, int node_plane, double t);

}  // namespace voxwave
