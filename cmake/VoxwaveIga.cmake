# Optional pieces of engine/iga (issue 6), included from engine/CMakeLists.txt.
# CHOLMOD (SuiteSparse) is the sparse direct baseline when found; otherwise the baseline is
# Eigen's SimplicialLLT (the GPU machine builds from .deb files without SuiteSparse).
find_path(VOXWAVE_CHOLMOD_INCLUDE cholmod.h PATH_SUFFIXES suitesparse)
find_library(VOXWAVE_CHOLMOD_LIB cholmod)
if(VOXWAVE_CHOLMOD_INCLUDE AND VOXWAVE_CHOLMOD_LIB)
  target_include_directories(voxwave_engine PRIVATE ${VOXWAVE_CHOLMOD_INCLUDE})
  target_link_libraries(voxwave_engine PRIVATE ${VOXWAVE_CHOLMOD_LIB})
  target_compile_definitions(voxwave_engine PRIVATE VOXWAVE_HAVE_CHOLMOD=1)
  message(STATUS "voxwave: IGA baseline CHOLMOD (${VOXWAVE_CHOLMOD_LIB})")
else()
  target_compile_definitions(voxwave_engine PRIVATE VOXWAVE_HAVE_CHOLMOD=0)
  message(STATUS "voxwave: IGA baseline Eigen SimplicialLLT (SuiteSparse not found)")
endif()
# The CUDA multi-frontal solver uses batched cuBLAS / cuSOLVER (shared libraries only).
if(VOXWAVE_HAVE_CUDA)
  target_link_libraries(voxwave_engine PRIVATE CUDA::cublas CUDA::cusolver CUDA::cusparse)
endif()
