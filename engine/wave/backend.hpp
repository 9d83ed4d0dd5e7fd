// Choosing the compute backend of a run (DESIGN §1: chosen once, auto | cpu | cuda).
#pragma once

#include <string>

#include "scene/scene.hpp"

namespace voxwave {

// The backend a run will use for `requested`, with a one-line note saying why (auto says
// what it picked and why). Throws InputError("", "backend", ...) when `cuda` is requested and
// cannot be honoured.
Backend resolve_backend(Backend requested, std::string& note);

}  // namespace voxwave
