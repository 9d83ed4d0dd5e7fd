// Atomic saving (docs/architecture.md#files-and-cli): a crash or a failed write never destroys the
// user's previous file.
//
// The new content goes to a temporary file "PATH.tmp-XXXXXX" in PATH's directory (same file
// system, so the final rename is atomic), is fsynced, and only then renamed over PATH.
#pragma once

#include <functional>
#include <string>

namespace voxwave {

class AtomicFile {
public:
    // Creates the temporary file. Throws InputError(path, "", "cannot write: REASON") when the
    // directory does not exist or is not writable.
    explicit AtomicFile(std::string path);
    // Removes the temporary file unless commit() succeeded.
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    const std::string& path() const noexcept { return path_; }
    const std::string& temp_path() const noexcept { return temp_path_; }
    // Open descriptor of the temporary file, for writers that write through it.
    int fd() const noexcept { return fd_; }

    // Appends bytes through fd(); throws InputError on failure.
    void write(const std::string& bytes);
    // fsync, rename over path(), fsync the directory. Writers that opened temp_path()
    // themselves (HDF5) must have closed it first. Throws InputError on failure (the temporary
    // file is then removed and path() is untouched).
    void commit();

private:
    std::string path_;
    std::string temp_path_;
    int fd_ = -1;
    bool committed_ = false;
};

// Runs `writer(temp_path)` and commits. If the writer throws, the temporary file is removed,
// PATH is untouched and the exception propagates unchanged.
void write_file_atomically(const std::string& path, const std::function<void(const std::string& temp_path)>& writer);
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace voxwave
