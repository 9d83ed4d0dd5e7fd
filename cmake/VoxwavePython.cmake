# The voxwave Python module (python/): pybind11 from Debian (pybind11-dev) and the Python headers
# (python3-dev). Included before the engine: a Python extension is a shared object, so every engine
# library it links must be position-independent. The CLI and the module then link the very same
# objects, which is what makes a Python run bit-identical to a CLI run.
#
# Sets VOXWAVE_HAVE_PYTHON (the module is built) and Python3_EXECUTABLE (the tests' interpreter,
# found even when the module is not built, so that its tests can report themselves skipped).
set(VOXWAVE_HAVE_PYTHON OFF)
# Debian's interpreter, whose python3-numpy, python3-h5py and python3-matplotlib install-deps.sh
# installs, rather than whichever python3 comes first on PATH (a pyenv or venv one lacks them);
# -DPython3_EXECUTABLE=... picks another.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
if(VOXWAVE_BUILD_PYTHON)
  find_package(Python3 COMPONENTS Interpreter Development.Module)
  if(Python3_Development.Module_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python3_Development.Module_FOUND AND pybind11_FOUND)
    set(VOXWAVE_HAVE_PYTHON ON)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    # -fPIC alone lets every global function be interposed, which stops GCC from inlining it
    # within its own file; the engine is never interposed, so keep the inlining of a PIE build.
    target_compile_options(voxwave_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-fno-semantic-interposition>)
    message(STATUS "Python module: built (Python ${Python3_VERSION}, pybind11 ${pybind11_VERSION})")
  else()
    message(STATUS "Python module: not built (needs pybind11-dev and python3-dev)")
  endif()
else()
  find_package(Python3 COMPONENTS Interpreter)
  message(STATUS "Python module: not built (VOXWAVE_BUILD_PYTHON is OFF)")
endif()
