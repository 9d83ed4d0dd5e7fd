#include "boundary/pml_layer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "core/errors.hpp"
#include "scene/run_rules.hpp"

namespace voxwave {

double pml_peak_damping(double vp, double thickness, double reflection) {
    return -3.0 * vp * std::log(reflection) / (2.0 * thickness);
}

namespace {

// Depth fraction x / L of a point at distance `from_face` (metres) from a face with a layer of
// thickness L: 0 at the inner edge and beyond it, 1 on the face.
double depth_fraction(double from_face, double L) { return from_face < L ? (L - from_face) / L : 0.0; }

void set_profile(PmlProfile& p, std::size_t count) {
    if (!p.empty()) return;
    p.d.assign(count, 0.0);
    p.kappa.assign(count, 1.0);
    p.alpha.assign(count, 0.0);
}

}  // namespace

PmlLayer pml_layer(const BoundaryConditions& bc, const VoxelGrid& g, double vp_max) {
    if (!bc.absorbs(AbsorbingType::Pml)) return {};
    PmlLayer out;
    out.n = g.n;
    for (int f = 0; f < 6; ++f) {
        const FaceCondition& fc = bc.faces[std::size_t(f)];
        if (fc.absorbing != AbsorbingType::Pml) continue;
        const int a = face_axis(f), n = g.n[std::size_t(a)];
        const double L = fc.thickness;
        const double d0 = pml_peak_damping(vp_max, L, fc.reflection);
        const double frequency = fc.frequency > 0 ? fc.frequency : vp_max / (4.0 * L);
        const double alpha_max = fc.alpha_max.value_or(kPmlDefaultAlphaPerHz * frequency);
        PmlProfile& pe = out.element[std::size_t(a)];
        PmlProfile& pn = out.node[std::size_t(a)];
        set_profile(pe, std::size_t(n));
        set_profile(pn, std::size_t(n + 1));
        // Where the layers of both faces of an axis meet (each half the box), a point takes the
        // deeper one's values.
        auto put = [&](PmlProfile& p, std::size_t idx, double x) {
            if (x <= 0) return;
            const double d = d0 * x * x;
            if (d < p.d[idx]) return;
            p.d[idx] = d;
            p.kappa[idx] = 1.0 + (fc.kappa_max - 1.0) * x * x;
            p.alpha[idx] = alpha_max * (1.0 - x);
        };
        for (int i = 0; i <= n; ++i) {
            const double from_face = (face_is_upper(f) ? n - i : i) * g.spacing;
            put(pn, std::size_t(i), depth_fraction(from_face, L));
            if (i < n) {
                const double centre = (face_is_upper(f) ? n - i - 0.5 : i + 0.5) * g.spacing;
                put(pe, std::size_t(i), depth_fraction(centre, L));
            }
        }
    }
    return out;
}

PmlLayer PmlLayer::node_range(std::size_t first, std::size_t last) const {
    if (empty()) return {};
    const std::size_t plane = std::size_t(n[0] + 1) * std::size_t(n[1] + 1);
    if (first % plane != 0 || last % plane != 0 || last <= first + plane)
        throw RuntimeError("PML layer: a node range must be whole z node planes, at least two");
    const std::size_t k0 = first / plane, k1 = last / plane - 1;  // node planes k0 .. k1
    PmlLayer out = *this;
    out.n[2] = int(k1 - k0);
    out.offset[2] += int(k0);
    return out;
}

PmlLayer PmlLayer::element_box(const std::array<int, 3>& e0, const std::array<int, 3>& box) const {
    if (empty()) return {};
    PmlLayer out = *this;
    for (std::size_t a = 0; a < 3; ++a) {
        if (e0[a] < 0 || box[a] < 1 || e0[a] + box[a] > n[a])
            throw RuntimeError("PML layer: element box outside the grid");
        out.n[a] = box[a];
        out.offset[a] += e0[a];
    }
    return out;
}

PmlLayer PmlLayer::turned(const std::array<int, 3>& from) const {
    if (empty()) return {};
    PmlLayer out;
    for (std::size_t a = 0; a < 3; ++a) {
        const std::size_t b = std::size_t(from[a]);
        out.n[a] = n[b];
        out.offset[a] = offset[b];
        out.element[a] = element[b];
        out.node[a] = node[b];
    }
    return out;
}

namespace {

// The stretch at index idx of the layer's grid (element or node profiles), d at most d_max.
PmlStretch stretch_at(const std::array<PmlProfile, 3>& prof, const std::array<int, 3>& offset,
                      const std::array<int, 3>& idx, double d_max) {
    PmlStretch s;
    for (std::size_t a = 0; a < 3; ++a) {
        const PmlProfile& p = prof[a];
        if (p.empty()) continue;
        const std::size_t i = std::size_t(idx[a] + offset[a]);
        s.d[a] = std::min(p.d[i], d_max);
        s.kappa[a] = p.kappa[i];
        s.alpha[a] = p.alpha[i];
    }
    return s;
}

// A rational filter gain prod_m (z + zero_m) / (z + pole_m) (pole_m an index into a chain of
// poles, each at most once), in the Newton form over the chain p_1..p_K:
//     F = c0 + sum_k a_k E_k,   E_k = 1 / ((z + p_1) ... (z + p_k)).
// Built one factor at a time in chain order: (z + r) / (z + q) = 1 + (r - q) / (z + q), and a form
// over E_0..E_j times 1 / (z + q), q = p_{j+1}, is again one, by
//     E_i / (z + q) = E_{i+1} + (p_{i+1} - q) E_{i+1} / (z + q):
// only products of pole differences and zero-pole gaps, no division, so the coefficients stay
// bounded where poles coincide (partial fractions would divide by their differences).
// The chain's order: larger poles first. A filter's pole p that stands behind other poles q of
// the chain enters as 1 / (z + p) = 1 / (z + q) + (q - p) / ((z + q)(z + p)): with q >= p the
// terms have one sign (at z = 0: 1/q + (q - p)/(q p)), with q < p they cancel by up to p / q
// (a beta behind an alpha: d / alpha, up to 1e4).
// Pole entries are pairs (pole, what it is).
constexpr auto larger_pole_first = [](const auto& a, const auto& b) { return a.first > b.first; };

struct Rational {
    double gain = 1;
    std::vector<double> zeros;  // zeros[i] pairs with poles[i]
    std::vector<int> poles;
    // a[k - 1] = a_k for k = 1..K (0 where the filter has fewer poles than the chain).
    void newton(const std::vector<double>& chain, double& c0, std::vector<double>& a) const {
        const std::size_t K = chain.size();
        std::vector<double> b(K + 1, 0.0), c(K + 1, 0.0);
        b[0] = gain;
        for (std::size_t m = 0; m < K; ++m) {
            const auto it = std::find(poles.begin(), poles.end(), int(m));
            if (it == poles.end()) continue;
            const double q = chain[m], r = zeros[std::size_t(it - poles.begin())];
            // c = b / (z + q) over E_1..E_{m+1}, then b += (r - q) c.
            c[1] = b[0];
            for (std::size_t j = 2; j <= m + 1; ++j) c[j] = b[j - 1] + (chain[j - 2] - q) * c[j - 1];
            for (std::size_t j = 1; j <= m + 1; ++j) b[j] += (r - q) * c[j];
        }
        c0 = b[0];
        a.assign(b.begin() + 1, b.end());
    }
};

}  // namespace

void PmlTables::Poles::add(double pole, double dt) {
    const double x = pole * dt;
    double w_old, w_new;
    if (x < 0.1) {
        // The series of (1 - e^-x) / x = sum_{n>=1} (-x)^(n-1) / n! and of
        // (1 - e^-x (1 + x)) / x^2 = sum_{n>=2} (n - 1) (-x)^(n-2) / n! (the closed forms cancel here).
        double b = 0, a = 0, prev = 0, pw = 1, fact = 1;
        for (int n = 1; n < 16; ++n) {
            fact *= n;
            b += pw / fact;
            if (n >= 2) a += double(n - 1) * prev / fact;
            prev = pw;
            pw *= -x;
        }
        w_old = dt * a;
        w_new = dt * (b - a);
    } else {
        const double e = std::exp(-x), one_minus_e = -std::expm1(-x);
        const double t = one_minus_e - x * e;
        w_old = dt * t / (x * x);
        w_new = dt * (one_minus_e / x - t / (x * x));
    }
    p.push_back(pole);
    decay.push_back(std::exp(-x));
    this->w_old.push_back(w_old);
    this->w_new.push_back(w_new);
}

PmlStretch pml_node_stretch(const PmlLayer& layer, int i, int j, int k) {
    return stretch_at(layer.node, layer.offset, {i, j, k}, std::numeric_limits<double>::infinity());
}

PmlTables pml_tables(const PmlLayer& layer, const VoxelGrid& g, const std::vector<double>& node_mass, double dt,
                     int node_planes_per_element) {
    PmlTables t;
    if (layer.empty()) return t;
    if (layer.n != g.n) throw RuntimeError("PML layer: its profiles describe another grid");
    const double d_max = kPmlMaxDampingPerStep / dt;

    // Elements.
    t.element_first_pole.push_back(0);
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                if (g.at(i, j, k) == kVoidId) continue;
                PmlStretch s = stretch_at(layer.element, layer.offset, {i, j, k}, d_max);
                if (s.identity()) continue;
                // The chain of poles: alpha_a and beta_a = alpha_a + d_a / kappa_a of the damped
                // axes (equal ones stay equal: the Newton form needs no distinct poles).
                std::array<double, 3> beta{};
                for (std::size_t a = 0; a < 3; ++a)
                    if (s.d[a] != 0) beta[a] = s.alpha[a] + s.d[a] / s.kappa[a];
                std::vector<std::pair<double, std::size_t>> poles;  // (pole, 2 axis + (1 for beta))
                for (std::size_t a = 0; a < 3; ++a)
                    if (s.d[a] != 0) {
                        poles.push_back({s.alpha[a], 2 * a});
                        poles.push_back({beta[a], 2 * a + 1});
                    }
                std::stable_sort(poles.begin(), poles.end(), larger_pole_first);
                std::vector<double> table;
                std::array<int, 3> alpha_pole{-1, -1, -1}, beta_pole{-1, -1, -1};
                for (const auto& [p, what] : poles) {
                    (what % 2 ? beta_pole : alpha_pole)[what / 2] = int(table.size());
                    table.push_back(p);
                }
                // s_a = kappa (z + beta) / (z + alpha); 1 / s_a the inverse.
                auto times_s = [&](Rational& r, int a, bool inverse) {
                    const std::size_t u = std::size_t(a);
                    r.gain *= inverse ? 1.0 / s.kappa[u] : s.kappa[u];
                    if (s.d[u] == 0) return;
                    r.zeros.push_back(inverse ? s.alpha[u] : beta[u]);
                    r.poles.push_back(inverse ? beta_pole[u] : alpha_pole[u]);
                };
                std::array<double, kPmlFilters> c0{};
                std::vector<std::vector<double>> newton(kPmlFilters);
                for (int jj = 0; jj < 3; ++jj)
                    for (int l = jj; l < 3; ++l) {
                        Rational r;
                        if (jj != l) {
                            times_s(r, 3 - jj - l, false);
                        } else {
                            for (int m = 0; m < 3; ++m)
                                if (m != jj) times_s(r, m, false);
                            times_s(r, jj, true);
                        }
                        const int f = pml_filter(jj, l);
                        r.newton(table, c0[std::size_t(f)], newton[std::size_t(f)]);
                    }
                t.element.push_back(g.element_index(i, j, k));
                for (double c : c0) t.filter_const.push_back(c - 1.0);
                for (std::size_t p = 0; p < table.size(); ++p) {
                    t.element_poles.add(table[p], dt);
                    for (int f = 0; f < kPmlFilters; ++f) t.filter_newton.push_back(newton[std::size_t(f)][p]);
                }
                t.element_first_pole.push_back(t.element_poles.size());
            }

