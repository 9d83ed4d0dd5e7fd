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

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? "\n" : "") + names[i];
    return s;
}

// /probes/<name>/{time, signal | elements, delays} and /scan/{positions, signals | elements,
// cscan}; the root attribute "probes" lists the probes (one name a line, in order) and the
// attributes of /probes/<name>/delays and /scan/positions describe the aperture and the scan.
void write_probes(h5::File& f, const Result& r) {
    const std::size_t nt = r.sample_count();
    std::vector<std::string> names;
    for (const ProbeRecord& p : r.probes) {
        const std::string g = "/probes/" + p.name;
        const std::size_t ne = p.element_count();
        f.write_doubles(g + "/time", {nt}, r.time.data());
        if (p.array)
            f.write_doubles(g + "/elements", {ne, nt}, p.element_signals.data());
        else
            f.write_doubles(g + "/signal", {nt}, p.element_signals.data());
        f.write_doubles(g + "/delays", {ne}, p.delays.data());
        f.write_attribute(g + "/delays", "active_first", std::int32_t(p.active_first));
        f.write_attribute(g + "/delays", "active_count", std::int32_t(p.active_count));
        names.push_back(p.name);
    }
    if (!names.empty()) f.write_attribute("/", "probes", joined(names));
    if (!r.scan) return;
    const ScanRecord& s = *r.scan;
    const std::size_t shots = s.shot_positions.size();
    std::vector<double> positions;
    for (const auto& p : s.shot_positions) positions.insert(positions.end(), p.begin(), p.end());
    f.write_doubles("/scan/positions", {shots, 3}, positions.data());
    if (s.array)
        f.write_doubles("/scan/elements", {shots, s.elements, nt}, s.shot_signals.data());
    else
        f.write_doubles("/scan/signals", {shots, nt}, s.shot_signals.data());
    if (s.gated) {
        f.write_doubles("/scan/cscan", {std::size_t(s.positions2), std::size_t(s.positions)}, s.cscan.data());
        f.write_attribute("/scan/cscan", "gate", std::vector<double>{s.gate_start, s.gate_end});
    }
    f.write_attribute("/scan/positions", "probe", s.probe);
    f.write_attribute("/scan/positions", "type", s.type);
    f.write_attribute("/scan/positions", "positions", std::int32_t(s.positions));
    f.write_attribute("/scan/positions", "positions2", std::int32_t(s.positions2));
}

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t end = s.find('\n', start);
        out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

void read_probes(const h5::File& f, const std::string& path, Result& r) {
    const hsize_t nt = r.time.size();
    std::vector<hsize_t> dims;
    if (f.has_attribute("/", "probes")) {
        for (const std::string& name : split_lines(f.read_string_attribute("/", "probes"))) {
            const std::string g = "/probes/" + name;
            ProbeRecord p;
            p.name = name;
            p.delays = f.read_doubles(g + "/delays", &dims);
            if (dims.size() != 1) throw InputError(path, g + "/delays", "expected a 1-D dataset");
            const hsize_t ne = p.delays.size();
            p.array = f.has_dataset(g + "/elements");
            if (p.array) {
                p.element_signals = f.read_doubles(g + "/elements", &dims);
                check_shape(path, g + "/elements", dims, {ne, nt});
            } else {
                p.element_signals = f.read_doubles(g + "/signal", &dims);
                check_shape(path, g + "/signal", dims, {nt});
                if (ne != 1) throw InputError(path, g + "/delays", "a piston has one delay");
            }
            p.active_first = int(f.read_int_attribute(g + "/delays", "active_first"));
            p.active_count = int(f.read_int_attribute(g + "/delays", "active_count"));
            r.probes.push_back(std::move(p));
        }
    }
    if (!f.has_dataset("/scan/positions")) return;
    ScanRecord s;
    s.probe = f.read_string_attribute("/scan/positions", "probe");
    s.type = f.read_string_attribute("/scan/positions", "type");
    s.positions = int(f.read_int_attribute("/scan/positions", "positions"));
    s.positions2 = int(f.read_int_attribute("/scan/positions", "positions2"));
    const std::vector<double> positions = f.read_doubles("/scan/positions", &dims);
    const hsize_t shots = dims.empty() ? 0 : dims[0];
    check_shape(path, "/scan/positions", dims, {shots, 3});
    if (s.positions < 1 || s.positions2 < 1 || hsize_t(s.positions) * hsize_t(s.positions2) != shots)
        throw InputError(path, "/scan/positions", "shape does not match the attributes positions x positions2");
    for (hsize_t i = 0; i < shots; ++i)
        s.shot_positions.push_back({positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]});
    s.array = f.has_dataset("/scan/elements");
    if (s.array) {
        s.shot_signals = f.read_doubles("/scan/elements", &dims);
        s.elements = dims.size() == 3 ? dims[1] : 0;
        check_shape(path, "/scan/elements", dims, {shots, s.elements, nt});
    } else {
        s.shot_signals = f.read_doubles("/scan/signals", &dims);
        check_shape(path, "/scan/signals", dims, {shots, nt});
    }
    s.gated = f.has_dataset("/scan/cscan");
    if (s.gated) {
        s.cscan = f.read_doubles("/scan/cscan", &dims);
        check_shape(path, "/scan/cscan", dims, {hsize_t(s.positions2), hsize_t(s.positions)});
        const std::vector<double> gate = f.read_double_array_attribute("/scan/cscan", "gate");
        if (gate.size() != 2) throw InputError(path, "/scan/cscan attribute 'gate'", "expected [start, end]");
        s.gate_start = gate[0];
        s.gate_end = gate[1];
    }
    r.scan = std::move(s);
}

}  // namespace

void write_result_h5(const std::string& path, const Result& r, const std::function<void(h5::File&)>& more) {
    const std::size_t n = r.receiver_count(), nt = r.sample_count();
    const hsize_t nc = hsize_t(r.components);
    // A malformed Result is a bug in the caller, not bad input: refuse before touching the disk.
    if ((nc != 2 && nc != 3) || r.receiver_positions.size() != n || r.displacement.size() != n * nt * nc ||
        (r.velocity.size() != n * nt * nc && !r.velocity.empty()))
        throw RuntimeError("write_result_h5: inconsistent Result (" + std::to_string(n) + " receivers, " +
                           std::to_string(nt) + " samples, " + std::to_string(r.displacement.size()) +
                           " displacement and " + std::to_string(r.velocity.size()) + " velocity values)");

    for (const ProbeRecord& p : r.probes)
        if (p.element_signals.size() != p.element_count() * nt || (!p.array && p.element_count() != 1))
            throw RuntimeError("write_result_h5: inconsistent probe record '" + p.name + "'");
    if (r.scan && (r.scan->shot_signals.size() != r.scan->shot_positions.size() * r.scan->elements * nt ||
                   (r.scan->gated && r.scan->cscan.size() != std::size_t(r.scan->positions) * r.scan->positions2)))
        throw RuntimeError("write_result_h5: inconsistent scan record");
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
        write_probes(f, r);
        if (more) more(f);
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
    read_probes(f, path, r);
    return r;
}

}  // namespace voxwave
