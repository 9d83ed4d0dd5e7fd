// `voxwave-cli element`: the 24x24 element stiffness and the diagonal mass of one voxel.
#include <cstdio>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene.hpp"
#include "wave/voxel_element_matrix.hpp"
#include "wave/wave_io.hpp"

namespace voxwave::cli {
namespace {
struct ElementOptions {
    std::string method, out;
    double spacing = 0, density = 0, vp = 0, vs = 0;
};

ElementMethod element_method_of(Method m) { return m == Method::Vfem ? ElementMethod::Vfem : ElementMethod::Ovfem; }

int run(const ElementOptions& o) {
    const Method m = parse_method(o.method, "--method");
    check_spacing(o.spacing, "", "--spacing");
    Material mat{.name = "material", .density = o.density, .vp = o.vp, .vs = o.vs, .color = "#808080", .source = ""};
    validate_material(mat, "", "material");
    check_output_path(o.out);
    const ElementMatrix k = voxel_element_stiffness(element_method_of(m), o.spacing, mat);
    write_element_h5(o.out, to_string(m), o.spacing, mat, k, voxel_element_mass(o.spacing, mat.density));
    std::printf("wrote %s (24x24 stiffness, 24 masses; %s, ds %.4g m)\n", o.out.c_str(), to_string(m), o.spacing);
    return kOk;
}
}  // namespace

std::function<int()> add_element_command(CLI::App& app) {
    auto o = std::make_shared<ElementOptions>();
    CLI::App* c = app.add_subcommand("element", "Write one voxel element's stiffness and mass matrices to HDF5");
    c->add_option("--method", o->method, "vfem | ovfem (tcovfem has the OVFEM matrix)")->required();
    c->add_option("--spacing", o->spacing, "Voxel size ds in metres")->required();
    c->add_option("--density", o->density, "Density in kg/m^3")->required();
    c->add_option("--vp", o->vp, "P-wave speed in m/s")->required();
    c->add_option("--vs", o->vs, "S-wave speed in m/s")->required();
    c->add_option("--out,-o", o->out, "Output HDF5 file")->required();
    return [o] { return run(*o); };
}

}  // namespace voxwave::cli
