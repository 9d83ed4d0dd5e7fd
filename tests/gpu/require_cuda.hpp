// The skip of a `gpu` test where CUDA cannot run: a build without the CUDA engine, or no device
// (with the driver's reason). GTEST_SKIP makes the test exit with the skip code.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/device.hpp"

#define REQUIRE_CUDA()                                                                           \
    do {                                                                                         \
        std::string why_;                                                                        \
        if (!voxwave::cuda_compiled()) GTEST_SKIP() << "no CUDA device: this build has no CUDA"; \
        if (voxwave::cuda_devices(&why_).empty()) GTEST_SKIP() << "no CUDA device: " << why_;    \
    } while (0)
