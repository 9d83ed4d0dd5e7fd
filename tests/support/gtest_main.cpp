// The main of voxwave's GoogleTest executables: GoogleTest's own, with the skip exit code.
#include "gtest_exit_code.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return voxwave::test::exit_code_of_run(RUN_ALL_TESTS());
}
