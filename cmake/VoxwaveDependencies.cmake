# Third-party dependencies, all from Debian packages (see README).
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  # Debian's libcli11-dev 2.1 ships the header only in some layouts; fall back to the header.
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
endif()

# HDF5: the serial C library (VTK links libhdf5_serial too). FindHDF5 fails on CMake 4.x on the
# GPU machine, so fall back to find_path/find_library.
find_package(HDF5 COMPONENTS C QUIET)
if(HDF5_FOUND)
  add_library(voxwave_hdf5 INTERFACE)
  target_include_directories(voxwave_hdf5 INTERFACE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
  target_link_libraries(voxwave_hdf5 INTERFACE ${HDF5_C_LIBRARIES} ${HDF5_LIBRARIES})
  target_compile_definitions(voxwave_hdf5 INTERFACE ${HDF5_DEFINITIONS})
else()
  find_path(VOXWAVE_HDF5_INCLUDE hdf5.h PATH_SUFFIXES hdf5/serial REQUIRED)
  find_library(VOXWAVE_HDF5_LIB NAMES hdf5_serial hdf5 PATH_SUFFIXES hdf5/serial REQUIRED)
  add_library(voxwave_hdf5 INTERFACE)
  target_include_directories(voxwave_hdf5 INTERFACE ${VOXWAVE_HDF5_INCLUDE})
  target_link_libraries(voxwave_hdf5 INTERFACE ${VOXWAVE_HDF5_LIB})
endif()

set(VOXWAVE_HAVE_CUDA OFF)
if(VOXWAVE_ENABLE_CUDA)
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 80 90)
    endif()
    # The .cu files include engine headers that use C++20 (defaulted operator==). CMake 3.25
    # does not know that nvcc 13 can do C++20, so we tell it the flag.
    # The standard is set only after enable_language: the compiler check itself would fail.
    enable_language(CUDA)
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(VOXWAVE_HAVE_CUDA ON)
  endif()
endif()

# CHOLMOD (SuiteSparse, Debian libsuitesparse-dev): the sparse Cholesky baseline of the Poisson
# solver (issue 5). Optional: the GPU machine builds from a few .deb files without it, and the
# baseline then falls back to Eigen's SimplicialLLT and says so.
find_path(VOXWAVE_CHOLMOD_INCLUDE cholmod.h PATH_SUFFIXES suitesparse)
find_library(VOXWAVE_CHOLMOD_LIB cholmod)
if(VOXWAVE_CHOLMOD_INCLUDE AND VOXWAVE_CHOLMOD_LIB)
  set(VOXWAVE_HAVE_CHOLMOD ON)
  message(STATUS "CHOLMOD found: ${VOXWAVE_CHOLMOD_LIB} (Poisson sparse Cholesky baseline)")
else()
  set(VOXWAVE_HAVE_CHOLMOD OFF)
  message(STATUS "CHOLMOD not found: Poisson CHOLMOD baseline not built (Eigen SimplicialLLT instead)")
endif()
