// Wavefield snapshots: the scene's rules, the sampled nodes and steps, the XDMF text and the
// VTKHDF file of one snapshot (docs/architecture.md#wavefield-snapshots).
#include "scene/snapshots.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "core/hdf5_util.hpp"
#include "scene/rasterise.hpp"

namespace voxwave {
namespace {

const std::string kField = "run.snapshots";

std::string at(const std::string& key) { return kField + "." + key; }

// The first and last node index of [lo, hi] on one axis of n elements (a node within a
// billionth of a cell of a bound counts as inside), clamped to the grid; last < first when the
// range holds no node.
std::array<int, 2> node_range(double lo, double hi, double origin, double ds, int n) {
    const double eps = 1e-9;
    const double first = std::ceil((lo - origin) / ds - eps), last = std::floor((hi - origin) / ds + eps);
    return {static_cast<int>(std::clamp(first, 0.0, double(n) + 1)),
            static_cast<int>(std::clamp(last, -1.0, double(n)))};
}

SnapshotGrid grid_on(const SnapshotSpec& spec, const std::array<int, 3>& n, double ds, const Vec3& origin) {
    SnapshotGrid g;
    g.stride = static_cast<int>(spec.stride);
    g.spacing = ds * double(spec.stride);
    for (int a = 0; a < 3; ++a) {
        std::array<int, 2> r{0, n[a]};
        if (spec.region) r = node_range(spec.region->min[a], spec.region->max[a], origin[a], ds, n[a]);
        g.first[a] = r[0];
        g.count[a] = r[1] < r[0] ? 0 : (r[1] - r[0]) / g.stride + 1;
        g.origin[a] = origin[a] + ds * r[0];
    }
    return g;
}

std::string text3(const std::array<int, 3>& v) {
    return std::to_string(v[2]) + " " + std::to_string(v[1]) + " " + std::to_string(v[0]);
}

}  // namespace

bool SnapshotSeries::has(const std::string& field) const {
    return std::find(fields.begin(), fields.end(), field) != fields.end();
}

void validate_snapshot_spec(const SnapshotSpec& s, const GridSpec& grid, const std::string& file) {
    auto error = [&](const std::string& key, const std::string& reason) { return InputError(file, at(key), reason); };
    if ((s.every != 0) == !s.times.empty())
        throw InputError(file, kField, "give either every (steps) or times (seconds), not both and not neither");
    if (s.every < 0) throw error("every", "must be >= 1 step (got " + std::to_string(s.every) + ")");
    for (std::size_t i = 0; i < s.times.size(); ++i) {
        const std::string key = "times[" + std::to_string(i) + "]";
        if (!std::isfinite(s.times[i]) || s.times[i] < 0)
            throw error(key, "must be a finite time >= 0 s (got " + format_number(s.times[i]) + ")");
        if (i > 0 && !(s.times[i] > s.times[i - 1]))
            throw error(key, "times must ascend (" + format_number(s.times[i]) + " s does not follow " +
                                 format_number(s.times[i - 1]) + " s)");
    }
    if (s.fields.empty()) throw error("fields", "must name at least one field (u or v)");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < s.fields.size(); ++i) {
        const std::string key = "fields[" + std::to_string(i) + "]";
        if (s.fields[i] != "u" && s.fields[i] != "v")
            throw error(key, "unknown field '" + s.fields[i] + "' (expected u, the displacement, or v, the velocity)");
        if (!seen.insert(s.fields[i]).second) throw error(key, "field '" + s.fields[i] + "' named twice");
    }
    if (s.stride < 1 || s.stride > (1 << 20))
        throw error("stride", "must be an integer from 1 to 1048576 (got " + std::to_string(s.stride) + ")");
    if (!s.region) return;
    static const char* axes = "xyz";
    const double tol = 1e-9 * std::max({grid.size[0], grid.size[1], grid.size[2]});
    for (const auto& [key, p] : {std::pair{"region.min", s.region->min}, std::pair{"region.max", s.region->max}})
        for (int a = 0; a < 3; ++a) {
            if (!std::isfinite(p[a])) throw error(key, "must be finite numbers");
            if (p[a] < grid.origin[a] - tol || p[a] > grid.origin[a] + grid.size[a] + tol)
                throw error(key, std::string("outside the model box along ") + axes[a] + " (" + format_number(p[a]) +
                                     " not in [" + format_number(grid.origin[a]) + ", " +
                                     format_number(grid.origin[a] + grid.size[a]) + "])");
        }
    for (int a = 0; a < 3; ++a)
        if (!(s.region->max[a] > s.region->min[a]))
            throw error("region.max", std::string("must be greater than min in every component (") + axes[a] + ": " +
                                          format_number(s.region->max[a]) + " <= " + format_number(s.region->min[a]) +
                                          ")");
    std::array<int, 3> n{};
    try {
        n = element_counts(grid, grid.spacing);
    } catch (const InputError&) {
        return;  // the grid's own check reports it
    }
    const SnapshotGrid g = grid_on(s, n, grid.spacing, grid.origin);
    for (int a = 0; a < 3; ++a)
        if (g.count[a] == 0)
            throw error("region", std::string("holds no grid node along ") + axes[a] + " (nodes every " +
                                      format_number(grid.spacing) + " m from " + format_number(grid.origin[a]) + ")");
}

