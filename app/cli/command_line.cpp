// The command line a benchmark file records.
#include "commands.hpp"

namespace voxwave::cli {

std::string echo_command_line(const std::string& program, const CLI::App& command) {
    std::string line = program;
    for (const auto* opt : command.get_options())
        if (opt->count() > 0 && opt->get_name() != "--help") {
            line += " " + opt->get_name();
            if (opt->get_expected_max() == 0) continue;  // a flag: its name says it all
            for (const auto& r : opt->results()) line += " " + r;
        }
    return line;
}

}  // namespace voxwave::cli
