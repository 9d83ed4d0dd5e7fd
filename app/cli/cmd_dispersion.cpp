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
    bool plane_strain = false;
};

int run(const DispersionOptions& o) {
    const Method m = parse_method(o.method, "--method");
    check_sem_order(o.order, "", "--order");
    Material mat{.name = "material", .density = o.density, .vp = o.vp, .vs = o.vs, .color = "#808080", .source = ""};
    const std::vector<double> ppw = o.ppw.empty() ? default_dispersion_ppw() : o.ppw;
    check_dispersion_request(o.spacing, mat, o.dt, ppw, "--");
    check_output_path(o.out);
    if (m == Method::Tcovfem && o.plane_strain) throw InputError("", "--method", "tcovfem has no 2D element");
    if (m == Method::Sem && o.plane_strain) throw InputError("", "--method", "sem has no 2D element");
    const int dims = o.plane_strain ? 2 : 3;
    const auto table = m == Method::Sem
                           ? sem_dispersion_table(o.order, o.spacing, mat, o.dt, ppw, default_dispersion_directions())
                           : dispersion_table(m == Method::Vfem ? ElementMethod::Vfem : ElementMethod::Ovfem, o.spacing,
                                              mat, o.dt, ppw, default_dispersion_directions(dims), dims);
    const std::string name = m == Method::Sem ? "sem" + std::to_string(o.order) : std::string(to_string(m));
    write_dispersion_h5(o.out, name, o.spacing, o.dt, table);
    if (!o.quiet) {
        const char* dname3[3] = {"axis [100]", "face diagonal [110]", "cube diagonal [111]"};
        const char* dname2[2] = {"axis [10]", "diagonal [11]"};
        std::printf("%s%s phase velocity / exact (%s)%s\n", name.c_str(), o.plane_strain ? " plane strain" : "",
                    o.plane_strain ? "S, P" : "S1, S2, P",
                    m == Method::Sem ? ", ppw against the mean node spacing ds / p" : "");
        for (std::size_t d = 0; d < table.directions.size(); ++d) {
            std::printf("  %s\n", o.plane_strain ? dname2[d] : dname3[d]);
            for (std::size_t p = 0; p < ppw.size(); ++p)
                if (ppw[p] == 5 || ppw[p] == 10 || ppw[p] == 20 || ppw[p] == 40 || ppw.size() <= 6) {
                    std::printf("    ppw %5.1f:", ppw[p]);
                    for (int mode = 0; mode < table.modes; ++mode) std::printf(" %.5f", table.ratio(d, p, mode));
                    std::printf("\n");
                }
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
    c->add_flag("--2d", o->plane_strain,
                "The plane-strain square element (2D scenes): directions [10] and [11], modes S and P");
    c->add_flag("--quiet,-q", o->quiet, "Print nothing but errors");
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
