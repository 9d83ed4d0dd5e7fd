// The compute backend of a run (auto | cpu | cuda), chosen once by one rule for the wave engine
// and the solver labs alike.
#pragma once

#include <string>

namespace voxwave {

enum class Backend { Auto, Cpu, Cuda };

const char* to_string(Backend b);
// Throws InputError("", field, ...) for anything but auto, cpu or cuda.
Backend parse_backend(const std::string& s, const std::string& field = "backend");

// The backend a run will use for `requested` (Cpu or Cuda, never Auto), with a one-line note
// saying why (auto says what it picked and why; cuda names the device). Throws
// InputError("", field, ...) when cuda is requested and this build has no CUDA or this machine
// no device.
Backend resolve_backend(Backend requested, std::string& note, const std::string& field = "backend");

}  // namespace voxwave
