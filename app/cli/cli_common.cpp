#include "cli_common.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <fstream>
#include <new>

#include "core/errors.hpp"

namespace voxwave::cli {
namespace {
bool g_bar_drawn = false;
}

ProgressFn terminal_progress(const std::string& label, bool quiet) {
    if (quiet || !isatty(STDERR_FILENO)) return {};
    const auto start = std::chrono::steady_clock::now();
    return [label, start](std::int64_t done, std::int64_t total) {
        const double frac = total > 0 ? double(done) / double(total) : 1.0;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double eta = frac > 0 ? elapsed * (1.0 - frac) / frac : 0.0;
        constexpr int width = 30;
        const int filled = static_cast<int>(frac * width);
        std::string bar(filled, '#');
        bar.resize(width, '.');
        std::fprintf(stderr, "\r%s [%s] %5.1f%%  %lld/%lld  %.0f s left ", label.c_str(), bar.c_str(), 100.0 * frac,
                     static_cast<long long>(done), static_cast<long long>(total), eta);
        std::fflush(stderr);
        g_bar_drawn = true;
        return true;
    };
}

void finish_progress() {
    if (g_bar_drawn) std::fputc('\n', stderr);
    g_bar_drawn = false;
}

void print_and_append(const std::string& markdown, const std::string& out) {
    std::printf("%s", markdown.c_str());
    if (out.empty()) return;
    std::ofstream f(out, std::ios::app);
    f << markdown << "\n";
    if (!f) throw InputError(out, "", "cannot append the results");
    std::printf("appended to %s\n", out.c_str());
}

InputError blame_option(const InputError& e, const OptionFields& fields) {
    for (const auto& [field, option] : fields)
        if (e.field() == field) return InputError("", option, e.reason());
    return e;
}

int guarded(const std::function<int()>& body) { return guarded(body, true); }

int guarded(const std::function<int()>& body, bool report, std::string* out_line) {
    auto say = [report, out_line](const std::string& line) {
        finish_progress();
        if (report) std::fprintf(stderr, "voxwave-cli: %s\n", line.c_str());
        if (out_line) *out_line = "voxwave-cli: " + line;
    };
    try {
        return body();
    } catch (const InputError& e) {
        say(std::string("error: ") + e.what());
        return kBadInput;
    } catch (const Cancelled&) {
        say("cancelled");
        return kCancelled;
    } catch (const std::bad_alloc&) {
        say(std::string("error: ") + kOutOfMemoryMessage);
        return kFailure;
    } catch (const std::exception& e) {
        say(std::string("error: ") + e.what());
        return kFailure;
    }
}

}  // namespace voxwave::cli

namespace voxwave::cli {

double process_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

std::string utc_timestamp() {
    char date[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    return date;
}

std::string host_name() {
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    return host;
}

}  // namespace voxwave::cli
