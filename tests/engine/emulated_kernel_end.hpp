// Closes emulated_kernel_begin.hpp: the macros it defined are gone again.
#undef __shared__
#undef __launch_bounds__
#undef __global__
