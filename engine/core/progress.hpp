// Progress reporting from long engine work to any front end (terminal bar, GUI, nothing).
#pragma once

#include <cstdint>
#include <functional>

namespace voxwave {

// Called with (done, total) now and then; returning false asks the engine to stop, which it
// does by throwing Cancelled at the next check.
using ProgressFn = std::function<bool(std::int64_t done, std::int64_t total)>;

struct Cancelled {};

}  // namespace voxwave