    // Nodes: the lumped mass of each element around a node is stretched with that element's S
    // (the same stretch as its stiffness): M = sum_e S_e / (elements around the node), by position
    // (void or not, any material: a slab's shared node then gets the whole model's M from the
    // profiles alone), S_e = prod_a kappa_a (z + beta_a) / (z + alpha_a).
    t.node_first_pole.push_back(0);
    auto inside = [&](int a, int idx) {  // element index idx of the layer's grid along axis a, in the model
        const PmlProfile& p = layer.element[std::size_t(a)];
        const int whole = p.empty() ? g.n[std::size_t(a)] : int(p.d.size());
        const int at = idx + (p.empty() ? 0 : layer.offset[std::size_t(a)]);
        return at >= 0 && at < whole;
    };
    const int P = node_planes_per_element;
    const std::size_t mx = std::size_t(P * g.n[0] + 1), my = std::size_t(P * g.n[1] + 1);
    // The elements around node plane i along an axis: [first, i / P].
    auto first = [P](int i) { return i % P == 0 ? i / P - 1 : i / P; };
    for (int k = 0; k <= P * g.n[2]; ++k)
        for (int j = 0; j <= P * g.n[1]; ++j)
            for (int i = 0; i <= P * g.n[0]; ++i) {
                const std::size_t n = std::size_t(i) + mx * (std::size_t(j) + my * std::size_t(k));
                if (!(node_mass[n] > 0)) continue;
                struct Around {
                    double weight;
                    PmlStretch s;
                };
                std::vector<Around> around;
                bool stretched = false;
                for (int c = first(k); c <= k / P; ++c)
                    for (int b = first(j); b <= j / P; ++b)
                        for (int a = first(i); a <= i / P; ++a) {
                            if (!inside(0, a) || !inside(1, b) || !inside(2, c)) continue;
                            around.push_back({1.0, stretch_at(layer.element, layer.offset, {a, b, c}, d_max)});
                            stretched = stretched || !around.back().s.identity();
                        }
                for (Around& e : around) e.weight = 1.0 / double(around.size());
                if (!stretched) continue;
                // The chain of poles: the distinct alphas of the elements by axis (elements that
                // share an index along an axis share its alpha; each axis of an element takes its
                // own chain entry, equal or not to another axis's).
                std::vector<std::pair<double, std::size_t>> raw;
                std::vector<double> chain;
                for (const Around& e : around)
                    for (std::size_t a = 0; a < 3; ++a)
                        if (e.s.d[a] != 0) {
                            const std::pair<double, std::size_t> key{e.s.alpha[a], a};
                            if (std::find(raw.begin(), raw.end(), key) == raw.end()) raw.push_back(key);
                        }
                std::stable_sort(raw.begin(), raw.end(), larger_pole_first);
                for (const auto& key : raw) chain.push_back(key.first);
                double c0 = 0;
                std::vector<double> newton(chain.size(), 0.0);
                for (const Around& e : around) {
                    Rational r;
                    for (std::size_t a = 0; a < 3; ++a) {
                        r.gain *= e.s.kappa[a];
                        if (e.s.d[a] == 0) continue;
                        const int p = int(std::find(raw.begin(), raw.end(), std::pair{e.s.alpha[a], a}) - raw.begin());
                        r.zeros.push_back(e.s.alpha[a] + e.s.d[a] / e.s.kappa[a]);
                        r.poles.push_back(p);
                    }
                    double ce;
                    std::vector<double> re;
                    r.newton(chain, ce, re);
                    c0 += e.weight * ce;
                    for (std::size_t p = 0; p < chain.size(); ++p) newton[p] += e.weight * re[p];
                }
                t.node.push_back(n);
                t.node_scale.push_back(c0);
                for (std::size_t p = 0; p < chain.size(); ++p) {
                    t.node_poles.add(chain[p], dt);
                    t.node_newton.push_back(newton[p]);
                }
                t.node_first_pole.push_back(t.node_poles.size());
            }
    return t;
}

