// Small scenes built in code for the engine tests.
#pragma once

#include "scene/scene.hpp"

namespace voxwave::testing {

inline Material concrete() { return {"concrete", 2400, 4000, 2450, "#9a9a9a", ""}; }
inline Material steel() { return {"steel", 7850, 5900, 3200, "#4a6fa5", ""}; }
// The usual angle-beam wedge material (vp 2330 m/s, slower than steel's vs: past the first critical
// angle only S refracts into steel).
inline Material rexolite() { return {"rexolite", 1180, 2330, 1160, "#e8d9a8", ""}; }

// A Ricker wavelet of peak frequency f (Hz) centred at `delay` (s).
inline Wavelet ricker(double f, double delay) {
    Wavelet w;
    w.type = WaveletType::Ricker;
    w.frequency = f;
    w.delay = delay;
    return w;
}

// A tone burst of `cycles` cycles at frequency f (Hz).
inline Wavelet tone_burst(double f, double cycles) {
    Wavelet w;
    w.type = WaveletType::ToneBurst;
    w.frequency = f;
    w.cycles = cycles;
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

// block_scene of concrete with steel beside it in the material table (id 2), for painting and
// placing shapes.
inline Scene concrete_block_with_steel(int nx, int ny, int nz, double ds) {
    Scene s = block_scene(nx, ny, nz, ds);
    s.materials.push_back(steel());
    return s;
}

// An nx x ny x nz grid at spacing ds with a void background and a slab of steel across it from
// z = 0 up to z = slab_top (metres): room above the slab for a wedge; 10 steps on the CPU.
inline Scene steel_slab_in_void(int nx, int ny, int nz, double ds, double slab_top) {
    Scene s = block_scene(nx, ny, nz, ds, steel());
    s.background = "void";
    BoxShape slab;
    slab.min = {0, 0, 0};
    slab.max = {nx * ds, ny * ds, slab_top};
    s.shapes.push_back({"steel", slab});
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
    s.probes = {top_array_probe("PA", elements, pitch, width, 4 * ds, {20 * ds, 2 * ds, 24 * ds}, tone_burst(2e6, 2))};
    return s;
}

}  // namespace voxwave::testing
