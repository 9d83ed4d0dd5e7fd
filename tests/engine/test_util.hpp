// Helpers shared by the engine and gpu tests: per-test temporary directories, file I/O, checks on
// InputError messages, random vectors.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"

namespace voxwave::test {

// n values uniform in [-1, 1] from std::mt19937_64(seed): random inputs for products and states.
inline std::vector<double> random_vector(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    std::vector<double> v(n);
    for (double& x : v) x = U(rng);
    return v;
}

// A fresh directory under the system temp dir, removed with everything in it at scope exit.
class TempDir {
public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name =
            std::string("voxwave-") + (info ? info->name() : "test") + "-" + std::to_string(std::random_device{}());
        std::replace(name.begin(), name.end(), '/', '_');  // parameterised tests are named "Test/3"
        path_ = std::filesystem::temp_directory_path() / name;
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string str() const { return path_.string(); }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    // Names of everything in the directory (to check that no temporary file was left behind).
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        for (const auto& e : std::filesystem::directory_iterator(path_)) out.push_back(e.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    std::filesystem::path path_;
};

// Largest |v_i|, and largest |a_i - b_i|: the numerator and denominator of the traces' relative
// differences (the CUDA-vs-CPU and distributed-vs-one-process tests).
inline double max_abs(const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, std::fabs(x));
    return m;
}
inline double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
    return m;
}

// Every got[i] within tol times `scale` of want[i] (the same size); `what` names the quantity in
// a failure.
inline void expect_near_all_scaled(const std::vector<double>& got, const std::vector<double>& want, double tol,
                                   double scale, const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], tol * scale) << what << " " << i;
}

// Every got[i] within tol times want's largest |value| of want[i] (want not all zero, the same
// size); `what` names the quantity in a failure.
inline void expect_near_all(const std::vector<double>& got, const std::vector<double>& want, double tol,
                            const char* what) {
    const double scale = max_abs(want);
    ASSERT_GT(scale, 0) << what;
    expect_near_all_scaled(got, want, tol, scale, what);
}

inline void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline bool contains_text(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// Runs `f`, which must throw InputError, and returns the error (a test failure otherwise).
template <class F>
InputError catch_input_error(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected InputError, got another exception: " << e.what();
        return InputError("", "", "");
    }
    ADD_FAILURE() << "expected InputError, nothing was thrown";
    return InputError("", "", "");
}

// The message of the InputError `f` must throw, with its field checked against `field`: for tests
// that look for words in the one line.
template <class F>
std::string input_error_message(F&& f, const std::string& field) {
    const InputError e = catch_input_error(std::forward<F>(f));
    EXPECT_EQ(e.field(), field) << e.what();
    return e.what();
}

// The error must name `file` and `field` (exactly) and its reason must contain `reason_part`;
// what() must be the one-line "file: field: reason".
inline void expect_error(const InputError& e, const std::string& file, const std::string& field,
                         const std::string& reason_part) {
    EXPECT_EQ(e.file(), file) << e.what();
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_TRUE(contains_text(e.reason(), reason_part))
        << "reason '" << e.reason() << "' lacks '" << reason_part << "'";
    std::string what = e.what();
    if (!file.empty()) {
        EXPECT_EQ(what.rfind(file + ": ", 0), 0u) << what;
    }
    if (!field.empty()) {
        EXPECT_TRUE(contains_text(what, field + ": ")) << what;
    }
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

}  // namespace voxwave::test
