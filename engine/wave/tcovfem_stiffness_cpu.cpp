#include "wave/tcovfem_stiffness_cpu.hpp"

#include <omp.h>

#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/central_difference.hpp"
#include "wave/element_rows.hpp"
#include "wave/voxel_element_kernel.hpp"

namespace voxwave {

TcovfemStiffnessCpu::TcovfemStiffnessCpu(const VoxelGrid& grid, const std::vector<Material>& materials, int stages)
    : grid_(grid), stages_(stages), matrix_(build_tcovfem_int8_matrix()) {
    if (!tcovfem_stages_allowed(stages))
        throw std::logic_error("TcovfemStiffnessCpu: stages " + std::to_string(stages) +
                               " outside the run rules (validate_scene refuses them)");
    factors_ = tcovfem_material_factors(materials, grid.spacing);
    diagonal_ = tcovfem_node_diagonal(grid, factors_);
}

template <bool Damped>
void TcovfemStiffnessCpu::apply_plane(int k, const std::array<const double*, 3>& u,
                                      const std::array<const double*, 3>& up, double b, const std::array<double*, 3>& f,
                                      double* rowbuf) const {
    const int nx = grid_.n[0], ny = grid_.n[1];
    const double keep = 1.0 + b;
    const std::size_t stride = static_cast<std::size_t>(nx);
    for (int j = 0; j < ny; ++j) {
        const MaterialId* ids = grid_.ids.data() + grid_.element_index(0, j, k);
        std::size_t rows[4];
        element_row_nodes(grid_, j, k, rows);
        double* __restrict out = rowbuf;
        for (int i = 0; i < nx; ++i) {
            const MaterialId id = ids[i];
            double fe[24];
            if (id == kVoidId) {
                for (int d = 0; d < 24; ++d) out[d * stride + static_cast<std::size_t>(i)] = 0.0;
                continue;
            }
            double we[24];
            for (int c = 0; c < 2; ++c)
                for (int bb = 0; bb < 2; ++bb)
                    for (int a = 0; a < 2; ++a) {
                        const std::size_t node = rows[2 * c + bb] + static_cast<std::size_t>(i + a);
                        const int l = voxel_local_node(a, bb, c);
                        for (int comp = 0; comp < 3; ++comp) {
                            if constexpr (Damped)
                                we[3 * l + comp] =
                                    damped_operand(u[comp][node], up[comp][node], keep, b);  // the GPU's bits
                            else
                                we[3 * l + comp] = u[comp][node];
                        }
                    }
            tcovfem_element_force_int(matrix_, we, factors_[id], stages_, fe);
            for (int d = 0; d < 24; ++d) out[d * stride + static_cast<std::size_t>(i)] = fe[d];
        }
        add_element_row<double>(out, rows, nx, f);
    }
}

void TcovfemStiffnessCpu::apply(const std::array<const double*, 3>& u, const std::array<const double*, 3>& u_prev,
                                double b, const std::array<double*, 3>& f) const {
    const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(grid_.node_count());
    const bool damped = u_prev[0] != nullptr && b != 0.0;
    for_each_element_plane<double>(grid_, f, [&](int k, double* rowbuf) {
        if (damped)
            apply_plane<true>(k, u, u_prev, b, f, rowbuf);
        else
            apply_plane<false>(k, u, u_prev, b, f, rowbuf);
    });
    // The FP64 diagonal remainder, once per node: f_n += D_n w_n.
    const double keep = 1.0 + b;
    const double* __restrict diag = diagonal_.data();
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
        for (int comp = 0; comp < 3; ++comp) {
            double* __restrict fc = f[comp];
            const double* __restrict uc = u[comp];
            if (damped) {
                const double* __restrict pc = u_prev[comp];
#pragma omp for simd schedule(static) nowait
                for (std::ptrdiff_t n = 0; n < nn; ++n) fc[n] += diag[n] * damped_operand(uc[n], pc[n], keep, b);
            } else {
#pragma omp for simd schedule(static) nowait
                for (std::ptrdiff_t n = 0; n < nn; ++n) fc[n] += diag[n] * uc[n];
            }
        }
    }
}

}  // namespace voxwave
