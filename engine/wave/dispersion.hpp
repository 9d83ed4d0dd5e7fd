// Bloch-wave dispersion of the voxel elements on an infinite uniform grid
// (docs/architecture.md#boundaries-sources-receivers-dispersion).
//
// For a plane wave u_node = U exp(i k.x_node), every node sees the 3x3 Hermitian matrix
// D(k) = sum_ab K_ab exp(i k.(x_b - x_a)) (a, b local nodes of one element, 3x3 blocks), and
// the mass rho ds^3 (8 elements x rho ds^3 / 8), so omega^2 = eig(D) / (rho ds^3). The
// central-difference scheme turns omega into omega_num = (2/dt) asin(dt omega / 2).
#pragma once

#include <array>
#include <vector>

#include "model/material.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

// Phase-velocity ratios (numerical / exact) of the three modes sorted ascending (S1, S2, P)
// for wavenumber 2 pi / (ppw * ds) along unit vector `direction`. dt = 0: semi-discrete (no
// time-stepping error). Throws InputError if dt omega / 2 > 1 (unstable dt).
std::array<double, 3> bloch_velocity_ratios(ElementMethod method, double ds, const Material& m, double dt, double ppw,
                                            const std::array<double, 3>& direction);

// The same for the plane-strain square (plane_strain_element_kernel.hpp): the 2x2 matrix
// D(k) = sum_ab K_ab exp(i k.(x_b - x_a)) of one element per unit thickness and the mass rho ds^2
// (4 elements x rho ds^2 / 4); two modes ascending (S, P). direction[2] is ignored.
std::array<double, 2> plane_strain_bloch_velocity_ratios(ElementMethod method, double ds, const Material& m, double dt,
                                                         double ppw, const std::array<double, 3>& direction);

struct DispersionTable {
    int modes = 3;                                  // 3 (S1, S2, P), or 2 (S, P) in plane strain
    std::vector<double> ppw;                        // n
    std::vector<std::array<double, 3>> directions;  // m unit vectors
    std::vector<double> velocity_ratio;             // m x n x modes
    double ratio(std::size_t dir, std::size_t p, int mode) const {
        return velocity_ratio[(dir * ppw.size() + p) * std::size_t(modes) + std::size_t(mode)];
    }
};

// dimensions 2: the plane-strain element (two modes; the directions' z entries must be 0).
DispersionTable dispersion_table(ElementMethod method, double ds, const Material& m, double dt,
                                 const std::vector<double>& ppw, std::vector<std::array<double, 3>> directions,
                                 int dimensions = 3);

// The spectral voxel elements of order p (sem_element_kernel.hpp): the periodic cell of one
// element has p^3 distinct GLL nodes (a node's index modulo p along each axis), so D(k) is
// 3 p^3 square, D_AB = sum over the element's nodes a -> A, b -> B of K_ab exp(i k.(x_b - x_a)),
// with the cell's GLL-lumped mass M_A; omega^2 are the eigenvalues of M^-1/2 D M^-1/2, of which
// the three lowest are the acoustic modes (S1, S2, P) below the first band gap. ppw counts points
// per wavelength against the mean node spacing ds / p (wavenumber 2 pi p / (ppw ds)), so that
// every method is compared at the same number of nodes.
std::array<double, 3> sem_bloch_velocity_ratios(int order, double ds, const Material& m, double dt, double ppw,
                                                const std::array<double, 3>& direction);
DispersionTable sem_dispersion_table(int order, double ds, const Material& m, double dt, const std::vector<double>& ppw,
                                     std::vector<std::array<double, 3>> directions);

// The directions a user usually wants: axis, face diagonal, cube diagonal (dimensions 2: the
// axis and the diagonal of the square).
std::vector<std::array<double, 3>> default_dispersion_directions(int dimensions = 3);
// The points per wavelength of a table nobody chose them for: 4, 5, ..., 40.
std::vector<double> default_dispersion_ppw();

// The checks of a dispersion request from any front end: a spacing in the run rules' range, dt not
// negative, a valid material (validate_material, field "material"), every ppw above 2. Throws
// InputError("", prefix + "spacing" | "dt" | "ppw", reason): the CLI names its options ("--"), the
// Python module its keywords ("").
void check_dispersion_request(double ds, const Material& m, double dt, const std::vector<double>& ppw,
                              const std::string& prefix);

}  // namespace voxwave
