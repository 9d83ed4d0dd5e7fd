#include "wave/tcovfem_int8.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

TcovfemInt8Matrix build_tcovfem_int8_matrix() {
    // K_kappa and K_G on the unit cube: the moment kernel with (lambda, mu) = (1, 0) gives
    // dK/dkappa; (lambda, mu) = (-2/3, 1) gives dK/dG (lambda = kappa - 2G/3, mu = G).
    const ModeScales sc = mode_scales(ElementMethod::Ovfem, 1.0);
    TcovfemInt8Matrix out{};
    for (int part = 0; part < 2; ++part) {
        const double lambda = part == 0 ? 1.0 : -2.0 / 3.0, mu = part == 0 ? 0.0 : 1.0;
        const double denominator = part == 0 ? kTcovfemKappaDenominator : kTcovfemShearDenominator;
        for (int c = 0; c < 24; ++c) {
            double u[24] = {}, f[24];
            u[c] = 1.0;
            voxel_element_force(u, lambda, mu, sc.constant, sc.linear, sc.bilinear, f);
            for (int r = 0; r < 24; ++r) {
                const double v = f[r] * denominator;
                const double iv = std::round(v);
                if (std::fabs(v - iv) > 1e-9)
                    throw RuntimeError("TCOVFEM: entry (" + std::to_string(r) + ", " + std::to_string(c) +
                                       ") of the scaled element matrix is not an integer");
                long value = std::lround(iv);
                if (part == 1 && r == c) {
                    if (value != kTcovfemShearDiagonal)
                        throw RuntimeError("TCOVFEM: the G diagonal is " + std::to_string(value) + ", expected 245");
                    value = 0;  // the diagonal stays in FP64
                }
                if (value < -128 || value > 127) throw RuntimeError("TCOVFEM: scaled entry outside int8");
                out.a[r][24 * part + c] = static_cast<std::int8_t>(value);
            }
        }
    }
    return out;
}

std::array<TcovfemMaterialFactors, 256> tcovfem_material_factors(const std::vector<Material>& materials, double ds) {
    if (materials.size() > 255) throw RuntimeError("more than 255 materials in one model");
    std::array<TcovfemMaterialFactors, 256> out{};
    for (std::size_t m = 0; m < materials.size(); ++m)
        out[m + 1] = {materials[m].bulk_modulus() * ds / kTcovfemKappaDenominator,
                      materials[m].shear_modulus() * ds / kTcovfemShearDenominator};
    return out;
}

std::vector<double> tcovfem_node_diagonal(const VoxelGrid& grid,
                                          const std::array<TcovfemMaterialFactors, 256>& factors) {
    const int nx = grid.n[0], ny = grid.n[1], nz = grid.n[2];
    std::vector<double> diagonal(grid.node_count());
    // Node by node, in parallel: each node sums its (up to) 8 elements in the order of an
    // element loop over k, j, i (the order the terms were once scattered in).
#pragma omp parallel for schedule(static)
    for (int K = 0; K <= nz; ++K)
        for (int J = 0; J <= ny; ++J)
            for (int I = 0; I <= nx; ++I) {
                double sum = 0.0;
                for (int k = std::max(K - 1, 0); k <= std::min(K, nz - 1); ++k)
                    for (int j = std::max(J - 1, 0); j <= std::min(J, ny - 1); ++j)
                        for (int i = std::max(I - 1, 0); i <= std::min(I, nx - 1); ++i) {
                            const MaterialId id = grid.at(i, j, k);
                            if (id != kVoidId) sum += kTcovfemShearDiagonal * factors[id].shear;
                        }
                diagonal[grid.node_index(I, J, K)] = sum;
            }
    return diagonal;
}

}  // namespace voxwave
