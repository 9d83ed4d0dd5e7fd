# The harness self-test (cmake -P). Fails whenever a skip could hide a failure:
#  1. a scratch project (scratch/) registered by cmake/VoxwaveTesting.cmake, built and run by
#     CTest: every case must get its expected status (a test that prints SKIPPED and then fails
#     is failed; GTEST_SKIP and exit 77 are skipped; one parameterised case's skip does not hide
#     its neighbour's failure), and the shared main's exit codes are checked directly;
#  2. the tests of this build (BUILD_DIR): none takes a skip or a pass from its output, every one
#     maps exit 77 to a skip, every GoogleTest test runs exactly one case.
# Variables: SOURCE_DIR BUILD_DIR WORK_DIR GENERATOR MAKE_PROGRAM CXX_COMPILER [CXX_LAUNCHER].
cmake_minimum_required(VERSION 3.25)
foreach(v SOURCE_DIR BUILD_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_skip_reporting.cmake: -D ${v}=... is required")
  endif()
endforeach()
include("${SOURCE_DIR}/cmake/VoxwaveTesting.cmake")

set(errors 0)
macro(fail msg)
  message(SEND_ERROR "${msg}")
  math(EXPR errors "${errors} + 1")
endmacro()

# --- 1. the scratch project ---------------------------------------------------------------
set(scratch "${WORK_DIR}/scratch-build")
file(REMOVE_RECURSE "${scratch}")
set(configure_args -S "${CMAKE_CURRENT_LIST_DIR}/scratch" -B "${scratch}" -G "${GENERATOR}"
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DVOXWAVE_SOURCE_DIR=${SOURCE_DIR}")
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(CXX_LAUNCHER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the scratch project failed:\n${out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${scratch}" OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the scratch project failed:\n${out}")
endif()
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --output-junit "${scratch}/results.xml"
  WORKING_DIRECTORY "${scratch}" OUTPUT_VARIABLE ctest_out ERROR_VARIABLE ctest_out RESULT_VARIABLE rc)
message(STATUS "scratch project's ctest (exit ${rc}):\n${ctest_out}")
if(rc EQUAL 0)
  fail("ctest passed a run that has failing tests")
endif()

# The CTest status of each scratch test, from its JUnit report.
set(expected
  "direct.Honest.Passes=run"
  "direct.Honest.Skips=notrun"
  "direct.Honest.PrintsSkippedThenFails=fail"
  "direct.Honest.FailsThenSkips=fail"
  "direct.Honest.PrintsSkippedThenCrashes=fail"
  "direct.Honest.PrintsSkippedAndPasses=run"
  "direct.Honest.DISABLED_NeverRuns=disabled"
  "direct.Values/HonestParam.Case/0=run"
  "direct.Values/HonestParam.Case/1=notrun"
  "direct.Values/HonestParam.Case/2=fail"
  "direct.Printed/BracketParam.Case/0=run"
  "direct.Printed/BracketParam.Case/1=run"
  "direct.Printed/BracketParam.Case/2=fail"
  "launched.LaunchedHonest.Skips=notrun"
  "launched.LaunchedHonest.PrintsSkippedThenFails=fail"
  "script.exits_77=notrun"
  "script.prints_skipped_then_fails=fail"
  "script.prints_skipped_and_passes=run")
if(NOT EXISTS "${scratch}/results.xml")
  message(FATAL_ERROR "ctest wrote no JUnit report")
endif()
file(READ "${scratch}/results.xml" junit)
string(REGEX MATCHALL "<testcase name=\"[^\"]*\"[^>]*status=\"[^\"]*\"" cases "${junit}")
set(seen "")
foreach(c IN LISTS cases)
  string(REGEX REPLACE "^<testcase name=\"([^\"]*)\".*status=\"([^\"]*)\"$" "\\1=\\2" c "${c}")
  list(APPEND seen "${c}")
endforeach()
foreach(e IN LISTS expected)
  string(REGEX REPLACE "=.*" "" name "${e}")
  list(FIND seen "${e}" at)
  if(at EQUAL -1)
    set(got "missing")
    foreach(s IN LISTS seen)
      if(s MATCHES "^([^=]*)=(.*)$" AND CMAKE_MATCH_1 STREQUAL name)
        set(got "${CMAKE_MATCH_2}")
      endif()
    endforeach()
    string(REGEX REPLACE "^.*=" "" want "${e}")
    fail("${name}: CTest status '${got}', expected '${want}' (run = passed, notrun = skipped)")
  endif()
endforeach()
list(LENGTH expected n_expected)
list(LENGTH seen n_seen)
if(NOT n_seen EQUAL n_expected)
  fail("the scratch project registered ${n_seen} tests, expected ${n_expected}: ${seen}")
endif()

# The shared main's exit codes, run directly: a filter that selects nothing is a failure, not a
# pass; a pass and a skip together report the skip; a failure wins over a skip.
set(exe "${scratch}/scratch_cases")
foreach(check "NoSuchCase.*=1" "Honest.Passes=0" "Honest.Skips=${VOXWAVE_SKIP_RETURN_CODE}"
              "Honest.Passes:Honest.Skips=${VOXWAVE_SKIP_RETURN_CODE}" "Honest.Skips:Honest.PrintsSkippedThenFails=1")
  string(REGEX MATCH "^([^=]*)=(.*)$" _ "${check}")
  set(filter "${CMAKE_MATCH_1}")
  set(want "${CMAKE_MATCH_2}")
  execute_process(COMMAND "${exe}" "--gtest_filter=${filter}" OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc STREQUAL want)
    fail("scratch_cases --gtest_filter=${filter} exited ${rc}, expected ${want}")
  endif()
endforeach()

# --- 2. the tests of this build -------------------------------------------------------------
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --show-only=json-v1 WORKING_DIRECTORY "${BUILD_DIR}"
  OUTPUT_VARIABLE json ERROR_VARIABLE json_err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctest --show-only=json-v1 in ${BUILD_DIR} failed: ${json_err}")
endif()
string(JSON n_tests LENGTH "${json}" tests)
if(n_tests EQUAL 0)
  fail("${BUILD_DIR} has no tests")
endif()
math(EXPR last "${n_tests} - 1")
set(n_gtest 0)
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  if(name MATCHES "CASES_NOT_LISTED$")
    fail("${name}: a GoogleTest executable's cases could not be listed")
  endif()
  set(skip_code "")
  string(JSON n_props ERROR_VARIABLE no_props LENGTH "${json}" tests ${i} properties)
  if(NOT no_props AND n_props GREATER 0)
    math(EXPR last_prop "${n_props} - 1")
    foreach(j RANGE ${last_prop})
      string(JSON prop GET "${json}" tests ${i} properties ${j} name)
      if(prop MATCHES "^(SKIP_REGULAR_EXPRESSION|PASS_REGULAR_EXPRESSION)$")
        fail("${name}: ${prop} takes the test's status from its output")
      elseif(prop STREQUAL "SKIP_RETURN_CODE")
        string(JSON skip_code GET "${json}" tests ${i} properties ${j} value)
      endif()
    endforeach()
  endif()
  if(NOT skip_code STREQUAL "${VOXWAVE_SKIP_RETURN_CODE}")
    fail("${name}: SKIP_RETURN_CODE is '${skip_code}', not ${VOXWAVE_SKIP_RETURN_CODE}")
  endif()
  string(JSON n_args ERROR_VARIABLE no_command LENGTH "${json}" tests ${i} command)
  if(no_command)
    continue()
  endif()
  math(EXPR last_arg "${n_args} - 1")
  set(gtest_exe FALSE)
  set(gtest_filter "")
  foreach(j RANGE ${last_arg})
    string(JSON arg GET "${json}" tests ${i} command ${j})
    if(arg MATCHES "/voxwave_[a-z_]+_tests$")
      set(gtest_exe TRUE)
    elseif(arg MATCHES "^--gtest_filter=(.*)$")
      set(gtest_filter "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(gtest_exe)
    math(EXPR n_gtest "${n_gtest} + 1")
    if(gtest_filter STREQUAL "" OR gtest_filter MATCHES "[*?:]" OR gtest_filter MATCHES "^-")
      fail("${name}: runs '${gtest_filter}', not exactly one GoogleTest case")
    endif()
  endif()
endforeach()
message(STATUS "${n_tests} tests in ${BUILD_DIR}, ${n_gtest} of them GoogleTest cases: checked")
if(n_gtest EQUAL 0)
  fail("no GoogleTest case of ${BUILD_DIR} was recognised")
endif()

if(errors GREATER 0)
  message(FATAL_ERROR "${errors} check(s) failed: a skip could hide a failure")
endif()
message(STATUS "skips cannot hide failures: every check passed")