SnapshotGrid snapshot_grid(const SnapshotSpec& spec, const VoxelGrid& model) {
    return grid_on(spec, model.n, model.spacing, model.origin);
}

std::vector<std::size_t> snapshot_nodes(const SnapshotGrid& g, const VoxelGrid& model) {
    std::vector<std::size_t> nodes;
    nodes.reserve(g.point_count());
    for (int k = 0; k < g.count[2]; ++k)
        for (int j = 0; j < g.count[1]; ++j)
            for (int i = 0; i < g.count[0]; ++i)
                nodes.push_back(
                    model.node_index(g.first[0] + i * g.stride, g.first[1] + j * g.stride, g.first[2] + k * g.stride));
    return nodes;
}

std::vector<std::int64_t> snapshot_steps(const SnapshotSpec& spec, const SnapshotGrid& grid, double dt,
                                         std::int64_t steps, const std::string& file) {
    std::vector<std::int64_t> out;
    if (spec.every > 0) {
        if (spec.every >= steps)
            throw InputError(file, at("every"),
                             "a snapshot every " + std::to_string(spec.every) + " steps, but the run has " +
                                 std::to_string(steps) + " steps (samples n = 0 .. " + std::to_string(steps - 1) + ")");
        for (std::int64_t n = spec.every; n < steps; n += spec.every) out.push_back(n);
    }
    for (std::size_t i = 0; i < spec.times.size(); ++i) {
        const std::string key = "times[" + std::to_string(i) + "]";
        const double q = std::round(spec.times[i] / dt);
        if (!(q < double(steps)))
            throw InputError(file, at(key),
                             format_number(spec.times[i]) + " s is after the run's last sample (" +
                                 format_number(double(steps - 1) * dt) + " s, dt " + format_number(dt) + " s)");
        const auto n = static_cast<std::int64_t>(q);
        if (!out.empty() && out.back() == n)
            throw InputError(file, at(key),
                             format_number(spec.times[i]) + " s falls on the same step (" + std::to_string(n) +
                                 ") as the time before it (dt " + format_number(dt) + " s)");
        out.push_back(n);
    }
    const double bytes = double(out.size()) * double(grid.point_count()) * 3.0 * 8.0 * double(spec.fields.size());
    if (bytes > kSnapshotMaxBytes)
        throw InputError(file, kField,
                         std::to_string(out.size()) + " snapshots of " + std::to_string(grid.point_count()) +
                             " nodes need " + format_number(bytes / double(1ull << 30)) +
                             " GiB (at most 8); use a larger stride, a smaller region or fewer snapshots");
    return out;
}

SnapshotSeries plan_snapshots(const SnapshotSpec& spec, const VoxelGrid& model, double dt, std::int64_t steps,
                              const std::string& file) {
    SnapshotSeries s;
    s.grid = snapshot_grid(spec, model);
    s.steps = snapshot_steps(spec, s.grid, dt, steps, file);
    for (std::int64_t n : s.steps) s.time.push_back(double(n) * dt);
    for (const char* f : kSnapshotFields)
        if (std::find(spec.fields.begin(), spec.fields.end(), f) != spec.fields.end()) s.fields.push_back(f);
    return s;
}

std::string snapshots_xdmf_path(const std::string& result_path) {
    std::filesystem::path p(result_path);
    const std::string ext = p.extension().string();
    if (ext == ".h5" || ext == ".hdf5") return p.replace_extension(".xmf").string();
    return result_path + ".xmf";
}

std::string snapshots_xdmf_text(const SnapshotSeries& s, const std::string& h5_name) {
    std::ostringstream x;
    x.precision(17);
    const std::string dims = text3(s.grid.count);
    x << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"3.0\">\n  <Domain>\n"
      << "    <Grid Name=\"wavefield\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        x << "      <Grid Name=\"step " << s.steps[i] << "\" GridType=\"Uniform\">\n"
          << "        <Time Value=\"" << s.time[i] << "\"/>\n"
          << "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << dims << "\"/>\n"
          << "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
          << "          <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
             "Format=\"XML\">"
          << s.grid.origin[2] << " " << s.grid.origin[1] << " " << s.grid.origin[0] << "</DataItem>\n"
          << "          <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
             "Format=\"XML\">"
          << s.grid.spacing << " " << s.grid.spacing << " " << s.grid.spacing << "</DataItem>\n"
          << "        </Geometry>\n";
        for (const std::string& f : s.fields)
            x << "        <Attribute Name=\"" << f << "\" AttributeType=\"Vector\" Center=\"Node\">\n"
              << "          <DataItem Dimensions=\"" << dims << " 3\" NumberType=\"Float\" Precision=\"8\" "
              << "Format=\"HDF\">" << h5_name << ":/snapshots/" << f << "/" << i << "</DataItem>\n"
              << "        </Attribute>\n";
        x << "      </Grid>\n";
    }
    x << "    </Grid>\n  </Domain>\n</Xdmf>\n";
    return x.str();
}

