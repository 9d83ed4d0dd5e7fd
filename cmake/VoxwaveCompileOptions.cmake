# Warnings, sanitizers and CPU tuning shared by every voxwave target.
add_library(voxwave_options INTERFACE)
target_compile_options(voxwave_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow>)
if(VOXWAVE_WARNINGS_AS_ERRORS)
  target_compile_options(voxwave_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
if(VOXWAVE_SANITIZE)
  target_compile_options(voxwave_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer>)
  target_link_options(voxwave_options INTERFACE -fsanitize=address,undefined)
endif()
if(VOXWAVE_NATIVE_ARCH)
  # GCC 12 reports false maybe-uninitialized warnings inside its own AVX-512 headers (via Eigen).
  target_compile_options(voxwave_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native -Wno-maybe-uninitialized>)
endif()
