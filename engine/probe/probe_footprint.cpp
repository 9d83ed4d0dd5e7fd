#include "probe/probe_footprint.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "core/errors.hpp"
#include "core/format_number.hpp"
#include "probe/delay_law.hpp"

namespace voxwave {
namespace {

Vec3 unit(const Vec3& v) {
    const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return {v[0] / n, v[1] / n, v[2] / n};
}

Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

int dominant_axis(const Vec3& v) {
    int a = 0;
    for (int d = 1; d < 3; ++d)
        if (std::abs(v[std::size_t(d)]) > std::abs(v[std::size_t(a)])) a = d;
    return a;
}

// One element's footprint in the face's two in-plane axes (b, c): a rectangle of half-sizes
// (hu, hv) along the unit vectors u and v, or a disk of radius r (hu = hv = r).
struct Patch {
    double pb = 0, pc = 0;  // centre
    double ub = 1, uc = 0;  // u; v = (-uc, ub)
    double hu = 0, hv = 0;
    bool disk = false;

    bool contains(double b, double c) const {
        const double db = b - pb, dc = c - pc;
        if (disk) return db * db + dc * dc <= hu * hu;
        const double su = db * ub + dc * uc, sv = -db * uc + dc * ub;
        return std::abs(su) <= hu && std::abs(sv) <= hv;
    }
    double extent_b() const { return disk ? hu : std::abs(ub) * hu + std::abs(uc) * hv; }
    double extent_c() const { return disk ? hu : std::abs(uc) * hu + std::abs(ub) * hv; }
    bool axis_aligned() const { return !disk && (std::abs(ub) > 1 - 1e-12 || std::abs(uc) > 1 - 1e-12); }
};

// Integrals of the 1D hat halves over [x0, x1] (clipped to the cell [c0, c0 + h]), in metres:
// first: of (1 - xi), second: of xi, xi = (x - c0) / h.
std::pair<double, double> hat_integrals(double x0, double x1, double c0, double h) {
    const double a = std::clamp((x0 - c0) / h, 0.0, 1.0), b = std::clamp((x1 - c0) / h, 0.0, 1.0);
    if (b <= a) return {0, 0};
    const double half_sq = 0.5 * (b * b - a * a);
    return {h * ((b - a) - half_sq), h * half_sq};
}

}  // namespace

ProbeFootprint probe_footprint(const ProbeSpec& probe, const VoxelGrid& g, const std::string& label,
                               const std::string& field) {
    const std::string who = "probe '" + probe.name + "': ";
    ProbeFootprint f;
    f.normal = unit(probe.normal);
    const int a = dominant_axis(f.normal), b = (a + 1) % 3, c = (a + 2) % 3;
    const auto A = std::size_t(a), B = std::size_t(b), C = std::size_t(c);
    const int side = f.normal[A] > 0 ? 1 : -1;  // the specimen lies towards +a for side 1
    f.normal_axis = a;
    f.direction = probe.mode == "shear" ? unit(probe.polarization) : f.normal;
    if (probe.is_array() || probe.shape == "rect") {
        f.axis = unit(probe.array_axis);
    } else {
        f.axis = {0, 0, 0};
        f.axis[B] = 1;
    }
    const Vec3 across = cross(f.normal, f.axis);
    const double ds = g.spacing;
    Vec3 face_center = probe.center;
    if (probe.wedge) face_center[A] -= f.normal[A] * probe.wedge->height;
    const long ka = std::clamp<long>(std::lround((face_center[A] - g.origin[A]) / ds), 0, g.n[A]);
    f.center = face_center;
    f.center[A] = g.origin[A] + double(ka) * ds;

    const int count = probe.element_count();
    f.offsets = probe.is_array() ? probe_element_offsets(count, probe.pitch) : std::vector<double>{0.0};
    const std::string size_key = probe.is_array() ? "elements" : probe.shape == "disk" ? "diameter" : "width";
    const int inside_layer = side > 0 ? int(ka) : int(ka) - 1, behind_layer = side > 0 ? int(ka) - 1 : int(ka);
    const double lo_b = g.origin[B], hi_b = g.origin[B] + g.n[B] * ds;
    const double lo_c = g.origin[C], hi_c = g.origin[C] + g.n[C] * ds;
    const double tol = 1e-9 * ds;

    for (int e = 0; e < count; ++e) {
        Patch p;
        p.pb = f.center[B] + f.offsets[std::size_t(e)] * f.axis[B];
        p.pc = f.center[C] + f.offsets[std::size_t(e)] * f.axis[C];
        p.ub = f.axis[B];
        p.uc = f.axis[C];
        // The rectangle's second in-face direction must be (-uc, ub): use its sign on `across`.
        if (across[B] * -p.uc + across[C] * p.ub < 0) {
            p.ub = -p.ub;
            p.uc = -p.uc;
        }
        if (probe.is_array()) {
            p.hu = 0.5 * probe.element_width;
            p.hv = 0.5 * probe.elevation;
        } else if (probe.shape == "disk") {
            p.disk = true;
            p.hu = p.hv = 0.5 * probe.diameter;
        } else {
            p.hu = 0.5 * probe.width;
            p.hv = 0.5 * probe.length;
        }
        const double b0 = p.pb - p.extent_b(), b1 = p.pb + p.extent_b();
        const double c0 = p.pc - p.extent_c(), c1 = p.pc + p.extent_c();
        for (auto [lo, hi, min, max, axis] : {std::tuple{b0, b1, lo_b, hi_b, b}, std::tuple{c0, c1, lo_c, hi_c, c}})
            if (lo < min - tol || hi > max + tol)
                throw InputError(label, field + "." + size_key,
                                 who + (probe.is_array() ? "element " + std::to_string(e) : std::string("the face")) +
                                     " reaches outside the grid along " + "xyz"[axis] + " (" + format_number(lo) +
                                     " to " + format_number(hi) + " m; the grid spans " + format_number(min) + " to " +
                                     format_number(max) + " m)");

        std::map<std::size_t, double> weights;
        double largest = 0;  // the middle element's most covered voxel face gives the law's material
        const int ib0 = std::max(0, int(std::floor((b0 - lo_b) / ds))),
                  ib1 = std::min(g.n[B], int(std::ceil((b1 - lo_b) / ds)));
        const int ic0 = std::max(0, int(std::floor((c0 - lo_c) / ds))),
                  ic1 = std::min(g.n[C], int(std::ceil((c1 - lo_c) / ds)));
        for (int jc = ic0; jc < ic1; ++jc)
            for (int jb = ib0; jb < ib1; ++jb) {
                const double cb = lo_b + jb * ds, cc = lo_c + jc * ds;
                double w[4] = {0, 0, 0, 0};  // corners (0,0), (1,0), (0,1), (1,1) in (b, c)
                if (p.axis_aligned()) {
                    const bool u_on_b = std::abs(p.ub) > 0.5;
                    const double hb = u_on_b ? p.hu : p.hv, hc = u_on_b ? p.hv : p.hu;
                    const auto [b_lo, b_hi] = hat_integrals(p.pb - hb, p.pb + hb, cb, ds);
                    const auto [c_lo, c_hi] = hat_integrals(p.pc - hc, p.pc + hc, cc, ds);
                    w[0] = b_lo * c_lo, w[1] = b_hi * c_lo, w[2] = b_lo * c_hi, w[3] = b_hi * c_hi;
                } else {
                    constexpr int kQ = 16;
                    const double da = (ds / kQ) * (ds / kQ);
                    for (int qc = 0; qc < kQ; ++qc)
                        for (int qb = 0; qb < kQ; ++qb) {
                            const double xi = (qb + 0.5) / kQ, eta = (qc + 0.5) / kQ;
                            if (!p.contains(cb + xi * ds, cc + eta * ds)) continue;
                            w[0] += (1 - xi) * (1 - eta) * da, w[1] += xi * (1 - eta) * da;
                            w[2] += (1 - xi) * eta * da, w[3] += xi * eta * da;
                        }
                }
                if (w[0] + w[1] + w[2] + w[3] <= 1e-12 * ds * ds) continue;
                std::array<int, 3> cell{};
                cell[A] = inside_layer, cell[B] = jb, cell[C] = jc;
                const bool material =
                    inside_layer >= 0 && inside_layer < g.n[A] && g.at(cell[0], cell[1], cell[2]) != kVoidId;
                cell[A] = behind_layer;
                const bool open =
                    behind_layer < 0 || behind_layer >= g.n[A] || g.at(cell[0], cell[1], cell[2]) == kVoidId;
                if (!material || !open) {
                    const std::string where = std::string(1, "xyz"[b]) + " = " + format_number(cb + 0.5 * ds) + ", " +
                                              "xyz"[c] + " = " + format_number(cc + 0.5 * ds) + " m";
                    throw InputError(
                        label, field + ".center",
                        who + "its face (" + "xyz"[a] + " = " + format_number(f.center[A]) + " m, normal " +
                            (side > 0 ? "+" : "-") + "xyz"[a] + ") is not on a surface of the model: at " + where +
                            (material ? " there is material on both sides" : " there is no material under it"));
                }
                if (e == count / 2 && w[0] + w[1] + w[2] + w[3] > largest) {
                    largest = w[0] + w[1] + w[2] + w[3];
                    cell[A] = inside_layer;
                    f.material = g.at(cell[0], cell[1], cell[2]);
                }
                for (int corner = 0; corner < 4; ++corner) {
                    std::array<int, 3> node{};
                    node[A] = int(ka), node[B] = jb + (corner & 1), node[C] = jc + (corner >> 1);
                    weights[g.node_index(node[0], node[1], node[2])] += w[corner];
                }
            }
        std::vector<NodalWeight> list;
        double area = 0;
        for (const auto& [node, w] : weights) {
            list.push_back({node, w});
            area += w;
        }
        if (list.empty()) throw InputError(label, field + "." + size_key, who + "a footprint covers no voxel face");
        f.elements.push_back(std::move(list));
        f.areas.push_back(area);
    }

    f.specimen = f.material;
    if (probe.wedge) {
        // The first element below the painted block, under the centre.
        const long ks = std::clamp<long>(std::lround((probe.center[A] - g.origin[A]) / ds), 0, g.n[A]);
        f.wedge_height = std::abs(double(ka - ks)) * ds;
        std::array<int, 3> cell{};
        for (int d = 0; d < 3; ++d)
            cell[std::size_t(d)] =
                std::clamp(int(std::floor((f.center[std::size_t(d)] - g.origin[std::size_t(d)]) / ds)), 0,
                           g.n[std::size_t(d)] - 1);
        cell[A] = side > 0 ? int(ks) : int(ks) - 1;
        f.specimen = cell[A] >= 0 && cell[A] < g.n[A] ? g.at(cell[0], cell[1], cell[2]) : kVoidId;
    }
    return f;
}

double probe_law_velocity(const ProbeSpec& probe, const ProbeFootprint& footprint,
                          const std::vector<Material>& materials) {
    if (probe.delay_law.velocity) return *probe.delay_law.velocity;
    if (footprint.specimen == kVoidId || footprint.specimen > materials.size()) return 0;
    const Material& m = materials[footprint.specimen - 1];
    if (probe.wedge && footprint.material != kVoidId && footprint.material <= materials.size()) {
        const double c_wedge = materials[footprint.material - 1].vp;
        if (std::sin(probe.wedge->angle * std::numbers::pi / 180) * m.vp > c_wedge) return m.vs;
    }
    return probe.mode == "shear" ? m.vs : m.vp;
}

}  // namespace voxwave
