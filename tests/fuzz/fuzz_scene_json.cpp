// Fuzz target: scene JSON text -> parse_scene_json (strict parse, validate_scene, referenced
// sample and voxel files) and, for every scene that reads, the writer's promise that
// write -> read gives back an equal scene.
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "scene/scene_io.hpp"

// Relative file references in the inputs ("voxels.h5", "samples.csv") resolve here.
#ifndef VOXWAVE_FUZZ_SCENE_FILES_DIR
#error "VOXWAVE_FUZZ_SCENE_FILES_DIR must name tests/fuzz/scene_files"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    return voxwave::fuzz::expect_input_errors_only([&] {
        voxwave::Scene scene = voxwave::parse_scene_json(text, "fuzz.json", VOXWAVE_FUZZ_SCENE_FILES_DIR);
        voxwave::validate_scene(scene, "fuzz.json");
        // A scene that read must write, and read back equal (outside the InputError escape:
        // a failure here is the writer's or reader's bug, not bad input).
        std::string written;
        try {
            written = voxwave::scene_to_json_text(scene);
        } catch (...) {
            __builtin_trap();
        }
        voxwave::Scene again;
        try {
            again = voxwave::parse_scene_json(written, "fuzz-rewritten.json", VOXWAVE_FUZZ_SCENE_FILES_DIR);
        } catch (...) {
            __builtin_trap();
        }
        if (!(again == scene)) __builtin_trap();
    });
}
