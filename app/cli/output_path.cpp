#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "commands.hpp"
#include "core/errors.hpp"

namespace voxwave::cli {

void check_output_path(const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty()) throw InputError("", "--out", "an output file is required");
    const fs::path p(path);
    if (fs::is_directory(p)) throw InputError(path, "", "is a directory, not a file");
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir))
        throw InputError(path, "", "cannot write: directory " + dir.string() + " does not exist");
    if (access(dir.c_str(), W_OK) != 0)
        throw InputError(path, "", std::string("cannot write: ") + std::strerror(errno));
}

}  // namespace voxwave::cli
