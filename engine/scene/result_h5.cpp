// Result files, docs/architecture.md#files-and-cli: root attributes plus /receivers and /traces datasets.
#include <filesystem>
#include <limits>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "scene/result.hpp"

namespace voxwave {
namespace {

constexpr const char* kFormat = "voxwave-result";
constexpr std::int32_t kVersion = 1;

void check_shape(const std::string& path, const std::string& name, const std::vector<hsize_t>& got,
                 const std::vector<hsize_t>& want) {
    if (got == want) return;
    auto text = [](const std::vector<hsize_t>& d) {
        std::string s = "(";
        for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
        return s + (d.size() == 1 ? ",)" : ")");
    };
    throw InputError(path, name, "shape " + text(got) + ", expected " + text(want));
}

// /snapshots: attributes origin (3), spacing, stride, node_first (3), node_count (3: nx, ny, nz);
// datasets step and time (nsnap) and FIELD/INDEX (nz, ny, nx, 3) for each field and snapshot.
void write_snapshots(h5::File& f, const SnapshotSeries& s) {
    const std::size_t ns = s.steps.size(), np = s.grid.point_count();
    const std::vector<hsize_t> dims{hsize_t(s.grid.count[2]), hsize_t(s.grid.count[1]), hsize_t(s.grid.count[0]), 3};
    const std::vector<double> steps(s.steps.begin(), s.steps.end());
    f.write_doubles("/snapshots/step", {ns}, steps.data());
    f.write_doubles("/snapshots/time", {ns}, s.time.data());
    for (const std::string& field : s.fields) {
        const auto& values = field == "u" ? s.u : s.v;
        for (std::size_t i = 0; i < ns; ++i) {
            if (values.size() != ns || values[i].size() != np * 3)
                throw RuntimeError("write_result_h5: snapshot " + std::to_string(i) + " of " + field +
                                   " is incomplete");
            f.write_doubles("/snapshots/" + field + "/" + std::to_string(i), dims, values[i].data());
        }
    }
    f.write_attribute("/snapshots", "origin", std::vector<double>(s.grid.origin.begin(), s.grid.origin.end()));
    f.write_attribute("/snapshots", "spacing", s.grid.spacing);
    f.write_attribute("/snapshots", "stride", static_cast<std::int64_t>(s.grid.stride));
    f.write_attribute("/snapshots", "node_first", std::vector<double>(s.grid.first.begin(), s.grid.first.end()));
    f.write_attribute("/snapshots", "node_count", std::vector<double>(s.grid.count.begin(), s.grid.count.end()));
}

}  // namespace

void write_result_h5(const std::string& path, const Result& r) {
    const std::size_t n = r.receiver_count(), nt = r.sample_count();
    const hsize_t nc = hsize_t(r.components);
    // A malformed Result is a bug in the caller, not bad input: refuse before touching the disk.
    if ((nc != 2 && nc != 3) || r.receiver_positions.size() != n || r.displacement.size() != n * nt * nc ||
        (r.velocity.size() != n * nt * nc && !r.velocity.empty()))
        throw RuntimeError("write_result_h5: inconsistent Result (" + std::to_string(n) + " receivers, " +
                           std::to_string(nt) + " samples, " + std::to_string(r.displacement.size()) +
                           " displacement and " + std::to_string(r.velocity.size()) + " velocity values)");

    write_file_atomically(path, [&](const std::string& temp) {
        h5::File f = h5::File::create(temp, path);
        f.write_attribute("/", "format", std::string(kFormat));
        f.write_attribute("/", "version", kVersion);
        if (!r.scene.empty()) f.write_attribute("/", "scene", r.scene);
        f.write_attribute("/", "method", r.method);
        f.write_attribute("/", "precision", r.precision);
        f.write_attribute("/", "stages", static_cast<std::int32_t>(r.stages));
        f.write_attribute("/", "backend", r.backend);
        f.write_attribute("/", "spacing", r.spacing);
        f.write_attribute("/", "dt", r.dt);
        f.write_attribute("/", "steps", static_cast<std::int64_t>(r.steps));
        f.write_attribute("/", "wall_seconds", r.wall_seconds);
        f.write_attribute("/", "setup_seconds", r.setup_seconds);

        f.write_strings("/receivers/names", r.receiver_names);
        std::vector<double> positions;
        positions.reserve(n * nc);
        for (const auto& p : r.receiver_positions) positions.insert(positions.end(), p.begin(), p.begin() + nc);
        f.write_doubles("/receivers/positions", {n, nc}, positions.data());
        f.write_doubles("/traces/time", {nt}, r.time.data());
        f.write_doubles("/traces/displacement", {n, nt, nc}, r.displacement.data());
        // Empty velocity with non-empty traces means "not recorded": leave the dataset out.
        if (r.velocity.size() == n * nt * nc) f.write_doubles("/traces/velocity", {n, nt, nc}, r.velocity.data());
        if (!r.snapshots.empty()) write_snapshots(f, r.snapshots);
        f.close();
    });
    if (!r.snapshots.empty())
        write_text_atomically(snapshots_xdmf_path(path),
                              snapshots_xdmf_text(r.snapshots, std::filesystem::path(path).filename().string()));
}

Result read_result_h5(const std::string& path) {
    h5::File f = h5::File::open_read(path);
    std::string format = f.read_string_attribute("/", "format");
    if (format != kFormat) throw InputError(path, "format", "not a voxwave result file (format '" + format + "')");
    std::int64_t version = f.read_int_attribute("/", "version");
    if (version != kVersion)
        throw InputError(path, "version", "unsupported version " + std::to_string(version) + " (this build reads 1)");

    Result r;
    // Optional (still version 1): files written before it existed, and runs of no named scene.
    if (f.has_attribute("/", "scene")) r.scene = f.read_string_attribute("/", "scene");
    r.method = f.read_string_attribute("/", "method");
    r.precision = f.read_string_attribute("/", "precision");
    r.backend = f.read_string_attribute("/", "backend");
    std::int64_t stages = f.read_int_attribute("/", "stages");
    if (stages < std::numeric_limits<int>::min() || stages > std::numeric_limits<int>::max())
        throw InputError(path, "stages", "out of range");
    r.stages = static_cast<int>(stages);
    r.spacing = f.read_double_attribute("/", "spacing");
    r.dt = f.read_double_attribute("/", "dt");
    r.steps = f.read_int_attribute("/", "steps");
    r.wall_seconds = f.read_double_attribute("/", "wall_seconds");
    // Files written before setup_seconds existed do not have it (still version 1).
    if (f.has_attribute("/", "setup_seconds")) r.setup_seconds = f.read_double_attribute("/", "setup_seconds");

    r.receiver_names = f.read_strings("/receivers/names");
    const hsize_t n = r.receiver_names.size();
    std::vector<hsize_t> dims;
    std::vector<double> positions = f.read_doubles("/receivers/positions", &dims);
    // A plane-strain run has 2 components (its positions too), any other 3.
    const hsize_t nc = dims.size() == 2 && dims[1] == 2 ? 2 : 3;
    r.components = int(nc);
    check_shape(path, "/receivers/positions", dims, {n, nc});
    for (hsize_t i = 0; i < n; ++i)
        r.receiver_positions.push_back(
            {positions[nc * i], positions[nc * i + 1], nc == 3 ? positions[3 * i + 2] : 0.0});

    r.time = f.read_doubles("/traces/time", &dims);
    if (dims.size() != 1) throw InputError(path, "/traces/time", "expected a 1-D dataset");
    const hsize_t nt = r.time.size();
    r.displacement = f.read_doubles("/traces/displacement", &dims);
    check_shape(path, "/traces/displacement", dims, {n, nt, nc});
    if (f.has_dataset("/traces/velocity")) {
        r.velocity = f.read_doubles("/traces/velocity", &dims);
        check_shape(path, "/traces/velocity", dims, {n, nt, nc});
    }
    return r;
}

}  // namespace voxwave
