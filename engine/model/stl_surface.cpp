#include "model/stl_surface.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "core/errors.hpp"
#include "core/format_number.hpp"

namespace voxwave {
namespace {

std::string text(const Vec3& p) {
    return "(" + format_number(p[0]) + ", " + format_number(p[1]) + ", " + format_number(p[2]) + ")";
}

void finish(TriangleMesh& m, const std::string& path) {
    if (m.triangles.empty()) throw InputError(path, "", "the STL file holds no triangles");
    m.lo = m.hi = m.triangles[0][0];
    for (const auto& t : m.triangles)
        for (const Vec3& p : t)
            for (int a = 0; a < 3; ++a) {
                if (!std::isfinite(p[a])) throw InputError(path, "", "a vertex has a coordinate that is not finite");
                m.lo[a] = std::min(m.lo[a], p[a]);
                m.hi[a] = std::max(m.hi[a], p[a]);
            }
}

TriangleMesh read_binary(const std::string& bytes, const std::string& path) {
    std::uint32_t n = 0;
    std::memcpy(&n, bytes.data() + 80, 4);  // little-endian, as every STL writer stores it
    if (bytes.size() != 84 + 50 * std::size_t(n))
        throw InputError(path, "",
                         "binary STL declares " + std::to_string(n) + " triangles (" +
                             std::to_string(84 + 50 * std::size_t(n)) + " bytes) but the file has " +
                             std::to_string(bytes.size()) + " bytes (truncated or not STL)");
    TriangleMesh m;
    m.triangles.resize(n);
    for (std::size_t t = 0; t < n; ++t) {
        float v[9];
        std::memcpy(v, bytes.data() + 84 + 50 * t + 12, sizeof v);  // after the 3-float normal
        for (int k = 0; k < 3; ++k) m.triangles[t][k] = {double(v[3 * k]), double(v[3 * k + 1]), double(v[3 * k + 2])};
    }
    return m;
}

TriangleMesh read_ascii(const std::string& bytes, const std::string& path) {
    std::istringstream in(bytes);
    TriangleMesh m;
    std::string word;
    std::array<Vec3, 3> tri{};
    int corner = 0;
    while (in >> word) {
        if (word == "vertex") {
            Vec3 p{};
            std::string x[3];
            in >> x[0] >> x[1] >> x[2];
            for (int a = 0; a < 3; ++a) {
                char* end = nullptr;
                p[a] = std::strtod(x[a].c_str(), &end);
                if (x[a].empty() || *end != '\0')
                    throw InputError(path, "",
                                     "ASCII STL: vertex " + std::to_string(m.triangles.size() * 3 + corner + 1) +
                                         " has a coordinate that is not a number ('" + x[a] + "')");
            }
            if (corner == 3)
                throw InputError(
                    path, "",
                    "ASCII STL: facet " + std::to_string(m.triangles.size() + 1) + " has more than 3 vertices");
            tri[corner++] = p;
        } else if (word == "endloop") {
            if (corner != 3)
                throw InputError(path, "",
                                 "ASCII STL: facet " + std::to_string(m.triangles.size() + 1) + " has " +
                                     std::to_string(corner) + " vertices (expected 3)");
            m.triangles.push_back(tri);
            corner = 0;
        }
    }
    if (corner != 0) throw InputError(path, "", "ASCII STL: the file ends inside a facet (truncated)");
    return m;
}

// Edge function of p against the directed edge a -> b in the (y, z) plane. The endpoints are
// taken in one fixed order and the sign restored after, so the two triangles that share an edge
// get exactly opposite values and agree on which side of it a point on it lies.
double edge_function(const Vec3& a, const Vec3& b, double y, double z) {
    const bool swap = b[1] < a[1] || (b[1] == a[1] && b[2] < a[2]);
    const Vec3& s = swap ? b : a;
    const Vec3& e = swap ? a : b;
    const double v = (e[1] - s[1]) * (z - s[2]) - (e[2] - s[2]) * (y - s[1]);
    return swap ? -v : v;
}

// Of the two directions of an edge, exactly one owns the points on it.
bool owns_points_on_edge(const Vec3& a, const Vec3& b) {
    const double dy = b[1] - a[1], dz = b[2] - a[2];
    return dz < 0 || (dz == 0 && dy > 0);
}

bool covers(double w, const Vec3& a, const Vec3& b) { return w > 0 || (w == 0 && owns_points_on_edge(a, b)); }

}  // namespace

TriangleMesh read_stl(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "", "cannot open the STL file: " + std::string(std::strerror(errno)));
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty()) throw InputError(path, "", "the STL file is empty");
    TriangleMesh m;
    // "solid" starts ASCII files, and some binary headers too: a file whose size matches its
    // triangle count is binary, and so is one of 84 bytes or more that is not "solid ... facet".
    const bool says_solid = bytes.compare(0, 5, "solid") == 0;
    bool binary = false;
    if (bytes.size() >= 84) {
        std::uint32_t n = 0;
        std::memcpy(&n, bytes.data() + 80, 4);
        binary = bytes.size() == 84 + 50 * std::size_t(n) || !(says_solid && bytes.find("facet") != std::string::npos);
    }
    if (binary) {
        m = read_binary(bytes, path);
    } else if (says_solid) {
        m = read_ascii(bytes, path);
    } else {
        throw InputError(path, "", "not an STL file (too short for binary STL, and no 'solid' line)");
    }
    finish(m, path);
    return m;
}

