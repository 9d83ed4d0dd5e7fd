// Typed errors thrown at the engine's API boundaries.
//
// InputError is for anything a user can fix (a bad file, field or value). Its what() is the
// one-line message the CLI prints and the GUI shows: "FILE: FIELD: REASON", with empty parts
// left out, so every front end reports bad input the same way.
#pragma once

#include <stdexcept>
#include <string>

namespace voxwave {

class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string field, std::string reason);

    const std::string& file() const noexcept { return file_; }
    const std::string& field() const noexcept { return field_; }
    const std::string& reason() const noexcept { return reason_; }

    // The same error, attributed to another file (used when a reader that knew no file name
    // is called on behalf of one).
    InputError with_file(const std::string& file) const;
    // The same error with FIELD prefixed by PARENT ("sources[0]" + "position").
    InputError within(const std::string& parent) const;

private:
    std::string file_;
    std::string field_;
    std::string reason_;
};

// Failures that are not the user's input: out of memory, an HDF5 library failure on a file we
// just wrote, an internal inconsistency. Still reported in one line; never a crash.
class RuntimeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What every front end says when an allocation fails (std::bad_alloc says nothing useful).
inline constexpr const char* kOutOfMemoryMessage = "out of memory (the model is too large for this machine)";

}  // namespace voxwave