PmlElementClasses pml_element_classes(const PmlTables& t) {
    PmlElementClasses c;
    c.first_pole.push_back(0);
    std::map<std::vector<double>, std::uint32_t> known;
    std::vector<double> row;
    for (std::size_t q = 0; q < t.element.size(); ++q) {
        const std::size_t p0 = t.element_first_pole[q], p1 = t.element_first_pole[q + 1];
        row.assign(t.filter_const.begin() + std::ptrdiff_t(q * kPmlFilters),
                   t.filter_const.begin() + std::ptrdiff_t((q + 1) * kPmlFilters));
        for (std::size_t p = p0; p < p1; ++p) {
            row.insert(row.end(), {t.element_poles.p[p], t.element_poles.decay[p], t.element_poles.w_old[p],
                                   t.element_poles.w_new[p]});
            row.insert(row.end(), t.filter_newton.begin() + std::ptrdiff_t(p * kPmlFilters),
                       t.filter_newton.begin() + std::ptrdiff_t((p + 1) * kPmlFilters));
        }
        const auto [it, added] = known.emplace(row, std::uint32_t(c.size()));
        c.of_element.push_back(it->second);
        if (!added) continue;
        c.filter_const.insert(c.filter_const.end(), row.begin(), row.begin() + kPmlFilters);
        for (std::size_t p = p0; p < p1; ++p) {
            c.poles.p.push_back(t.element_poles.p[p]);
            c.poles.decay.push_back(t.element_poles.decay[p]);
            c.poles.w_old.push_back(t.element_poles.w_old[p]);
            c.poles.w_new.push_back(t.element_poles.w_new[p]);
            c.filter_newton.insert(c.filter_newton.end(), t.filter_newton.begin() + std::ptrdiff_t(p * kPmlFilters),
                                   t.filter_newton.begin() + std::ptrdiff_t((p + 1) * kPmlFilters));
        }
        c.first_pole.push_back(c.poles.size());
    }
    return c;
}

}  // namespace voxwave
