// The 64-byte vectors of this file never cross a non-inlined call boundary of another
// translation unit; without AVX-512 GCC warns that passing them by value changes the ABI, which
// does not matter here. Set before the includes: the warning is raised in them too.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "wave/pml_correction_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/lame_tables.hpp"
#include "wave/pml_element_kernel.hpp"

namespace voxwave {

namespace {

// 8 layer elements at once: every operation of the element pass is one SIMD instruction over
// the lanes of a batch (AVX-512; narrower ISAs split it), each lane the scalar arithmetic of
// its own element.
typedef double V __attribute__((vector_size(64)));
constexpr int kLanes = 8;

V load(const double* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
void store(double* p, const V& v) { std::memcpy(p, &v, sizeof v); }

// Entry `offset` of each lane's node block from p: one vector load where the 8 lanes are
// consecutive nodes, else one load per lane.
template <class Real>
[[gnu::always_inline]] inline V gather(const Real* p, const std::size_t* node0, std::size_t offset, bool contiguous) {
    if (contiguous) {
        typedef Real R8 __attribute__((vector_size(kLanes * sizeof(Real))));
        R8 r;
        std::memcpy(&r, p + node0[0] + offset, sizeof r);
        return __builtin_convertvector(r, V);
    }
    return V{double(p[node0[0] + offset]), double(p[node0[1] + offset]), double(p[node0[2] + offset]),
             double(p[node0[3] + offset]), double(p[node0[4] + offset]), double(p[node0[5] + offset]),
             double(p[node0[6] + offset]), double(p[node0[7] + offset])};
}

// The 7 stress modes of the voxel element: the moment that gradient column l of each has (-1:
// none) and the class of its scale (constant, linear, bilinear).
struct StressMode {
    int col[3];
    int scale;
};
constexpr StressMode kModes[7] = {{{kSx, kSy, kSz}, 0},  {{-1, kSxy, kSxz}, 1}, {{kSxy, -1, kSyz}, 1},
                                  {{kSxz, kSyz, -1}, 1}, {{kSxyz, -1, -1}, 2},  {{-1, kSxyz, -1}, 2},
                                  {{-1, -1, kSxyz}, 2}};

// The values v of filter f's change dS[f][v] that the force reads (element_force): 12 of the 21
// for xx, yy, zz, 8 for xy, xz, yz.
struct FilterValues {
    int count = 0;
    int v[kPmlMomentValues] = {};
    std::uint32_t bits = 0;
};
constexpr FilterValues filter_values(int f) {
    FilterValues r;
    auto add = [&r](int v) {
        if (!(r.bits >> v & 1u)) r.v[r.count++] = v;
        r.bits |= 1u << v;
    };
    for (const StressMode& m : kModes)
        for (int j = 0; j < 3; ++j) {
            if (m.col[j] < 0) continue;
            for (int k = 0; k < 3; ++k)
                if (m.col[k] >= 0 && pml_filter(j, k) == f) add(3 * m.col[k] + k);
            for (int i = 0; i < 3; ++i) {
                if (pml_filter(j, j) == f) add(3 * m.col[j] + i);
                if (m.col[i] >= 0 && pml_filter(j, i) == f) add(3 * m.col[i] + j);
            }
        }
    return r;
}
constexpr FilterValues kFilterValues[kPmlFilters] = {filter_values(0), filter_values(1), filter_values(2),
                                                     filter_values(3), filter_values(4), filter_values(5)};

// The filters that change (bit f: F_f != 1) in a face layer normal to x, y, z, on an edge along
// z, y, x, in a corner: F_jl = s_m (j != l, m the third axis), F_jj = s_m s_n / s_j. The force
// is compiled for each, so that it skips the filters equal to 1 there.
constexpr unsigned kForceFilters[] = {0b100111, 0b010111, 0b001111, 0b110111, 0b101111, 0b011111, 0b111111};

// T (21 summed stress moments) of the changes dS[f][v] of the filters in Filters (the others
// are 1: no change), with Lame constants lambda, mu and mode scales sc; f (24 dofs) = H^t T:
//     sigma_ij = lambda delta_ij sum_k dF_jk G_kk + mu (dF_jj G_ij + dF_ji G_ji),
// G_kl = S_col[l][k] of each stress mode.
template <unsigned Filters>
void element_force(const V (*dS)[kPmlMomentValues], const V& lambda, const V& mu, const double sc[3], V* f) {
    constexpr auto changes = [](int j, int l) { return (Filters >> pml_filter(j, l) & 1u) != 0; };
    V T[kPmlMomentValues] = {};
#pragma GCC unroll 7
    for (int beta = 0; beta < 7; ++beta) {
        const int* col = kModes[beta].col;
        const double s = sc[kModes[beta].scale];
#pragma GCC unroll 3
        for (int j = 0; j < 3; ++j) {
            if (col[j] < 0) continue;
            V trace = {};
#pragma GCC unroll 3
            for (int k = 0; k < 3; ++k)
                if (col[k] >= 0 && changes(j, k)) trace += dS[pml_filter(j, k)][3 * col[k] + k];
#pragma GCC unroll 3
            for (int i = 0; i < 3; ++i) {
                V sigma = {};
                if (changes(j, j)) sigma = mu * dS[pml_filter(j, j)][3 * col[j] + i];
                if (col[i] >= 0 && changes(j, i)) sigma += mu * dS[pml_filter(j, i)][3 * col[i] + j];
                if (i == j) sigma += lambda * trace;
                T[3 * col[j] + i] += s * sigma;
            }
        }
    }
    voxel_corner_scatter(T, f);
}

void element_force(unsigned filters, const V (*dS)[kPmlMomentValues], const V& lambda, const V& mu, const double sc[3],
                   V* f) {
    switch (filters) {
        case kForceFilters[0]:
            return element_force<kForceFilters[0]>(dS, lambda, mu, sc, f);
        case kForceFilters[1]:
            return element_force<kForceFilters[1]>(dS, lambda, mu, sc, f);
        case kForceFilters[2]:
            return element_force<kForceFilters[2]>(dS, lambda, mu, sc, f);
        case kForceFilters[3]:
            return element_force<kForceFilters[3]>(dS, lambda, mu, sc, f);
        case kForceFilters[4]:
            return element_force<kForceFilters[4]>(dS, lambda, mu, sc, f);
        case kForceFilters[5]:
            return element_force<kForceFilters[5]>(dS, lambda, mu, sc, f);
        default:
            return element_force<kForceFilters[6]>(dS, lambda, mu, sc, f);
    }
}

// Node offsets of an element's corners from its lowest (local node order).
std::array<std::size_t, 8> corner_offsets(const VoxelGrid& g) {
    const std::size_t nx1 = std::size_t(g.n[0]) + 1, plane1 = nx1 * (std::size_t(g.n[1]) + 1);
    std::array<std::size_t, 8> off{};
    for (int c = 0; c < 2; ++c)
        for (int b = 0; b < 2; ++b)
            for (int a = 0; a < 2; ++a)
                off[std::size_t(voxel_local_node(a, b, c))] =
                    std::size_t(a) + nx1 * std::size_t(b) + plane1 * std::size_t(c);
    return off;
}

std::size_t lowest_node(const VoxelGrid& g, std::size_t e) {
    const std::size_t nx = std::size_t(g.n[0]), ny = std::size_t(g.n[1]);
    const std::size_t nx1 = nx + 1, plane1 = nx1 * (ny + 1);
    return e % nx + nx1 * ((e / nx) % ny) + plane1 * (e / (nx * ny));
}

int bits(unsigned m) { return __builtin_popcount(m); }

// `items` (ascending grid indices, index(i) of each) reordered for batches of 8: the runs of 8
// consecutive indices of one row (row: indices per row) first, whose values a batch reads and
// writes as vectors, then what the runs leave.
template <class Index>
std::vector<std::size_t> runs_of_eight_first(const std::vector<std::size_t>& items, Index index, std::size_t row) {
    std::vector<std::size_t> runs, rest;
    for (std::size_t r0 = 0, r1 = 0; r0 < items.size(); r0 = r1) {
        for (r1 = r0 + 1;
             r1 < items.size() && index(items[r1]) == index(items[r1 - 1]) + 1 && index(items[r1]) % row != 0; ++r1) {
        }
        const std::size_t whole = r0 + (r1 - r0) / kLanes * kLanes;
        runs.insert(runs.end(), items.begin() + std::ptrdiff_t(r0), items.begin() + std::ptrdiff_t(whole));
        rest.insert(rest.end(), items.begin() + std::ptrdiff_t(whole), items.begin() + std::ptrdiff_t(r1));
    }
    runs.insert(runs.end(), rest.begin(), rest.end());
    return runs;
}

// Whether a batch's 8 lanes (grid indices `index` of `count` items) are 8 consecutive indices of
// one row (row: indices per row): read and written as one vector each.
bool consecutive_lanes(const std::array<std::size_t, kLanes>& index, std::uint32_t count, std::size_t row) {
    bool consecutive = count == kLanes && index[0] % row + kLanes <= row;
    for (std::size_t l = 1; l < kLanes; ++l) consecutive = consecutive && index[l] == index[0] + l;
    return consecutive;
}

// Appends to rows one Lanes of value(lane[l]) for each lane l.
template <class Rows, class Value>
void put_lanes(Rows& rows, const std::array<std::size_t, kLanes>& lane, Value value) {
    typename Rows::value_type x;
    for (std::size_t l = 0; l < kLanes; ++l) x.v[l] = value(lane[l]);
    rows.push_back(x);
}

// Lane l of a batch of `count` items from `list` at `first` (the last item repeated past count).
std::size_t lane_item(const std::vector<std::size_t>& list, std::size_t first, std::size_t count, int l) {
    return list[first + std::min<std::size_t>(std::size_t(l), count - 1)];
}

}  // namespace

template <class Real>
PmlCorrectionCpu<Real>::PmlCorrectionCpu(const WaveProblem& problem) : problem_(problem) {
    const ModeScales m = mode_scales(problem.element_method(), problem.grid.spacing);
    scales_ = {m.constant, m.linear, m.bilinear};
    const LameTables<double> lame = lame_tables<double>(problem.materials);
    const PmlTables t = pml_tables(problem.boundary.pml, problem.grid, problem.node_mass, problem.dt);
    const PmlElementClasses classes = pml_element_classes(t);
    layer_elements_ = t.element.size();
    corner_offset_ = corner_offsets(problem.grid);

    // The group of each class: its structure (stages, the filters with a constant and with a
    // coefficient at each stage), and from it the values each stage must advance (those that a
    // filter of this or a later stage reads) and the force's filters.
    std::vector<std::uint32_t> group_of_class(classes.size());
    std::map<std::vector<unsigned>, std::uint32_t> known;
    for (std::size_t c = 0; c < classes.size(); ++c) {
        const std::size_t cp0 = classes.first_pole[c], poles = classes.first_pole[c + 1] - cp0;
        if (poles > 6) throw RuntimeError("PML layer pass: more than 6 poles in an element");
        ElementGroup g;
        unsigned changed = 0;
        for (int f = 0; f < kPmlFilters; ++f)
            if (classes.filter_const[c * kPmlFilters + std::size_t(f)] != 0) g.const_filters |= 1u << f;
        changed |= g.const_filters;
        for (std::size_t k = 0; k < poles; ++k) {
            for (int f = 0; f < kPmlFilters; ++f)
                if (classes.filter_newton[(cp0 + k) * kPmlFilters + std::size_t(f)] != 0) g.stage_filters[k] |= 1u << f;
            if (g.stage_filters[k] != 0) g.stages = int(k) + 1;
            changed |= g.stage_filters[k];
        }
        for (unsigned f : kForceFilters)
            if ((changed & ~f) == 0 && (g.force_filters == 0 || bits(f) < bits(g.force_filters))) g.force_filters = f;
        unsigned later = 0;
        for (int k = g.stages - 1; k >= 0; --k) {
            later |= g.stage_filters[std::size_t(k)];
            for (int f = 0; f < kPmlFilters; ++f)
                if (later >> f & 1u) g.stage_values[std::size_t(k)] |= kFilterValues[f].bits;
            g.psi_values += std::size_t(bits(g.stage_values[std::size_t(k)]));
        }
        std::vector<unsigned> key{unsigned(g.stages), g.const_filters};
        key.insert(key.end(), g.stage_filters.begin(), g.stage_filters.begin() + g.stages);
        const auto [it, added] = known.emplace(key, std::uint32_t(groups_.size()));
        if (added) groups_.push_back(g);
        group_of_class[c] = it->second;
    }

    // Batches: per element plane (the scatter's unit), per group, up to 8 elements in order.
    const VoxelGrid& grid = problem.grid;
    const std::size_t nx = std::size_t(grid.n[0]), per_plane = nx * std::size_t(grid.n[1]);
    std::map<std::vector<std::uint32_t>, std::size_t> known_rows;
    std::size_t psi_size = 0;
    std::vector<std::vector<std::size_t>> of_group(groups_.size());
    plane_first_batch_.assign(std::size_t(grid.n[2]) + 1, 0);
    std::size_t next = 0;  // the first layer element not yet in a batch
    for (int k = 0; k < grid.n[2]; ++k) {
        plane_first_batch_[std::size_t(k)] = batches_.size();
        for (auto& list : of_group) list.clear();
        for (; next < t.element.size() && t.element[next] < (std::size_t(k) + 1) * per_plane; ++next)
            of_group[group_of_class[classes.of_element[next]]].push_back(next);
        for (std::uint32_t gi = 0; gi < groups_.size(); ++gi) {
            const ElementGroup& g = groups_[gi];
            const std::vector<std::size_t> list = runs_of_eight_first(
                of_group[gi], [&t](std::size_t q) { return t.element[q]; }, nx);
            for (std::size_t first = 0; first < list.size(); first += kLanes) {
                ElementBatch b;
                b.group = gi;
                b.count = std::uint32_t(std::min<std::size_t>(kLanes, list.size() - first));
                std::array<std::size_t, kLanes> lane{};
                for (int l = 0; l < kLanes; ++l) lane[std::size_t(l)] = lane_item(list, first, b.count, l);
                for (int l = 0; l < kLanes; ++l)
                    b.node0[std::size_t(l)] = lowest_node(grid, t.element[lane[std::size_t(l)]]);
                std::array<std::size_t, kLanes> element{};
                for (std::size_t l = 0; l < kLanes; ++l) element[l] = t.element[lane[l]];
                b.contiguous = consecutive_lanes(element, b.count, nx);
                // The coefficients of its lanes' classes and materials, shared by every batch of the same.
                std::vector<std::uint32_t> key{gi};
                for (std::size_t l : lane) key.push_back(classes.of_element[l]);
                for (std::size_t l : lane) key.push_back(grid.ids[t.element[l]]);
                const auto [it, added] = known_rows.emplace(key, rows_.size());
                b.row = it->second;
                if (added) {
                    auto put = [&](auto value_of_lane) { put_lanes(rows_, lane, value_of_lane); };
                    put([&](std::size_t e) { return lame.lambda[grid.ids[t.element[e]]]; });
                    put([&](std::size_t e) { return lame.mu[grid.ids[t.element[e]]]; });
                    for (int f = 0; f < kPmlFilters; ++f)
                        if (g.const_filters >> f & 1u)
                            put([&](std::size_t e) {
                                return classes.filter_const[classes.of_element[e] * kPmlFilters + std::size_t(f)];
                            });
                    for (int s = 0; s < g.stages; ++s) {
                        auto pole = [&](std::size_t e) {
                            return classes.first_pole[classes.of_element[e]] + std::size_t(s);
                        };
                        put([&](std::size_t e) { return classes.poles.decay[pole(e)]; });
                        put([&](std::size_t e) { return classes.poles.w_old[pole(e)]; });
                        put([&](std::size_t e) { return classes.poles.w_new[pole(e)]; });
                        for (int f = 0; f < kPmlFilters; ++f)
                            if (g.stage_filters[std::size_t(s)] >> f & 1u)
                                put([&](std::size_t e) {
                                    return classes.filter_newton[pole(e) * kPmlFilters + std::size_t(f)];
                                });
                    }
                }
                b.psi = psi_size;
                psi_size += g.psi_values;
                batches_.push_back(b);
            }
        }
    }
    plane_first_batch_[std::size_t(grid.n[2])] = batches_.size();
    psi_.assign(psi_size, Lanes{});
    if (problem.rayleigh.beta != 0) {
        u_before_.assign(3 * grid.node_count(), Real(0));
        std::vector<std::size_t> nodes;
        for (std::size_t e : t.element)
            for (std::size_t o : corner_offset_) nodes.push_back(lowest_node(grid, e) + o);
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        for (std::size_t n : nodes)
            if (!node_runs_.empty() && node_runs_.back()[1] == n)
                ++node_runs_.back()[1];
            else
                node_runs_.push_back({n, n + 1});
    }

    // The nodes: batches of 8 with the same number of poles (fixed nodes are held by the update),
    // runs of 8 consecutive nodes first; their rows deduplicated by class (equal coefficients).
    layer_nodes_ = t.node.size();
    const std::vector<std::size_t>& fixed = problem.boundary.fixed_nodes;
    std::vector<std::vector<std::size_t>> of_poles(7);
    for (std::size_t q = 0; q < t.node.size(); ++q) {
        const std::size_t poles = t.node_first_pole[q + 1] - t.node_first_pole[q];
        if (poles > 6) throw RuntimeError("PML layer pass: more than 6 poles at a node");
        if (!std::binary_search(fixed.begin(), fixed.end(), t.node[q])) of_poles[poles].push_back(q);
    }
    std::map<std::vector<double>, std::uint32_t> node_classes;
    std::vector<std::uint32_t> node_class(t.node.size());
    for (std::size_t q = 0; q < t.node.size(); ++q) {
        std::vector<double> row{t.node_scale[q]};
        for (std::size_t p = t.node_first_pole[q]; p < t.node_first_pole[q + 1]; ++p)
            row.insert(row.end(),
                       {t.node_newton[p], t.node_poles.decay[p], t.node_poles.w_old[p], t.node_poles.w_new[p]});
        node_class[q] = node_classes.emplace(row, std::uint32_t(node_classes.size())).first->second;
    }
    std::map<std::vector<std::uint32_t>, std::size_t> known_node_rows;
    const std::size_t nx1 = nx + 1;
    std::size_t state_size = 0;
    for (int poles = 0; poles <= 6; ++poles) {
        const std::vector<std::size_t> list = runs_of_eight_first(
            of_poles[std::size_t(poles)], [&t](std::size_t q) { return t.node[q]; }, nx1);
        for (std::size_t first = 0; first < list.size(); first += kLanes) {
            NodeBatch b;
            b.poles = poles;
            b.count = std::uint32_t(std::min<std::size_t>(kLanes, list.size() - first));
            std::array<std::size_t, kLanes> lane{};
            std::vector<std::uint32_t> key{std::uint32_t(poles)};
            for (int l = 0; l < kLanes; ++l) {
                const std::size_t q = lane_item(list, first, b.count, l);
                lane[std::size_t(l)] = q;
                b.node[std::size_t(l)] = t.node[q];
                b.dt2_inv_mass[std::size_t(l)] = problem.dt * problem.dt / problem.node_mass[t.node[q]];
                key.push_back(node_class[q]);
            }
            b.contiguous = consecutive_lanes(b.node, b.count, nx1);
            const auto [it, added] = known_node_rows.emplace(key, node_rows_.size());
            b.row = it->second;
            if (added) {
                auto put = [&](auto value_of_lane) { put_lanes(node_rows_, lane, value_of_lane); };
                put([&](std::size_t q) { return t.node_scale[q]; });
                for (int k = 0; k < poles; ++k) {
                    auto pole = [&](std::size_t q) { return t.node_first_pole[q] + std::size_t(k); };
                    put([&](std::size_t q) { return t.node_newton[pole(q)]; });
                    put([&](std::size_t q) { return t.node_poles.decay[pole(q)]; });
                    put([&](std::size_t q) { return t.node_poles.w_old[pole(q)]; });
                    put([&](std::size_t q) { return t.node_poles.w_new[pole(q)]; });
                }
            }
            b.state = state_size;
            state_size += 6 + 3 * std::size_t(poles);
            node_batches_.push_back(b);
        }
    }
    node_state_.assign(state_size, Lanes{});
}

template <class Real>
void PmlCorrectionCpu<Real>::reset(const std::array<const Real*, 3>& u_prev, const std::array<const Real*, 3>& u) {
    std::fill(psi_.begin(), psi_.end(), Lanes{});
    fresh_ = true;
    std::fill(node_state_.begin(), node_state_.end(), Lanes{});
    for (const NodeBatch& b : node_batches_) {
        const double* c0 = node_rows_[b.row].v;
        double* y = node_state_[b.state].v;
        for (int c = 0; c < 3; ++c)
            for (int l = 0; l < kLanes; ++l) {
                y[kLanes * c + l] = c0[l] * double(u[c][b.node[std::size_t(l)]]);
                y[kLanes * (3 + c) + l] = c0[l] * double(u_prev[c][b.node[std::size_t(l)]]);
            }
    }
}

template <class Real>
std::size_t PmlCorrectionCpu<Real>::memory_bytes() const {
    const std::size_t lanes = psi_.size() + rows_.size() + node_rows_.size() + node_state_.size();
    const std::size_t indices = plane_first_batch_.size() + 2 * node_runs_.size();
    return lanes * sizeof(Lanes) + indices * sizeof(std::size_t) + u_before_.size() * sizeof(Real) +
           batches_.size() * sizeof(ElementBatch) + node_batches_.size() * sizeof(NodeBatch) +
           groups_.size() * sizeof(ElementGroup);
}

template <class Real>
void PmlCorrectionCpu<Real>::element_batch(std::size_t index, const std::array<const Real*, 3>& u,
                                           const std::array<const Real*, 3>& u_prev, double b,
                                           const std::array<Real*, 3>& f) {
    const ElementBatch& batch = batches_[index];
    const ElementGroup& g = groups_[batch.group];
    const std::array<std::size_t, 8>& off = corner_offset_;
    const std::size_t* node0 = batch.node0.data();
    const bool damped = u_prev[0] != nullptr && b != 0, contiguous = batch.contiguous;
    const double keep = 1.0 + b;
    V w[24];
    for (int l = 0; l < 8; ++l)
        for (int c = 0; c < 3; ++c) {
            const V uc = gather(u[c], node0, off[std::size_t(l)], contiguous);
            w[3 * l + c] = damped ? keep * uc - b * gather(u_prev[c], node0, off[std::size_t(l)], contiguous) : uc;
        }
    // The chain's input phi_0 = S: its old value (the previous step's moments), and S, which
    // each stage then replaces with its own.
    V S[kPmlMomentValues], in_old[kPmlMomentValues];
    voxel_corner_moments(w, S);
    if (fresh_) {
        for (V& x : in_old) x = V{};
    } else {
        const std::size_t nn = problem_.grid.node_count();
        for (int l = 0; l < 8; ++l)
            for (int c = 0; c < 3; ++c) {
                const V um = gather(u_prev[c], node0, off[std::size_t(l)], contiguous);
                w[3 * l + c] = u_before_.empty() ? um
                                                 : keep * um - b * gather(u_before_.data() + std::size_t(c) * nn, node0,
                                                                          off[std::size_t(l)], contiguous);
            }
        voxel_corner_moments(w, in_old);
    }
    // The filters' changes dS[f][v] = (F_f(inf) - 1) S + sum_k a_f,k phi_k, only the values the
    // force reads, of the filters it reads.
    const double* row = rows_[batch.row].v;
    const V lambda = load(row), mu = load(row + kLanes);
    row += 2 * kLanes;
    V dS[kPmlFilters][kPmlMomentValues];
    unsigned set = 0;  // the filters whose dS holds a term (the others are set by their first)
    for (int fl = 0; fl < kPmlFilters; ++fl) {
        if (!(g.const_filters >> fl & 1u)) continue;
        const FilterValues& fv = kFilterValues[fl];
        const V c0 = load(row);
        row += kLanes;
        for (int i = 0; i < fv.count; ++i) dS[fl][fv.v[i]] = c0 * S[fv.v[i]];
        set |= 1u << fl;
    }
    double* psi = psi_[batch.psi].v;
    for (int s = 0; s < g.stages; ++s) {
        const V decay = load(row), w_old = load(row + kLanes), w_new = load(row + 2 * kLanes);
        row += 3 * kLanes;
        for (std::uint32_t m = g.stage_values[std::size_t(s)]; m != 0; m &= m - 1) {
            const int v = __builtin_ctz(m);
            const V old = load(psi);
            const V phi = decay * old + w_old * in_old[v] + w_new * S[v];
            store(psi, phi);
            psi += kLanes;
            in_old[v] = old;
            S[v] = phi;
        }
        for (int fl = 0; fl < kPmlFilters; ++fl) {
            if (!(g.stage_filters[std::size_t(s)] >> fl & 1u)) continue;
            const V a = load(row);
            row += kLanes;
            const FilterValues& fv = kFilterValues[fl];
            if (set >> fl & 1u) {
                for (int i = 0; i < fv.count; ++i) dS[fl][fv.v[i]] += a * S[fv.v[i]];
            } else {
                for (int i = 0; i < fv.count; ++i) dS[fl][fv.v[i]] = a * S[fv.v[i]];
                set |= 1u << fl;
            }
        }
    }
    for (int fl = 0; fl < kPmlFilters; ++fl)
        if ((g.force_filters & ~set) >> fl & 1u)
            for (int i = 0; i < kFilterValues[fl].count; ++i) dS[fl][kFilterValues[fl].v[i]] = V{};
    V fe[24];
    element_force(g.force_filters, dS, lambda, mu, scales_.data(), fe);
    if (contiguous) {
        typedef Real R8 __attribute__((vector_size(kLanes * sizeof(Real))));
        for (int l = 0; l < 8; ++l)
            for (int c = 0; c < 3; ++c) {
                Real* p = f[c] + node0[0] + off[std::size_t(l)];
                R8 x;
                std::memcpy(&x, p, sizeof x);
                x += __builtin_convertvector(fe[3 * l + c], R8);
                std::memcpy(p, &x, sizeof x);
            }
    } else {
        for (std::uint32_t lane = 0; lane < batch.count; ++lane)
            for (int l = 0; l < 8; ++l)
                for (int c = 0; c < 3; ++c)
                    f[c][node0[lane] + off[std::size_t(l)]] += static_cast<Real>(fe[3 * l + c][lane]);
    }
}

template <class Real>
void PmlCorrectionCpu<Real>::add_element_forces(const std::array<const Real*, 3>& u,
                                                const std::array<const Real*, 3>& u_prev, Real b,
                                                const std::array<Real*, 3>& f) {
    if (!fresh_ && u_prev[0] == nullptr) throw RuntimeError("PML layer pass: u- is needed");
    const int planes = problem_.grid.n[2];
#pragma omp parallel
    {
        // The memory variables of a layer the wave has not reached, or has left, decay through
        // the subnormals, where each operation would cost a hundred.
        const FlushDenormalsScope no_subnormals;
        // Element planes of one parity at a time: planes k and k + 2 share no node, so each
        // thread adds its planes' forces straight into f, every plane in the same order whatever
        // the thread count.
        for (int parity = 0; parity < 2; ++parity) {
#pragma omp for schedule(dynamic, 1)
            for (int k = parity; k < planes; k += 2)
                for (std::size_t i = plane_first_batch_[std::size_t(k)]; i < plane_first_batch_[std::size_t(k) + 1];
                     ++i)
                    element_batch(i, u, u_prev, double(b), f);
        }
        // u- is u two steps back at the next step (the loops above have read this one).
        if (!u_before_.empty() && u_prev[0] != nullptr) {
            const std::size_t nn = problem_.grid.node_count();
#pragma omp for schedule(static)
            for (std::size_t r = 0; r < node_runs_.size(); ++r)
                for (int c = 0; c < 3; ++c)
                    std::copy(u_prev[c] + node_runs_[r][0], u_prev[c] + node_runs_[r][1],
                              u_before_.data() + std::size_t(c) * nn + node_runs_[r][0]);
        }
    }
    fresh_ = false;
}

template <class Real>
void PmlCorrectionCpu<Real>::update_nodes(const std::array<const Real*, 3>& u, const std::array<const Real*, 3>& f,
                                          const std::array<Real*, 3>& u_next) {
    const double h = 0.5 * problem_.dt * problem_.rayleigh.alpha;  // Rayleigh's mass term, on y
    const double one_minus_h = 1.0 - h, inv_one_plus_h = 1.0 / (1.0 + h);
    const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(node_batches_.size());
#pragma omp parallel
    {
        const FlushDenormalsScope no_subnormals;
#pragma omp for schedule(static)
        for (std::ptrdiff_t i = 0; i < count; ++i) {
            const NodeBatch& b = node_batches_[std::size_t(i)];
            const std::size_t* node = b.node.data();
            const double* row = node_rows_[b.row].v;
            const V c0 = load(row), a = load(b.dt2_inv_mass.data());
            V newton[6], decay[6], w_old[6], w_new[6];
            for (int k = 0; k < b.poles; ++k) {
                const double* r = row + kLanes * (1 + 4 * k);
                newton[k] = load(r);
                decay[k] = load(r + kLanes);
                w_old[k] = load(r + 2 * kLanes);
                w_new[k] = load(r + 3 * kLanes);
            }
            // y, y- and the convolutions of component c: lanes at state + 8 (c, 3 + c, 6 + 3 k + c).
            double* state = node_state_[b.state].v;
            for (int c = 0; c < 3; ++c) {
                double *y = state + kLanes * c, *y_prev = state + kLanes * (3 + c), *psi = state + kLanes * (6 + c);
                const V uc = gather(u[c], node, 0, b.contiguous), fc = gather(f[c], node, 0, b.contiguous);
                const V yc = load(y);
                const V y_next = (2.0 * yc - one_minus_h * load(y_prev) - a * fc) * inv_one_plus_h;
                V phi[6];
                for (int k = 0; k < b.poles; ++k) phi[k] = load(psi + 3 * kLanes * k);
                const V u_plus = pml_node_update(y_next, uc, c0, newton, decay, w_old, w_new, b.poles, phi, 1);
                for (int k = 0; k < b.poles; ++k) store(psi + 3 * kLanes * k, phi[k]);
                store(y_prev, yc);
                store(y, y_next);
                if (b.contiguous) {
                    typedef Real R8 __attribute__((vector_size(kLanes * sizeof(Real))));
                    const R8 x = __builtin_convertvector(u_plus, R8);
                    std::memcpy(u_next[c] + node[0], &x, sizeof x);
                } else {
                    for (std::uint32_t l = 0; l < b.count; ++l) u_next[c][node[l]] = static_cast<Real>(u_plus[l]);
                }
            }
        }
    }
}

template class PmlCorrectionCpu<double>;
template class PmlCorrectionCpu<float>;

}  // namespace voxwave
