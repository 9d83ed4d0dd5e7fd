// `voxwave-cli dispersion`: Bloch-wave phase-velocity ratios vs points per wavelength.
#include <cstdio>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene.hpp"
#include "wave/dispersion.hpp"
#include "wave/wave_io.hpp"

namespace voxwave::cli {
namespace {
struct DispersionOptions {
    std::string method, out;
    double spacing = 0, density = 0, vp = 0, vs = 0, dt = 0;
    int order = kSemMaxOrder;
    std::vector<double> ppw;
    bool quiet = false;
};

int run(const DispersionOptions& o) {
    const Method m = parse_method(o.method, "--method");
    check_sem_order(o.order, "", "--order");
    Material mat{.name = "material", .density = o.density, .vp = o.vp, .vs = o.vs, .color = "#808080", .source = ""};
    const std::vector<double> ppw = o.ppw.empty() ? default_dispersion_ppw() : o.ppw;
    check_dispersion_request(o.spacing, mat, o.dt, ppw, "--");
    check_output_path(o.out);
    const auto table = m == Method::Sem
                           ? sem_dispersion_table(o.order, o.spacing, mat, o.dt, ppw, default_dispersion_directions())
                           : dispersion_table(m == Method::Vfem ? ElementMethod::Vfem : ElementMethod::Ovfem, o.spacing,
                                              mat, o.dt, ppw, default_dispersion_directions());
    const std::string name = m == Method::Sem ? "sem" + std::to_string(o.order) : std::string(to_string(m));
    write_dispersion_h5(o.out, name, o.spacing, o.dt, table);
    if (!o.quiet) {
        const char* dname[3] = {"axis [100]", "face diagonal [110]", "cube diagonal [111]"};
        std::printf("%s phase velocity / exact (S1, S2, P)%s\n", name.c_str(),
                    m == Method::Sem ? ", ppw against the mean node spacing ds / p" : "");
        for (std::size_t d = 0; d < table.directions.size(); ++d) {
            std::printf("  %s\n", dname[d]);
            for (std::size_t p = 0; p < ppw.size(); ++p)
                if (ppw[p] == 5 || ppw[p] == 10 || ppw[p] == 20 || ppw[p] == 40 || ppw.size() <= 6)
                    std::printf("    ppw %5.1f: %.5f %.5f %.5f\n", ppw[p], table.ratio(d, p, 0), table.ratio(d, p, 1),
                                table.ratio(d, p, 2));
        }
        std::printf("wrote %s\n", o.out.c_str());
    }
    return kOk;
}
}  // namespace

std::function<int()> add_dispersion_command(CLI::App& app) {
    auto o = std::make_shared<DispersionOptions>();
    CLI::App* c =
        app.add_subcommand("dispersion", "Bloch-wave dispersion of a voxel method or sem p (phase velocity ratios)");
    c->add_option("--method", o->method, "vfem | ovfem | sem")->required();
    c->add_option("--order", o->order, "sem: the GLL order p, 2..4 (default 4)");
    c->add_option("--spacing", o->spacing, "Voxel size ds in metres")->required();
    c->add_option("--density", o->density, "Density in kg/m^3")->required();
    c->add_option("--vp", o->vp, "P-wave speed in m/s")->required();
    c->add_option("--vs", o->vs, "S-wave speed in m/s")->required();
    c->add_option("--dt", o->dt, "Time step in s (0: no time-stepping error)");
    c->add_option("--ppw", o->ppw, "Points per wavelength (default 4..40)");
    c->add_option("--out,-o", o->out, "Output HDF5 file")->required();
    c->add_flag("--quiet,-q", o->quiet, "Print nothing but errors");
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
