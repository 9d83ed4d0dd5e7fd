// Image files and the file-kind queries of the imaging front ends (docs/architecture.md#imaging).
// Apart from the imaging arithmetic, so that the fuzz build compiles the readers alone.
#include <cmath>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave {
namespace {

constexpr const char* kImageFormat = "voxwave-image";
constexpr std::int32_t kImageVersion = 1;

}  // namespace

void write_image_h5(const std::string& path, const Image& im) {
    if (im.values.size() != im.n_depth() * im.n_lateral() || im.element_lateral.size() != im.element_depth.size())
        throw RuntimeError("write_image_h5: inconsistent Image (" + std::to_string(im.values.size()) + " values for " +
                           std::to_string(im.n_depth()) + " x " + std::to_string(im.n_lateral()) + " pixels)");
    write_file_atomically(path, [&](const std::string& temp) {
        h5::File f = h5::File::create(temp, path);
        f.write_attribute("/", "format", std::string(kImageFormat));
        f.write_attribute("/", "version", kImageVersion);
        f.write_attribute("/", "method", im.method);
        f.write_attribute("/", "mode", im.mode);
        f.write_attribute("/", "backend", im.backend);
        f.write_attribute("/", "source", im.source);
        f.write_attribute("/", "vp", im.vp);
        f.write_attribute("/", "vs", im.vs);
        f.write_attribute("/", "pixel", im.pixel);
        f.write_attribute("/", "frequency", im.frequency);
        f.write_doubles("/image/values", {im.n_depth(), im.n_lateral()}, im.values.data());
        f.write_doubles("/image/lateral", {im.n_lateral()}, im.lateral.data());
        f.write_doubles("/image/depth", {im.n_depth()}, im.depth.data());
        f.write_doubles("/image/element_lateral", {im.element_lateral.size()}, im.element_lateral.data());
        f.write_doubles("/image/element_depth", {im.element_depth.size()}, im.element_depth.data());
        f.close();
    });
}

Image read_image_h5(const std::string& path) {
    h5::File f = h5::File::open_read(path);
    const std::string format = f.read_string_attribute("/", "format");
    if (format != kImageFormat) throw InputError(path, "format", "not a voxwave image file (format '" + format + "')");
    const std::int64_t version = f.read_int_attribute("/", "version");
    if (version != kImageVersion)
        throw InputError(path, "version", "unsupported version " + std::to_string(version) + " (this build reads 1)");
    Image im;
    im.method = f.read_string_attribute("/", "method");
    im.mode = f.read_string_attribute("/", "mode");
    im.backend = f.read_string_attribute("/", "backend");
    im.source = f.read_string_attribute("/", "source");
    im.vp = f.read_double_attribute("/", "vp");
    im.vs = f.read_double_attribute("/", "vs");
    im.pixel = f.read_double_attribute("/", "pixel");
    im.frequency = f.read_double_attribute("/", "frequency");
    std::vector<hsize_t> dims, ldims, ddims, eldims, eddims;
    im.values = f.read_doubles("/image/values", &dims);
    im.lateral = f.read_doubles("/image/lateral", &ldims);
    im.depth = f.read_doubles("/image/depth", &ddims);
    im.element_lateral = f.read_doubles("/image/element_lateral", &eldims);
    im.element_depth = f.read_doubles("/image/element_depth", &eddims);
    if (ldims.size() != 1 || ddims.size() != 1 || ldims[0] < 1 || ddims[0] < 1)
        throw InputError(path, "/image/lateral", "the lateral and depth axes must be non-empty vectors");
    if (dims.size() != 2 || dims[0] != ddims[0] || dims[1] != ldims[0])
        throw InputError(path, "/image/values",
                         "shape does not match /image/depth x /image/lateral (" + std::to_string(ddims[0]) + " x " +
                             std::to_string(ldims[0]) + ")");
    if (eldims.size() != 1 || eddims != eldims)
        throw InputError(path, "/image/element_depth", "must be a vector as long as /image/element_lateral");
    for (double v : im.values)
        if (!std::isfinite(v)) throw InputError(path, "/image/values", "holds a value that is not finite");
    return im;
}

bool is_image_h5(const std::string& path) noexcept {
    try {
        h5::File f = h5::File::open_read(path);
        return f.has_attribute("/", "format") && f.read_string_attribute("/", "format") == kImageFormat;
    } catch (...) {
        return false;
    }
}

bool has_array_acquisition_h5(const std::string& path) noexcept {
    try {
        h5::File f = h5::File::open_read(path);
        return f.has_dataset("/fmc/data") || f.has_dataset("/pwi/data");
    } catch (...) {
        return false;
    }
}

}  // namespace voxwave