std::size_t snapshot_count(const std::string& result_path) {
    h5::File f = h5::File::open_read(result_path);
    return f.has_dataset("/snapshots/step") ? f.dims("/snapshots/step").at(0) : 0;
}

SnapshotFrame read_snapshot(const std::string& path, const std::string& field, std::size_t index) {
    h5::File f = h5::File::open_read(path);
    if (!f.has_dataset("/snapshots/step"))
        throw InputError(path, "/snapshots", "the file holds no snapshots (the run had no run.snapshots)");
    const std::vector<double> steps = f.read_doubles("/snapshots/step"), times = f.read_doubles("/snapshots/time");
    if (index >= steps.size() || times.size() != steps.size())
        throw InputError(path, "/snapshots",
                         "no snapshot " + std::to_string(index) + " (the file holds " + std::to_string(steps.size()) +
                             ", numbered from 0)");
    const std::string name = "/snapshots/" + field + "/" + std::to_string(index);
    if (!f.has_dataset(name))
        throw InputError(path, name, "missing dataset (fields are u and v, as the scene's run.snapshots.fields asked)");
    SnapshotFrame fr;
    fr.field = field;
    fr.step = static_cast<std::int64_t>(steps[index]);
    fr.time = times[index];
    const std::vector<double> origin = f.read_double_array_attribute("/snapshots", "origin");
    const std::vector<double> first = f.read_double_array_attribute("/snapshots", "node_first");
    const std::vector<double> count = f.read_double_array_attribute("/snapshots", "node_count");
    if (origin.size() != 3 || first.size() != 3 || count.size() != 3)
        throw InputError(path, "/snapshots", "origin, node_first and node_count must hold 3 values each");
    fr.grid.spacing = f.read_double_attribute("/snapshots", "spacing");
    fr.grid.stride = static_cast<int>(f.read_int_attribute("/snapshots", "stride"));
    for (int a = 0; a < 3; ++a) {
        fr.grid.origin[a] = origin[a];
        fr.grid.first[a] = static_cast<int>(first[a]);
        fr.grid.count[a] = static_cast<int>(count[a]);
    }
    std::vector<hsize_t> dims;
    fr.values = f.read_doubles(name, &dims);
    const std::vector<hsize_t> want{hsize_t(fr.grid.count[2]), hsize_t(fr.grid.count[1]), hsize_t(fr.grid.count[0]), 3};
    if (dims != want)
        throw InputError(path, name, "shape does not match /snapshots node_count (" + text3(fr.grid.count) + " 3)");
    return fr;
}

void write_snapshot_vtkhdf(const std::string& path, const SnapshotFrame& fr) {
    const auto& c = fr.grid.count;
    if (fr.values.size() != fr.grid.point_count() * 3)
        throw RuntimeError("write_snapshot_vtkhdf: " + std::to_string(fr.values.size()) + " values for " +
                           std::to_string(fr.grid.point_count()) + " points");
    write_file_atomically(path, [&](const std::string& temp) {
        h5::File f = h5::File::create(temp, path);
        f.write_doubles("/VTKHDF/PointData/" + fr.field, {hsize_t(c[2]), hsize_t(c[1]), hsize_t(c[0]), 3},
                        fr.values.data());
        f.write_attribute("/VTKHDF", "Version", std::vector<std::int64_t>{1, 0});
        f.write_fixed_string_attribute("/VTKHDF", "Type", "ImageData");
        f.write_attribute("/VTKHDF", "WholeExtent", std::vector<std::int64_t>{0, c[0] - 1, 0, c[1] - 1, 0, c[2] - 1});
        f.write_attribute("/VTKHDF", "Origin", std::vector<double>(fr.grid.origin.begin(), fr.grid.origin.end()));
        f.write_attribute("/VTKHDF", "Spacing", std::vector<double>(3, fr.grid.spacing));
        f.write_attribute("/VTKHDF", "Direction", std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1});
        f.write_attribute("/VTKHDF", "time", fr.time);
        f.close();
    });
}

}  // namespace voxwave
