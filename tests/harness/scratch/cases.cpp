// Cases with known outcomes for the harness self-test (check_skip_reporting.cmake holds the
// expected CTest status of each).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

TEST(Honest, Passes) { EXPECT_EQ(2 + 2, 4); }
TEST(Honest, Skips) { GTEST_SKIP() << "no device"; }
// The pattern an output-matching registration would take for a skip, then a failure.
TEST(Honest, PrintsSkippedThenFails) {
    std::printf("SKIPPED: no device\n[  SKIPPED ] Honest.PrintsSkippedThenFails\n");
    ADD_FAILURE() << "a failure after the word SKIPPED";
}
TEST(Honest, FailsThenSkips) {
    ADD_FAILURE() << "a failure before the skip";
    GTEST_SKIP() << "skipped after failing";
}
TEST(Honest, PrintsSkippedThenCrashes) {
    std::printf("SKIPPED\n");
    std::fflush(stdout);
    std::abort();
}
TEST(Honest, PrintsSkippedAndPasses) { std::printf("SKIPPED (only words)\n"); }
TEST(Honest, DISABLED_NeverRuns) { FAIL(); }

// One parameterised case skips, its neighbour fails: each is its own CTest test.
class HonestParam : public ::testing::TestWithParam<int> {};
TEST_P(HonestParam, Case) {
    if (GetParam() == 1) GTEST_SKIP() << "param 1 skips";
    EXPECT_NE(GetParam(), 2) << "param 2 fails";
}
INSTANTIATE_TEST_SUITE_P(Values, HonestParam, ::testing::Values(0, 1, 2));

// Printed parameters with unbalanced brackets and semicolons (as JSON snippets have): every case
// after them must still be its own CTest test, the failing one included.
class BracketParam : public ::testing::TestWithParam<const char*> {};
TEST_P(BracketParam, Case) { EXPECT_STRNE(GetParam(), "fails]") << "the last bracket case fails"; }
INSTANTIATE_TEST_SUITE_P(Printed, BracketParam, ::testing::Values("[open; [", "passes", "fails]"));

TEST(LaunchedHonest, Skips) {
    ASSERT_STREQ(std::getenv("VOXWAVE_SCRATCH"), "1");
    GTEST_SKIP() << "no device";
}
TEST(LaunchedHonest, PrintsSkippedThenFails) {
    std::printf("SKIPPED\n");
    FAIL() << "failed";
}
