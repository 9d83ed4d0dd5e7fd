#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/errors.hpp"

namespace voxwave {
namespace {

InputError write_error(const std::string& path, int err) {
    return InputError(path, "", std::string("cannot write: ") + std::strerror(err));
}

// mkstemp creates files 0600; a saved file should get the permissions any other program would
// give it (0666 minus the umask). Reading the umask through umask() would race with other
// threads creating files, so ask the kernel's status file instead.
mode_t default_file_mode() {
    mode_t mask = 022;
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0) {
            mask = static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
            break;
        }
    }
    return 0666 & ~mask;
}

std::string directory_of(const std::string& path) {
    std::string dir = std::filesystem::path(path).parent_path().string();
    return dir.empty() ? "." : dir;
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    std::string pattern = path_ + ".tmp-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    fd_ = ::mkstemp(buf.data());
    if (fd_ < 0) throw write_error(path_, errno);
    temp_path_ = buf.data();
    // Keep the permissions of the file being replaced, if any.
    struct stat st {};
    mode_t mode = ::stat(path_.c_str(), &st) == 0 ? (st.st_mode & 07777) : default_file_mode();
    ::fchmod(fd_, mode);
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicFile::write(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw write_error(path_, errno);
        }
        done += static_cast<std::size_t>(n);
    }
}

void AtomicFile::commit() {
    // fsync works on the file, not the descriptor, so this also flushes what another
    // descriptor (the HDF5 library's) wrote to temp_path().
    if (::fsync(fd_) != 0) throw write_error(path_, errno);
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw write_error(path_, errno);
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) throw write_error(path_, errno);
    committed_ = true;
    // Make the rename itself durable; a failure here cannot undo the save, so it is not an error.
    int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

void write_file_atomically(const std::string& path, const std::function<void(const std::string& temp_path)>& writer) {
    AtomicFile file(path);
    writer(file.temp_path());
    file.commit();
}

void write_text_atomically(const std::string& path, const std::string& text) {
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

}  // namespace voxwave
