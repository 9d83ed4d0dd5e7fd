// User-supplied source wavelets (docs/architecture.md#files-and-cli, wavelet type "samples").
#pragma once

#include <string>
#include <vector>

namespace voxwave {

// True for names ending in .h5, .hdf5 or .he5 (any case): those are read as HDF5, others as CSV.
bool is_hdf5_path(const std::string& path);

// CSV: one value per line, or two columns "t,value" of which the second is used; blank lines
// and lines starting with '#' are skipped, and the first data line may be a header
// ("t,value"). HDF5: the 1-D numeric `dataset`. Throws InputError(path, "line N" or the
// dataset, reason) for unreadable files, non-numbers, inconsistent columns or no samples.
std::vector<double> load_wavelet_samples(const std::string& path, const std::string& dataset);

}  // namespace voxwave