void check_closed_surface(const TriangleMesh& mesh, const std::string& label) {
    std::map<Vec3, std::size_t> ids;
    auto id = [&](const Vec3& p) { return ids.emplace(p, ids.size()).first->second; };
    std::map<std::pair<std::size_t, std::size_t>, int> uses;
    for (const auto& t : mesh.triangles) {
        const std::size_t v[3] = {id(t[0]), id(t[1]), id(t[2])};
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;  // a degenerate sliver bounds nothing
        for (int k = 0; k < 3; ++k) ++uses[std::minmax(v[k], v[(k + 1) % 3])];
    }
    std::size_t bad = 0;
    std::pair<std::size_t, std::size_t> example{};
    int example_uses = 0;
    for (const auto& [edge, count] : uses)
        if (count != 2 && bad++ == 0) example = edge, example_uses = count;
    if (bad == 0) return;
    std::vector<Vec3> position(ids.size());
    for (const auto& [p, i] : ids) position[i] = p;
    throw InputError(label, "",
                     "not a closed surface: " + std::to_string(bad) + " edge" + (bad == 1 ? " is" : "s are") +
                         " not shared by exactly two triangles (e.g. the edge " + text(position[example.first]) +
                         " - " + text(position[example.second]) + " belongs to " + std::to_string(example_uses) +
                         "); voxels need a watertight surface");
}

TriangleMesh transformed(const TriangleMesh& mesh, double scale, const Vec3& translate) {
    TriangleMesh out = mesh;
    for (auto& t : out.triangles)
        for (Vec3& p : t)
            for (int a = 0; a < 3; ++a) p[a] = p[a] * scale + translate[a];
    for (int a = 0; a < 3; ++a) {
        const double lo = mesh.lo[a] * scale + translate[a], hi = mesh.hi[a] * scale + translate[a];
        out.lo[a] = std::min(lo, hi);
        out.hi[a] = std::max(lo, hi);
    }
    return out;
}

std::shared_ptr<const TriangleMesh> load_stl_surface(const std::string& path, double scale, const Vec3& translate) {
    TriangleMesh m = read_stl(path);
    check_closed_surface(m, path);
    return std::make_shared<const TriangleMesh>(transformed(m, scale, translate));
}

std::vector<std::size_t> elements_inside_surface(const VoxelGrid& g, const TriangleMesh& mesh) {
    const int ny = g.n[1], nz = g.n[2];
    const double ds = g.spacing;
    // Crossings of each row (j, k) of element centres with the surface: x positions.
    std::vector<std::vector<double>> rows(std::size_t(ny) * nz);
    auto centre = [&](int a, int i) { return g.origin[a] + (i + 0.5) * ds; };
    auto first_row = [&](int a, double lo) {
        return static_cast<int>(std::clamp(std::ceil((lo - g.origin[a]) / ds - 0.5), 0.0, double(g.n[a])));
    };
    auto last_row = [&](int a, double hi) {
        return static_cast<int>(std::clamp(std::floor((hi - g.origin[a]) / ds - 0.5), -1.0, double(g.n[a] - 1)));
    };
    for (auto t : mesh.triangles) {
        double area = edge_function(t[0], t[1], t[2][1], t[2][2]);
        if (area == 0) continue;  // parallel to the rays: its neighbours' crossings decide
        if (area < 0) std::swap(t[1], t[2]), area = -area;
        const double ylo = std::min({t[0][1], t[1][1], t[2][1]}), yhi = std::max({t[0][1], t[1][1], t[2][1]});
        const double zlo = std::min({t[0][2], t[1][2], t[2][2]}), zhi = std::max({t[0][2], t[1][2], t[2][2]});
        for (int k = first_row(2, zlo); k <= last_row(2, zhi); ++k)
            for (int j = first_row(1, ylo); j <= last_row(1, yhi); ++j) {
                const double y = centre(1, j), z = centre(2, k);
                const double w0 = edge_function(t[1], t[2], y, z), w1 = edge_function(t[2], t[0], y, z),
                             w2 = edge_function(t[0], t[1], y, z);
                if (!covers(w0, t[1], t[2]) || !covers(w1, t[2], t[0]) || !covers(w2, t[0], t[1])) continue;
                const double sum = w0 + w1 + w2;
                rows[std::size_t(k) * ny + j].push_back((w0 * t[0][0] + w1 * t[1][0] + w2 * t[2][0]) / sum);
            }
    }
    std::vector<std::size_t> inside;
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j) {
            std::vector<double>& xs = rows[std::size_t(k) * ny + j];
            if (xs.size() < 2) continue;
            std::sort(xs.begin(), xs.end());
            // Between crossings 2m and 2m + 1 the row is inside (an odd leftover is a grazing
            // count the closed-surface check rules out).
            for (std::size_t m = 0; m + 1 < xs.size(); m += 2) {
                const int i0 = first_row(0, xs[m]);
                const int i1 = last_row(0, xs[m + 1]);
                for (int i = i0; i <= i1; ++i) inside.push_back(g.element_index(i, j, k));
            }
        }
    std::sort(inside.begin(), inside.end());
    return inside;
}

}  // namespace voxwave
