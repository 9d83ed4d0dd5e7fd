// `voxwave-cli image F.h5 [--method tfm|pwi|sector] [--mode LL|TT|LT] [--region LAT0 LAT1 DEPTH0 DEPTH1]
// [--pixel M] [--velocity V] [--shear-velocity V] --out I.h5`: a TFM, plane-wave compounded or
// sector image of an FMC or PWI acquisition (docs/architecture.md#imaging).
#include <cstdio>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "wave/sector_imaging.hpp"

namespace voxwave::cli {
namespace {

struct ImageOptions {
    std::string input, out, method, mode = "LL", backend = "auto";
    std::vector<double> region;
    double pixel = 0, velocity = 0, shear_velocity = 0;
    bool quiet = false;
};

int make(const ImageOptions& o) {
    ImagingRequest r;
    r.mode = parse_imaging_mode(o.mode, "--mode");
    r.backend = parse_backend(o.backend, "--backend");
    if (!o.region.empty()) {
        r.has_region = true;
        std::copy(o.region.begin(), o.region.end(), r.region.begin());
    }
    r.pixel = o.pixel;
    r.vp = o.velocity;
    r.vs = o.shear_velocity;
    check_output_path(o.out);
    const ArrayAcquisition a = read_array_acquisition_h5(o.input);
    Image image;
    std::string note;
    try {
        // The method follows the file unless given: an FMC gives TFM, a PWI plane-wave compounding.
        image = make_image_by_method(a, o.method, r, o.input, terminal_progress("image", o.quiet), &note, "--method");
    } catch (const InputError& e) {
        // The request's fields are the options that set them.
        if (e.file().empty() && e.field().find('-') != 0) throw InputError("", "--" + e.field(), e.reason());
        throw;
    }
    finish_progress();
    write_image_h5(o.out, image);
    if (!o.quiet) {
        std::printf("%s\n", note.c_str());
        std::printf(
            "%s %s image, %zu x %zu pixels of %.3g mm (lateral %.2f..%.2f mm, depth %.2f..%.2f mm), vp %.0f m/s",
            image.method.c_str(), image.mode.c_str(), image.n_depth(), image.n_lateral(), image.pixel * 1e3,
            image.lateral.front() * 1e3, image.lateral.back() * 1e3, image.depth.front() * 1e3,
            image.depth.back() * 1e3, image.vp);
        if (image.vs > 0) std::printf(", vs %.0f m/s", image.vs);
        std::printf("\nwrote %s\n", o.out.c_str());
    }
    return kOk;
}

}  // namespace

std::function<int()> add_image_command(CLI::App& app) {
    auto o = std::make_shared<ImageOptions>();
    CLI::App* c =
        app.add_subcommand("image", "TFM, plane-wave compounded or sector image of an FMC or PWI acquisition");
    c->add_option("acquisition", o->input, "HDF5 file with /fmc or /pwi (data, time, element_positions)")->required();
    c->add_option("--method", o->method,
                  "tfm (FMC) | pwi (plane waves) | sector (PWI: each steered plane wave's own line, drawn as a fan); "
                  "default: what the file holds");
    c->add_option("--mode", o->mode, "Wave types of the transmit and receive legs: LL | TT | LT (default LL)");
    c->add_option("--region", o->region,
                  "LAT0 LAT1 DEPTH0 DEPTH1 in m, from the array centre (default: the aperture, from two "
                  "wavelengths down to the deepest echo the record holds)")
        ->expected(4);
    c->add_option("--pixel", o->pixel, "Pixel size in m (default: a quarter of the shortest wavelength)");
    c->add_option("--velocity", o->velocity, "P-wave speed in m/s (default: the file's vp, else 5900 m/s)");
    c->add_option("--shear-velocity", o->shear_velocity, "S-wave speed in m/s for TT and LT (default: the file's vs)");
    c->add_option("--backend", o->backend, "auto | cpu | cuda (default auto)");
    c->add_option("--out,-o", o->out, "Output image file (HDF5, /image/values n_depth x n_lateral)")->required();
    c->add_flag("--quiet,-q", o->quiet, "Print nothing but errors");
    return [o] { return make(*o); };
}

}  // namespace voxwave::cli
