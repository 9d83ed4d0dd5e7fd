// FMC and PWI acquisition files, docs/architecture.md#imaging.
#include "wave/array_acquisition.hpp"

#include <cmath>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5_util.hpp"

namespace voxwave {
namespace {

constexpr const char* kFormat = "voxwave-acquisition";
constexpr std::int32_t kVersion = 1;

std::string shape_text(const std::vector<hsize_t>& d) {
    std::string s = "(";
    for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
    return s + (d.size() == 1 ? ",)" : ")");
}

double norm3(const std::array<double, 3>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

bool all_finite(const std::vector<double>& v) {
    for (double x : v)
        if (!std::isfinite(x)) return false;
    return true;
}

}  // namespace

const char* to_string(AcquisitionType t) { return t == AcquisitionType::Pwi ? "pwi" : "fmc"; }

void check_array_acquisition(ArrayAcquisition& a, const std::string& label) {
    const std::string g = std::string("/") + to_string(a.type) + "/";
    const std::size_t nt = a.time.size();
    if (nt < 2) throw InputError(label, g + "time", "needs at least 2 samples, has " + std::to_string(nt));
    const double dt = a.time[1] - a.time[0];
    if (!all_finite(a.time) || !(dt > 0)) throw InputError(label, g + "time", "not increasing");
    for (std::size_t k = 0; k < nt; ++k)
        if (std::fabs(a.time[k] - (a.time[0] + double(k) * dt)) > 1e-6 * dt)
            throw InputError(label, g + "time",
                             "not uniformly spaced (sample " + std::to_string(k) + " is off the step of sample 1)");
    if (a.element_positions.empty()) throw InputError(label, g + "element_positions", "no elements");
    if (a.n_rx != a.element_positions.size())
        throw InputError(label, g + "data",
                         std::to_string(a.n_rx) + " receivers, but " + std::to_string(a.element_positions.size()) +
                             " element positions");
    if (a.type == AcquisitionType::Fmc && a.n_tx != a.n_rx)
        throw InputError(label, g + "data",
                         "an FMC has one shot per element: " + std::to_string(a.n_tx) + " shots for " +
                             std::to_string(a.n_rx) + " elements");
    if (a.n_tx == 0) throw InputError(label, g + "data", "no transmissions");
    if (a.data.size() != a.n_tx * a.n_rx * nt)
        throw InputError(label, g + "data",
                         std::to_string(a.data.size()) + " values, expected " + std::to_string(a.n_tx) + " x " +
                             std::to_string(a.n_rx) + " x " + std::to_string(nt));
    if (!all_finite(a.data)) throw InputError(label, g + "data", "holds a value that is not finite");
    for (const auto& p : a.element_positions)
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
            throw InputError(label, g + "element_positions", "holds a value that is not finite");
    if (a.type == AcquisitionType::Pwi) {
        if (a.angles.size() != a.n_tx)
            throw InputError(
                label, g + "angles",
                std::to_string(a.angles.size()) + " angles for " + std::to_string(a.n_tx) + " transmissions");
        for (double angle : a.angles)
            if (!(std::fabs(angle) < 90))
                throw InputError(label, g + "angles",
                                 "angle " + std::to_string(angle) + " is not in (-90, 90) degrees");
    }
    auto field = [&](const char* name) { return h5::attribute_field(g.substr(0, g.size() - 1), name); };
    if (!(a.pitch > 0) || !std::isfinite(a.pitch)) throw InputError(label, field("pitch"), "must be positive");
    const double nn = norm3(a.normal), na = norm3(a.array_axis);
    if (!(nn > 0) || !std::isfinite(nn)) throw InputError(label, field("normal"), "must be a non-zero vector");
    if (!(na > 0) || !std::isfinite(na)) throw InputError(label, field("array_axis"), "must be a non-zero vector");
    for (int i = 0; i < 3; ++i) {
        a.normal[i] /= nn;
        a.array_axis[i] /= na;
    }
    const double dot = a.normal[0] * a.array_axis[0] + a.normal[1] * a.array_axis[1] + a.normal[2] * a.array_axis[2];
    if (std::fabs(dot) > 1e-6) throw InputError(label, field("array_axis"), "is not perpendicular to the normal");
    if (!std::isfinite(a.reference_time)) throw InputError(label, field("reference_time"), "is not finite");
    if (!(a.vp >= 0) || !std::isfinite(a.vp)) throw InputError(label, field("vp"), "must be positive (m/s)");
    if (!(a.vs >= 0) || !std::isfinite(a.vs)) throw InputError(label, field("vs"), "must be positive (m/s)");
    if (!(a.frequency >= 0) || !std::isfinite(a.frequency))
        throw InputError(label, field("frequency"), "must be positive (Hz)");
}

ArrayAcquisition read_array_acquisition_h5(const std::string& path) {
    h5::File f = h5::File::open_read(path);
    ArrayAcquisition a;
    if (f.has_dataset("/fmc/data"))
        a.type = AcquisitionType::Fmc;
    else if (f.has_dataset("/pwi/data"))
        a.type = AcquisitionType::Pwi;
    else
        throw InputError(path, "/fmc/data",
                         "missing dataset (neither an FMC nor a PWI acquisition: no /pwi/data either)");
    const std::string group = std::string("/") + to_string(a.type);
    std::vector<hsize_t> dims;
    a.data = f.read_doubles(group + "/data", &dims);
    if (dims.size() != 3)
        throw InputError(path, group + "/data",
                         "shape " + shape_text(dims) + ", expected 3 dimensions (transmissions, receivers, samples)");
    a.n_tx = dims[0];
    a.n_rx = dims[1];
    std::vector<hsize_t> tdims;
    a.time = f.read_doubles(group + "/time", &tdims);
    if (tdims.size() != 1 || tdims[0] != dims[2])
        throw InputError(
            path, group + "/time",
            "shape " + shape_text(tdims) + ", expected (" + std::to_string(dims[2]) + ",) as /data's samples");
    std::vector<hsize_t> pdims;
    const std::vector<double> positions = f.read_doubles(group + "/element_positions", &pdims);
    if (pdims.size() != 2 || pdims[1] != 3 || pdims[0] != dims[1])
        throw InputError(path, group + "/element_positions",
                         "shape " + shape_text(pdims) + ", expected (" + std::to_string(dims[1]) + ", 3)");
    a.element_positions.resize(pdims[0]);
    for (std::size_t i = 0; i < pdims[0]; ++i)
        a.element_positions[i] = {positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]};
    if (a.type == AcquisitionType::Pwi) {
        std::vector<hsize_t> adims;
        a.angles = f.read_doubles(group + "/angles", &adims);
        if (adims.size() != 1)
            throw InputError(path, group + "/angles", "shape " + shape_text(adims) + ", expected one dimension");
    }
    a.pitch = f.read_double_attribute(group, "pitch");
    auto vec3 = [&](const char* name) {
        const std::vector<double> v = f.read_double_array_attribute(group, name);
        if (v.size() != 3)
            throw InputError(path, h5::attribute_field(group, name), std::to_string(v.size()) + " values, expected 3");
        return std::array<double, 3>{v[0], v[1], v[2]};
    };
    a.normal = vec3("normal");
    a.array_axis = vec3("array_axis");
    a.reference_time = f.read_double_attribute(group, "reference_time");
    if (f.has_attribute(group, "vp")) a.vp = f.read_double_attribute(group, "vp");
    if (f.has_attribute(group, "vs")) a.vs = f.read_double_attribute(group, "vs");
    if (f.has_attribute(group, "frequency")) a.frequency = f.read_double_attribute(group, "frequency");
    check_array_acquisition(a, path);
    return a;
}

namespace {

ArrayAcquisition checked_for_writing(const ArrayAcquisition& acquisition, const std::string& label) {
    ArrayAcquisition a = acquisition;
    try {
        check_array_acquisition(a, label);
    } catch (const InputError& e) {
        throw RuntimeError(std::string("write_array_acquisition_h5: inconsistent acquisition: ") + e.what());
    }
    return a;
}

void write_group(h5::File& f, const ArrayAcquisition& a) {
    const std::string group = std::string("/") + to_string(a.type);
    const std::size_t nt = a.sample_count();
    f.write_doubles(group + "/data", {a.n_tx, a.n_rx, nt}, a.data.data());
    f.write_doubles(group + "/time", {nt}, a.time.data());
    std::vector<double> positions;
    for (const auto& p : a.element_positions) positions.insert(positions.end(), p.begin(), p.end());
    f.write_doubles(group + "/element_positions", {a.n_rx, 3}, positions.data());
    if (a.type == AcquisitionType::Pwi) f.write_doubles(group + "/angles", {a.n_tx}, a.angles.data());
    f.write_attribute(group, "pitch", a.pitch);
    f.write_attribute(group, "normal", std::vector<double>(a.normal.begin(), a.normal.end()));
    f.write_attribute(group, "array_axis", std::vector<double>(a.array_axis.begin(), a.array_axis.end()));
    f.write_attribute(group, "reference_time", a.reference_time);
    if (a.vp > 0) f.write_attribute(group, "vp", a.vp);
    if (a.vs > 0) f.write_attribute(group, "vs", a.vs);
    if (a.frequency > 0) f.write_attribute(group, "frequency", a.frequency);
}

}  // namespace

void write_array_acquisition_h5(const std::string& path, const ArrayAcquisition& acquisition) {
    const ArrayAcquisition a = checked_for_writing(acquisition, path);
    write_file_atomically(path, [&](const std::string& temp) {
        h5::File f = h5::File::create(temp, path);
        f.write_attribute("/", "format", std::string(kFormat));
        f.write_attribute("/", "version", kVersion);
        write_group(f, a);
        f.close();
    });
}

void write_array_acquisition_group(h5::File& f, const ArrayAcquisition& acquisition) {
    write_group(f, checked_for_writing(acquisition, f.label()));
}

}  // namespace voxwave
