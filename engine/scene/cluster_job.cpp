#include "scene/cluster_job.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "scene/scene_io.hpp"

namespace voxwave {
namespace {

namespace fs = std::filesystem;

bool is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
}

// Characters that `bash` never reads as anything but themselves in a word.
bool is_shell_safe_char(char c) {
    return is_name_char(c) || c == '/' || c == '+' || c == ':' || c == '@' || c == '%' || c == '=' || c == ',';
}

bool is_space_or_control(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u <= 0x20 || u == 0x7f;
}

bool has_control(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

// `s` for a one-line message: control characters written as \n, \t or \xNN.
std::string printable(const std::string& s) {
    static const char* const hex = "0123456789abcdef";
    std::string out;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (u < 0x20 || u == 0x7f)
            out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
        else
            out += c;
    }
    return out;
}

std::string quoted_char(char c) {
    if (c == ' ') return "a space";
    std::string out = "'";
    out += printable(std::string(1, c));
    out += "'";
    return out;
}

void require_not_empty(const std::string& value, const char* field) {
    if (value.empty()) throw InputError("", field, "must not be empty");
}

// Slurm's --time forms used here: [D-]HH:MM:SS and MM:SS (minutes and seconds below 60,
// hours below 24 when days are given), and not zero (Slurm reads 0 as "no limit").
void check_time_limit(const std::string& t) {
    static const std::regex form(R"(^(?:(\d{1,3})-)?(\d{1,2}):(\d{2}):(\d{2})$|^(\d{1,2}):(\d{2})$)");
    std::smatch m;
    // Appended piece by piece: `"'" + std::string` trips GCC 12's -Wrestrict false positive.
    std::string expected = "'";
    expected += printable(t);
    expected += "' is not [D-]HH:MM:SS or MM:SS";
    if (!std::regex_match(t, m, form)) throw InputError("", "time_limit", expected);
    long total = 0;
    if (m[2].matched) {
        const long days = m[1].matched ? std::stol(m[1]) : 0, h = std::stol(m[2]), min = std::stol(m[3]),
                   s = std::stol(m[4]);
        if (min > 59 || s > 59 || (m[1].matched && h > 23)) throw InputError("", "time_limit", expected);
        total = ((days * 24 + h) * 60 + min) * 60 + s;
    } else {
        const long min = std::stol(m[5]), s = std::stol(m[6]);
        if (s > 59) throw InputError("", "time_limit", expected);
        total = min * 60 + s;
    }
    if (total == 0) throw InputError("", "time_limit", "must be longer than zero");
}

void check_no_space(const std::string& value, const char* field) {
    for (char c : value)
        if (is_space_or_control(c)) throw InputError("", field, "must not contain white space");
}

// A referenced file as the job folder will hold it: copied in (atomically) unless it is there already.
void copy_into_folder(const std::string& source, const fs::path& dest) {
    std::error_code ec;
    if (fs::equivalent(source, dest, ec)) return;
    if (!fs::is_regular_file(source, ec)) throw InputError(source, "", "cannot copy into the job folder: no such file");
    write_file_atomically(dest.string(), [&](const std::string& temp) {
        std::error_code copy_ec;
        fs::copy_file(source, temp, fs::copy_options::overwrite_existing, copy_ec);
        if (copy_ec) throw InputError(source, "", "cannot copy into the job folder: " + copy_ec.message());
    });
}

}  // namespace

