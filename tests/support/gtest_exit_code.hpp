// The exit code a GoogleTest run hands to CTest (cmake/VoxwaveTesting.cmake holds the rule).
// Plain GoogleTest exits 0 after GTEST_SKIP, which CTest counts as a pass; here a run in which a
// case skipped and none failed exits with VOXWAVE_SKIP_RETURN_CODE, which CTest's
// SKIP_RETURN_CODE reports as skipped. Output is never read for a skip.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>

#ifndef VOXWAVE_SKIP_RETURN_CODE
#error "VOXWAVE_SKIP_RETURN_CODE comes from cmake/VoxwaveTesting.cmake (link voxwave_gtest_exit)"
#endif

namespace voxwave::test {

// What one process saw of the run.
struct RunOutcome {
    bool failed = false;       // a case failed, or something outside the cases did
    bool skipped = false;      // a case skipped (and did not fail: a failed case counts as failed)
    bool ran_nothing = false;  // the filter selected no case: a registration that tests nothing
};

inline RunOutcome outcome_of_run(int run_all_tests_result) {
    const ::testing::UnitTest& u = *::testing::UnitTest::GetInstance();
    RunOutcome o;
    o.failed = run_all_tests_result != 0 || u.Failed();
    o.skipped = u.skipped_test_count() > 0;
    o.ran_nothing = u.test_to_run_count() == 0;
    return o;
}

// Failure wins over skip, and a run that selected nothing fails. Listing the cases is no run.
inline int exit_code_of(const RunOutcome& o) {
    if (GTEST_FLAG_GET(list_tests)) return o.failed ? 1 : 0;
    if (o.failed) return 1;
    if (o.ran_nothing) {
        std::fprintf(stderr, "no test case matches the filter '%s'\n", GTEST_FLAG_GET(filter).c_str());
        return 1;
    }
    return o.skipped ? VOXWAVE_SKIP_RETURN_CODE : 0;
}

inline int exit_code_of_run(int run_all_tests_result) { return exit_code_of(outcome_of_run(run_all_tests_result)); }

}  // namespace voxwave::test
