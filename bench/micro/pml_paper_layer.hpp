// The problem both PML layer-pass microbenchmarks time (pml_layer_pass_cpu.cpp,
// pml_layer_pass_cuda.cu): the paper model at spacing ds with a 10-cell PML on x-, x+, y-, y+, z-
// (the top free), with the scene's Rayleigh damping or none.
#pragma once

#include <string>

#include "scene/scene_io.hpp"
#include "wave/wave_problem.hpp"

inline voxwave::WaveProblem pml_paper_layer_problem(double ds, bool rayleigh, const char* name) {
    using namespace voxwave;
    Scene s = read_scene_json(std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json", [](Scene&) {});
    s.grid.spacing = ds;
    s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+", "z-"};
    s.boundary.absorbing.thickness = 10 * ds;
    s.boundary.absorbing.type = "pml";
    if (!rayleigh) s.damping = {};
    return build_wave_problem(s, name);
}