std::string shell_quote(const std::string& text) {
    if (!text.empty() && std::all_of(text.begin(), text.end(), is_shell_safe_char)) return text;
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

void validate_cluster_job(const ClusterJobSpec& spec) {
    if (spec.gpus < 1) throw InputError("", "gpus", "must be at least 1 (got " + std::to_string(spec.gpus) + ")");
    if (spec.gpus_per_node < 1)
        throw InputError("", "gpus_per_node", "must be at least 1 (got " + std::to_string(spec.gpus_per_node) + ")");
    require_not_empty(spec.job_name, "job_name");
    for (char c : spec.job_name)
        if (!is_name_char(c))
            throw InputError("", "job_name",
                             quoted_char(c) + " is not allowed (letters, digits, '.', '_' and '-' only)");
    check_time_limit(spec.time_limit);
    check_no_space(spec.partition, "partition");
    check_no_space(spec.account, "account");
    require_not_empty(spec.cli, "cli");
    if (has_control(spec.cli)) throw InputError("", "cli", "must not contain control characters");
    require_not_empty(spec.scene_file, "scene_file");
    if (has_control(spec.scene_file)) throw InputError("", "scene_file", "must not contain control characters");
    if (spec.scene_file.find('/') != std::string::npos || spec.scene_file == "." || spec.scene_file == "..")
        throw InputError("", "scene_file", "must be a file name, not a path ('" + spec.scene_file + "')");
    if (spec.scene_file == kClusterJobScript)
        throw InputError("", "scene_file", std::string("'") + kClusterJobScript + "' is the batch script's name");
    require_not_empty(spec.result_file, "result_file");
    if (has_control(spec.result_file)) throw InputError("", "result_file", "must not contain control characters");
    parse_backend(spec.backend, "backend");
    if (!spec.command.empty() && spec.command != "run" && spec.command != "scan")
        throw InputError("", "command", "unknown command '" + printable(spec.command) + "' (expected run or scan)");
    const bool grid_given = !spec.process_grid.automatic();
    if (spec.command == "scan" && grid_given)
        throw InputError("", "process_grid",
                         "a scan shares its shots over the ranks, each with the whole model: it takes no process grid");
    // Module names go unquoted into `module load` (several words): nothing a shell would expand.
    for (char c : spec.extra_modules)
        if (!is_shell_safe_char(c) && c != ' ')
            throw InputError("", "extra_modules", quoted_char(c) + " is not allowed in module names");
    // The run checks the grid against the model; the rank count is known here already.
    if (!spec.process_grid.automatic() && spec.process_grid.count() != spec.gpus)
        throw InputError("", "process_grid",
                         to_string(spec.process_grid) + " has " + std::to_string(spec.process_grid.count()) +
                             " ranks, the job has " + std::to_string(spec.gpus) + " GPUs (one rank each)");
}

std::string slurm_batch_script(const ClusterJobSpec& spec) {
    validate_cluster_job(spec);
    // 64-bit: gpus near INT_MAX must not overflow the rounding up.
    const long long nodes = (static_cast<long long>(spec.gpus) + spec.gpus_per_node - 1) / spec.gpus_per_node;
    // A job smaller than a node asks for the GPUs it uses, not the whole node's.
    const int per_node = std::min(spec.gpus, spec.gpus_per_node);
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# Written by voxwave: cluster job '" << spec.job_name << "', " << spec.gpus
      << (spec.gpus == 1 ? " GPU" : " GPUs") << ", one MPI rank per GPU.\n"
      << "# Rank 0 writes " << spec.result_file << " (voxwave's File > Open result... shows it).\n"
      << (spec.command == "scan" ? "# Each rank runs its share of the scan's shots on the whole model.\n" : "")
      << "# Submit from this folder with:  sbatch " << kClusterJobScript << "\n"
      << "# (Where Slurm starts MPI ranks through PMIx, `srun` can replace `mpirun`.)\n"
      << "#SBATCH --job-name=" << spec.job_name << "\n"
      << "#SBATCH --nodes=" << nodes << "\n"
      << "#SBATCH --ntasks=" << spec.gpus << "\n"
      << "#SBATCH --ntasks-per-node=" << per_node << "\n"
      << "#SBATCH --gpus-per-node=" << per_node << "\n"
      << "#SBATCH --time=" << spec.time_limit << "\n";
    if (!spec.partition.empty()) s << "#SBATCH --partition=" << spec.partition << "\n";
    if (!spec.account.empty()) s << "#SBATCH --account=" << spec.account << "\n";
    s << "#SBATCH --output=voxwave-%j.log\n"
      << "\n"
      << "set -euo pipefail\n"
      << "# NVLink multicast (NVLS) must stay off for voxwave's NCCL exchanges.\n"
      << "export NCCL_NVLS_ENABLE=0\n";
    if (spec.extra_modules.find_first_not_of(' ') != std::string::npos)
        // Some sites' module scripts read unset variables: `set -u` is paused around them.
        s << "set +u\n"
          << "module load " << spec.extra_modules << "\n"
          << "set -u\n";
    s << "cd \"$SLURM_SUBMIT_DIR\"\n"
      << "mpirun -np \"$SLURM_NTASKS\" " << shell_quote(spec.cli) << " "
      << (spec.command.empty() ? "run" : spec.command) << " " << shell_quote(spec.scene_file) << " -o "
      << shell_quote(spec.result_file) << " --backend " << spec.backend;
    if (!spec.process_grid.automatic()) s << " --process-grid " << to_string(spec.process_grid);
    s << "\n";
    return s.str();
}

std::string cluster_job_name_for(const std::string& scene_path) {
    std::string name = fs::path(scene_path).stem().string();
    for (char& c : name)
        if (!is_name_char(c)) c = '_';
    return name.empty() ? "voxwave" : name;
}

void create_job_folder(const std::string& folder) {
    if (folder.empty()) throw InputError("", "folder", "must not be empty");
    std::error_code ec;
    if (fs::exists(folder, ec) && !fs::is_directory(folder, ec)) throw InputError(folder, "", "is not a folder");
    fs::create_directories(folder, ec);
    if (ec) throw InputError(folder, "", "cannot create the folder: " + ec.message());
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        throw InputError(folder, "", std::string("cannot write in this folder: ") + std::strerror(errno));
}

void write_cluster_job(const std::string& folder, const Scene& scene, const ClusterJobSpec& asked) {
    if (scene.grid.plane_strain() && asked.gpus > 1)
        throw InputError("", "gpus", "a plane-strain (2D) scene runs in one process: ask for 1 GPU");
    ClusterJobSpec spec = asked;
    if (spec.command.empty()) spec.command = scene.scan ? "scan" : "run";
    if (spec.command == "scan" && !scene.scan)
        throw InputError("", "command", "the scene has no scan (add a \"scan\" block naming a probe)");
    const std::string script = slurm_batch_script(spec);
    create_job_folder(folder);
    const fs::path dir(folder);

    // Every file the scene refers to goes into the folder under its own name.
    Scene s = scene;
    std::vector<std::string*> refs;
    if (s.voxels) refs.push_back(&s.voxels->file);
    for (Source& src : s.sources)
        if (src.wavelet.type == WaveletType::Samples) refs.push_back(&src.wavelet.file);
    std::map<std::string, std::string> taken{{spec.scene_file, "the scene"}, {kClusterJobScript, "the script"}};
    for (std::string* ref : refs) {
        const std::string source = resolve_path(scene.base_dir, *ref);
        const std::string name = fs::path(source).filename().string();
        if (name.empty()) throw InputError(source, "", "is not a file");
        auto [it, inserted] = taken.emplace(name, source);
        if (!inserted) {
            std::error_code ec;
            if (it->second != source && !fs::equivalent(it->second, source, ec))
                throw InputError(source, "",
                                 "has the same name as " + it->second + ": both cannot go into the job folder");
        } else {
            copy_into_folder(source, dir / name);
        }
        *ref = name;
    }
    s.base_dir = folder;
    write_scene_json((dir / spec.scene_file).string(), s);

    AtomicFile file((dir / kClusterJobScript).string());
    file.write(script);
    if (::fchmod(file.fd(), 0755) != 0)
        throw InputError(file.path(), "", std::string("cannot make executable: ") + std::strerror(errno));
    file.commit();
}

}  // namespace voxwave
