// Small scenes built in code for the engine tests.
#pragma once

#include "scene/scene.hpp"

namespace voxwave::testing {

inline Material concrete() { return {"concrete", 2400, 4000, 2450, "#9a9a9a", ""}; }
inline Material steel() { return {"steel", 7850, 5900, 3200, "#4a6fa5", ""}; }

// A Ricker wavelet of peak frequency f (Hz) centred at `delay` (s).
inline Wavelet ricker(double f, double delay) {
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = f;
    w.delay = delay;
    return w;
}

// An nx x ny x nz block of one material at spacing ds, origin 0, 10 steps, auto dt.
inline Scene block_scene(int nx, int ny, int nz, double ds, const Material& m = concrete()) {
    Scene s;
    s.grid.size = {nx * ds, ny * ds, nz * ds};
    s.grid.spacing = ds;
    s.materials = {m};
    s.background = m.name;
    s.run.steps = 10;
    s.run.backend = Backend::Cpu;
    return s;
}

// Method sem of `order` with a sponge `thickness` thick on `faces` and Rayleigh damping of 1 %
// between 100 and 200 kHz: the damped, sponged update of the SEM steppers' checks.
inline void damped_sponged_sem(Scene& s, const std::vector<std::string>& faces, double thickness, int order) {
    s.boundary.absorbing.faces = faces;
    s.boundary.absorbing.thickness = thickness;
    s.boundary.absorbing.type = "sponge";
    s.damping = {"rayleigh", 0.01, 100e3, 200e3};
    s.run.method = Method::Sem;
    s.run.order = order;
}

// An array of `elements` elements on a top face (normal -z) centred at `center`, firing `w`.
inline ProbeSpec top_array_probe(const std::string& name, int elements, double pitch, double element_width,
                                 double elevation, const Vec3& center, const Wavelet& w) {
    ProbeSpec p;
    p.name = name;
    p.type = "array";
    p.center = center;
    p.normal = {0, 0, -1};
    p.elements = elements;
    p.pitch = pitch;
    p.element_width = element_width;
    p.elevation = elevation;
    p.wavelet = w;
    return p;
}

// A steel block of 40 x 4 x 24 voxels of 0.37 mm with a linear array "PA" on its top face
// (z = top, firing down), elements along x at the top's centre, `width` wide and as long as the
// slab is thick, a 2 MHz 2-cycle tone burst; 40 steps on the CPU.
inline Scene array_on_steel_block(int elements, double pitch, double width) {
    const double ds = 0.37e-3;
    Scene s = block_scene(40, 4, 24, ds, steel());
    s.run.steps = 40;
    ProbeSpec p;
    p.name = "PA";
    p.type = "array";
    p.center = {20 * ds, 2 * ds, 24 * ds};
    p.normal = {0, 0, -1};
    p.array_axis = {1, 0, 0};
    p.elements = elements;
    p.pitch = pitch;
    p.element_width = width;
    p.elevation = 4 * ds;
    p.wavelet.type = WaveletType::ToneBurst;
    p.wavelet.frequency = 2e6;
    p.wavelet.cycles = 2;
    s.probes = {p};
    return s;
}

}  // namespace voxwave::testing
