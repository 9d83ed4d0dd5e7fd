# How voxwave's tests are registered with CTest: the one home of the skip rule.
#
# A skip is an exit code, never an output pattern: every test gets SKIP_RETURN_CODE
# ${VOXWAVE_SKIP_RETURN_CODE}. A GoogleTest executable links `voxwave_gtest_main` (or calls
# voxwave::test::exit_code_of_run in its own main), which exits with that code when a case
# skipped and none failed; plain GoogleTest exits 0 after GTEST_SKIP, so CTest would count the
# skip as a pass. Shell tests exit with it themselves. An output pattern would let a test that
# prints "SKIPPED" and then fails be reported as skipped.
#
# Each GoogleTest case is its own CTest test (voxwave_discover_gtests), so one case's skip cannot
# hide another case's failure. tests/harness/ checks these rules on a scratch project that
# includes this file.
#
# This file is also read by CTest (the discovery step in voxwave_discover_gtests), so its top
# level only defines functions and variables.
set(VOXWAVE_SKIP_RETURN_CODE 77)
set(_VOXWAVE_TESTING_FILE "${CMAKE_CURRENT_LIST_FILE}")
get_filename_component(_VOXWAVE_TESTING_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
# The variables above belong to each including directory (tests/ and tests/fuzz are siblings);
# the functions below are global and defined once.
include_guard(GLOBAL)

# voxwave_add_gtest_main(): the libraries `voxwave_gtest_exit` (the exit-code rule, for a test
# with its own main) and `voxwave_gtest_main` (a main that applies it).
function(voxwave_add_gtest_main)
  if(TARGET voxwave_gtest_main)
    return()
  endif()
  find_package(GTest REQUIRED)
  add_library(voxwave_gtest_exit INTERFACE)
  target_include_directories(voxwave_gtest_exit INTERFACE "${_VOXWAVE_TESTING_ROOT}/tests/support")
  target_compile_definitions(voxwave_gtest_exit INTERFACE VOXWAVE_SKIP_RETURN_CODE=${VOXWAVE_SKIP_RETURN_CODE})
  target_link_libraries(voxwave_gtest_exit INTERFACE GTest::gtest)
  add_library(voxwave_gtest_main STATIC "${_VOXWAVE_TESTING_ROOT}/tests/support/gtest_main.cpp")
  target_link_libraries(voxwave_gtest_main PUBLIC voxwave_gtest_exit)
endfunction()

# voxwave_add_script_test(NAME name COMMAND cmd... [LABELS l...] [ENVIRONMENT e...] [TIMEOUT s]):
# a test that reports a skip by exiting with VOXWAVE_SKIP_RETURN_CODE.
function(voxwave_add_script_test)
  cmake_parse_arguments(ARG "" "NAME;TIMEOUT" "COMMAND;LABELS;ENVIRONMENT" ${ARGN})
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_COMMAND})
  set_tests_properties(${ARG_NAME} PROPERTIES SKIP_RETURN_CODE ${VOXWAVE_SKIP_RETURN_CODE})
  if(ARG_LABELS)
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
  if(ARG_ENVIRONMENT)
    set_tests_properties(${ARG_NAME} PROPERTIES ENVIRONMENT "${ARG_ENVIRONMENT}")
  endif()
  if(ARG_TIMEOUT)
    set_tests_properties(${ARG_NAME} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  endif()
endfunction()

# voxwave_discover_gtests(TARGET t [PREFIX p] [FILTER f] [LAUNCHER cmd...] [LABELS l...]
#                         [ENVIRONMENT e...] [TIMEOUT s])
# One CTest test per GoogleTest case of executable t (matching the GoogleTest filter f), named
# p<Suite>.<Case> and run as `cmd... t --gtest_filter=<Suite>.<Case>`: LAUNCHER is how the
# MPI cases run under mpiexec with a rank count. The cases are listed when CTest starts (and again
# whenever the executable or this registration changed), by running t --gtest_list_tests
# directly with ENVIRONMENT. A missing executable or a failed listing becomes a failing test.
function(voxwave_discover_gtests)
  cmake_parse_arguments(ARG "" "TARGET;PREFIX;FILTER;TIMEOUT" "LAUNCHER;LABELS;ENVIRONMENT" ${ARGN})
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "voxwave_discover_gtests: TARGET is required")
  endif()
  if(NOT ARG_FILTER)
    set(ARG_FILTER "*")
  endif()
  string(MAKE_C_IDENTIFIER "${ARG_TARGET}_${ARG_PREFIX}${ARG_FILTER}" id)
  set(base "${CMAKE_CURRENT_BINARY_DIR}/${id}")
  # Lists are written as bracket arguments: a launcher or environment list keeps its separators.
  set(config "set(exe [==[$<TARGET_FILE:${ARG_TARGET}>]==])\n")
  string(APPEND config "set(prefix [==[${ARG_PREFIX}]==])\nset(filter [==[${ARG_FILTER}]==])\n")
  string(APPEND config "set(launcher [==[${ARG_LAUNCHER}]==])\nset(environment [==[${ARG_ENVIRONMENT}]==])\n")
  string(APPEND config "set(cmake [==[${CMAKE_COMMAND}]==])\nset(tests_file [==[${base}_tests.cmake]==])\n")
  # Each property value is one bracket argument: LABELS and ENVIRONMENT are lists.
  set(prop_args "[==[SKIP_RETURN_CODE]==] ${VOXWAVE_SKIP_RETURN_CODE}")
  if(ARG_LABELS)
    string(APPEND prop_args " LABELS [==[${ARG_LABELS}]==]")
  endif()
  if(ARG_ENVIRONMENT)
    string(APPEND prop_args " ENVIRONMENT [==[${ARG_ENVIRONMENT}]==]")
  endif()
  if(ARG_TIMEOUT)
    string(APPEND prop_args " TIMEOUT ${ARG_TIMEOUT}")
  endif()
  string(APPEND config "set(properties [===[${prop_args}]===])\n")
  file(GENERATE OUTPUT "${base}_config.cmake" CONTENT "${config}")
  file(WRITE "${base}_include.cmake"
    "include([==[${_VOXWAVE_TESTING_FILE}]==])\n"
    "voxwave_refresh_gtest_cases([==[${base}_config.cmake]==])\n"
    "include([==[${base}_tests.cmake]==])\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${base}_include.cmake")
