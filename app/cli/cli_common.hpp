// Shared pieces of voxwave-cli: the terminal progress bar and the error-to-exit-code policy.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/progress.hpp"

namespace voxwave::cli {

// Exit codes: 0 success, 1 bad input (file/field/reason), 2 bad command line, 3 failure that is
// not the input's fault, 130 cancelled.
enum ExitCode { kOk = 0, kBadInput = 1, kUsage = 2, kFailure = 3, kCancelled = 130 };

// A progress callback that draws a bar on stderr when it is a terminal (and not quiet), with
// the label, percentage, counts and an ETA; prints nothing otherwise.
ProgressFn terminal_progress(const std::string& label, bool quiet);
// Ends the bar's line if one was drawn.
void finish_progress();

// Prints a markdown report on stdout and, when `out` is not empty, appends it (and a blank line)
// to that file; throws InputError(out, "", ...) when it cannot.
void print_and_append(const std::string& markdown, const std::string& out);

// The CPU's model name from /proc/cpuinfo ("unknown CPU" elsewhere), for benchmark headers.
std::string cpu_model();
// "YYYY-MM-DD HH:MM UTC" now, and this machine's host name, for benchmark headers.
std::string utc_timestamp();
std::string host_name();
// CPU seconds (user + system, all threads) this process has used: on a shared machine the wall
// time depends on the other load, the CPU time much less.
double process_cpu_seconds();

// The scene fields a command line set, each with the option that set it ({"run.stages",
// "--stages"}): the one validation of the changed scene finds a bad value by its scene field,
// and the user should read the option they typed.
using OptionFields = std::vector<std::pair<std::string, std::string>>;
// `e` attributed to the option when its field is one of `fields` (no file: the value came from
// the command line); `e` unchanged otherwise.
InputError blame_option(const InputError& e, const OptionFields& fields);

// Runs a subcommand body, turning every exception into one line on stderr and an exit code.
int guarded(const std::function<int()>& body);
// The same; with report = false nothing is printed (the other ranks of an MPI job, whose rank 0
// reports the error once); `line`, when given, receives the line that was or would be printed.
int guarded(const std::function<int()>& body, bool report, std::string* line = nullptr);

}  // namespace voxwave::cli
