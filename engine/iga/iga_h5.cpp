#include "core/atomic_file.hpp"
#include "core/hdf5_util.hpp"
#include "iga/iga_solver.hpp"

namespace voxwave::iga {

void write_iga_h5(const std::string& path, const IgaResult& r) {
    write_file_atomically(path, [&](const std::string& tmp) {
        h5::File f = h5::File::create(tmp, path);
        const hsize_t g = static_cast<hsize_t>(r.params.grid);
        f.write_doubles("/samples/x", {g, g}, r.x.data());
        f.write_doubles("/samples/y", {g, g}, r.y.data());
        f.write_doubles("/samples/u", {g, g}, r.u.data());
        f.write_attribute("/", "format", std::string("voxwave-iga"));
        f.write_attribute("/", "version", std::int32_t{1});
        f.write_attribute("/", "problem", std::string(to_string(r.params.problem)));
        f.write_attribute("/", "degree", std::int32_t{r.params.degree});
        f.write_attribute("/", "elements", std::int32_t{r.params.elements});
        f.write_attribute("/", "backend", r.backend);
        f.write_attribute("/", "threads", std::int32_t{r.threads});
        f.write_attribute("/", "dofs", std::int64_t{r.dofs});
        f.write_attribute("/", "free_dofs", std::int64_t{r.free_dofs});
        f.write_attribute("/", "max_front", std::int32_t{r.max_front});
        f.write_attribute("/", "l2_error", r.l2_error);
        f.write_attribute("/", "setup_seconds", r.setup_seconds);
        f.write_attribute("/", "factor_seconds", r.factor_seconds);
        f.write_attribute("/", "solve_seconds", r.solve_seconds);
        f.write_attribute("/", "device_setup_seconds", r.device_setup_seconds);
        if (r.baseline_max_difference >= 0) {
            f.write_attribute("/", "baseline_solver", r.baseline_solver);
            f.write_attribute("/", "baseline_factor_seconds", r.baseline_factor_seconds);
            f.write_attribute("/", "baseline_analyse_seconds", r.baseline_analyse_seconds);
            f.write_attribute("/", "baseline_solve_seconds", r.baseline_solve_seconds);
            f.write_attribute("/", "baseline_max_difference", r.baseline_max_difference);
        }
        f.close();
    });
}

}  // namespace voxwave::iga