endfunction()

# Run by CTest: (re)writes the tests file of one voxwave_discover_gtests registration when it is
# missing or older than the executable or the registration.
function(voxwave_refresh_gtest_cases config_file)
  include("${config_file}")
  if(EXISTS "${tests_file}" AND EXISTS "${exe}" AND "${tests_file}" IS_NEWER_THAN "${exe}"
     AND "${tests_file}" IS_NEWER_THAN "${config_file}" AND "${tests_file}" IS_NEWER_THAN "${CMAKE_CURRENT_FUNCTION_LIST_FILE}")
    return()
  endif()
  # A registration that cannot list its cases is one failing test, never silence.
  get_filename_component(exe_name "${exe}" NAME)
  string(CONCAT broken "add_test([==[${prefix}${exe_name}.CASES_NOT_LISTED]==] [==[${cmake}]==] -E false)\n"
    "set_tests_properties([==[${prefix}${exe_name}.CASES_NOT_LISTED]==] PROPERTIES ${properties})\n")
  if(NOT EXISTS "${exe}")
    message(WARNING "${exe}: not built, its GoogleTest cases are not registered")
    file(WRITE "${tests_file}" "${broken}")
    return()
  endif()
  execute_process(COMMAND "${cmake}" -E env ${environment} "${exe}" --gtest_list_tests "--gtest_filter=${filter}"
    OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE rc TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(WARNING "${exe} --gtest_list_tests failed (${rc}): ${errors}")
    file(WRITE "${tests_file}" "${broken}")
    return()
  endif()
  # The "  # GetParam() = ..." comments print parameter values, which may hold unbalanced brackets
  # (a JSON snippet, say): CMake's list splitting would then merge every later line into one
  # element and lose those cases. Names hold neither brackets nor semicolons: drop the comments.
  string(REGEX REPLACE "  # [^\n]*" "" listing "${listing}")
  string(REPLACE ";" "\\;" listing "${listing}")
  string(REPLACE "\n" ";" lines "${listing}")
  set(script "")
  set(suite "")
  set(count 0)
  foreach(line IN LISTS lines)
    # "Suite.  # TypeParam = ..." starts a suite; "  Case  # GetParam() = ..." is one of its cases.
    if(line MATCHES "^([A-Za-z0-9_/]+)\\.( +#.*)?$")
      set(suite "${CMAKE_MATCH_1}")
    elseif(suite AND line MATCHES "^  ([A-Za-z0-9_/]+)( +#.*)?$")
      set(case "${suite}.${CMAKE_MATCH_1}")
      set(name "${prefix}${case}")
      string(APPEND script "add_test([==[${name}]==]")
      foreach(word IN LISTS launcher)
        string(APPEND script " [==[${word}]==]")
      endforeach()
      string(APPEND script " [==[${exe}]==] [==[--gtest_filter=${case}]==])\n")
      string(APPEND script "set_tests_properties([==[${name}]==] PROPERTIES ${properties})\n")
      if(case MATCHES "(^|\\.|/)DISABLED_")
        string(APPEND script "set_tests_properties([==[${name}]==] PROPERTIES DISABLED TRUE)\n")
      endif()
      math(EXPR count "${count} + 1")
    endif()
  endforeach()
  if(count EQUAL 0)
    message(WARNING "${exe}: no GoogleTest case matches '${filter}'")
    set(script "${broken}")
  endif()
  file(WRITE "${tests_file}" "${script}")
endfunction()
