// The signals of an array probe's full matrix capture (FMC: each element fires alone, every element
// listens) or plane-wave acquisition (PWI: all elements fire with a plane-wave delay law per angle),
// as stored in an HDF5 file (docs/architecture.md#imaging): /fmc or /pwi with data, time and
// element_positions, and the array's frame and the wavelet's reference time as the group's
// attributes. The reader checks everything once, so the imaging code can trust what it gets.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace voxwave {

namespace h5 {
class File;
}

enum class AcquisitionType { Fmc, Pwi };

// "fmc" or "pwi": also the HDF5 group's name.
const char* to_string(AcquisitionType t);

struct ArrayAcquisition {
    AcquisitionType type = AcquisitionType::Fmc;
    // Transmissions: n_tx = the element count for FMC (element i fires in shot i), the angle count
    // for PWI. Every element receives, in element order.
    std::size_t n_tx = 0, n_rx = 0;
    std::vector<double> data;                              // n_tx x n_rx x nt, row-major (the received signals)
    std::vector<double> time;                              // nt, s, uniformly spaced
    std::vector<std::array<double, 3>> element_positions;  // n_rx, m
    // PWI only: n_tx angles in degrees, from the normal towards array_axis. Time zero of a
    // plane-wave shot (after the reference time) is when its wavefront crosses the array centre.
    std::vector<double> angles;
    double pitch = 0;                           // m
    std::array<double, 3> normal{0, 0, 1};      // unit, into the material: the image's depth axis
    std::array<double, 3> array_axis{1, 0, 0};  // unit, along the elements: the image's lateral axis
    // The time of the transmitted wavelet's reference point (a tone burst's centre, a Ricker's
    // peak): an echo from depth d arrives at reference_time + 2 d / c.
    double reference_time = 0;
    // Optional (0: not recorded): the material's P and S speeds, m/s, and the wavelet's centre
    // frequency, Hz. Imaging takes its defaults from them.
    double vp = 0, vs = 0, frequency = 0;

    std::size_t sample_count() const { return time.size(); }
    double dt() const { return time.size() > 1 ? time[1] - time[0] : 0; }
    // The signal of transmission tx received by element rx: nt values.
    const double* signal(std::size_t tx, std::size_t rx) const { return data.data() + (tx * n_rx + rx) * time.size(); }
};

// Throws InputError(label, "/GROUP/DATASET" or the attribute, reason) at the first thing wrong:
// shapes that disagree, fewer than 2 samples or 1 element, a time axis that is not increasing
// and uniform, a non-finite value, pitch <= 0, a normal or array axis that is zero or not
// perpendicular to the other, a PWI angle outside (-90, 90) degrees, a negative speed or frequency.
// Normalises normal and array_axis.
void check_array_acquisition(ArrayAcquisition& a, const std::string& label);

// Reads /fmc (or /pwi when the file has no /fmc) from any HDF5 file: a standalone acquisition or
// a result file that carries one. Throws InputError naming the file, the dataset or attribute
// and the reason.
ArrayAcquisition read_array_acquisition_h5(const std::string& path);

// Writes a standalone acquisition file (root attributes format "voxwave-acquisition", version 1,
// and the group), atomically. Checks it first (a bad one is the caller's bug: RuntimeError).
void write_array_acquisition_h5(const std::string& path, const ArrayAcquisition& a);

// Writes the acquisition's group (/fmc or /pwi: data, time, element_positions, angles and the
// attributes) into an open file: what write_array_acquisition_h5 writes under its root, and what
// a scan's result file carries (write_result_h5's `more`). Checks it first, as above.
void write_array_acquisition_group(h5::File& f, const ArrayAcquisition& a);

}  // namespace voxwave
