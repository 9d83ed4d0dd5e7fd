#include "core/atomic_file.hpp"
#include "core/hdf5_util.hpp"
#include "poisson/poisson_run.hpp"

namespace voxwave::poisson {

void write_poisson_h5(const PoissonResult& r, const std::string& path) {
    write_file_atomically(path, [&](const std::string& temp) {
        h5::silence_library_errors();
        h5::File f = h5::File::create(temp, path);
        const hsize_t N = static_cast<hsize_t>(r.N), K = static_cast<hsize_t>(r.solution.cols());
        std::vector<double> nodes(2 * N);
        for (hsize_t i = 0; i < N; ++i) {
            nodes[2 * i] = r.nodes[i][0];
            nodes[2 * i + 1] = r.nodes[i][1];
        }
        f.write_doubles("/nodes", {N, 2}, nodes.data());
        // Row-major N x K (h5py's view): node i, right-hand side k.
        const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> x = r.solution;
        if (K == 1)
            f.write_doubles("/solution", {N}, x.data());
        else
            f.write_doubles("/solution", {N, K}, x.data());
        f.write_attribute("/", "format", std::string("voxwave-poisson"));
        f.write_attribute("/", "version", std::int32_t(1));
        f.write_attribute("/", "grid", std::string(poisson_grid_name(r.params.grid)));
        f.write_attribute("/", "level", std::int32_t(r.params.level));
        f.write_attribute("/", "coarse_level", std::int32_t(r.params.coarse_level));
        f.write_attribute("/", "precision", std::string(poisson_precision_name(r.params.precision)));
        f.write_attribute("/", "backend", r.backend);
        f.write_attribute("/", "backend_note", r.backend_note);
        f.write_attribute("/", "rhs", std::int32_t(r.params.rhs));
        f.write_attribute("/", "solution_n", std::int32_t(r.params.solution));
        f.write_attribute("/", "unknowns", std::int64_t(r.N));
        f.write_attribute("/", "coarse_nodes", std::int64_t(r.nC));
        f.write_attribute("/", "edge_nodes", std::int64_t(r.nE));
        f.write_attribute("/", "interior_nodes", std::int64_t(r.nI));
        f.write_attribute("/", "relative_error", r.relative_error);
        f.write_attribute("/", "max_relative_error", r.max_relative_error);
        f.write_attribute("/", "flops_per_rhs", r.flops_per_rhs);
        f.write_attribute("/", "gflops", r.gflops);
        f.write_attribute("/", "mdofs", r.mdofs);
        f.write_attribute("/", "seconds_assembly", r.timings.assembly);
        f.write_attribute("/", "seconds_prehandling", r.timings.prehandling);
        f.write_attribute("/", "seconds_transforms", r.timings.transforms);
        f.write_attribute("/", "seconds_upload", r.timings.upload);
        f.write_attribute("/", "seconds_solve", r.timings.solve);
        f.close();
    });
}

}  // namespace voxwave::poisson
