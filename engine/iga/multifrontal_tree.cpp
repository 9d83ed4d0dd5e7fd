#include "iga/multifrontal_tree.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/errors.hpp"

namespace voxwave::iga {

namespace {
std::size_t sz(std::int64_t v) { return static_cast<std::size_t>(v); }

// Whether the support of function i (elements max(i-p,0) .. min(i,N-1)) lies in [lo, lo+len).
bool support_inside(int i, int p, int N, int lo, int len) {
    return std::max(i - p, 0) >= lo && std::min(i, N - 1) < lo + len;
}
}  // namespace

double front_flops(double m, double k) { return k * k * k / 3.0 + k * k * (m - k + 1) + k * (m - k) * (m - k + 1); }

void check_multifrontal_elements(int elements) {
    if (elements < 2 || elements > 8192 || (elements & (elements - 1)) != 0)
        throw InputError(
            "", "--elements",
            "the multi-frontal solver merges 2x2 patches, so N must be a power of two from 2 to 8192, got " +
                std::to_string(elements));
}

double estimated_front_bytes(int degree, int elements) {
    const double N = elements, p = degree, levels = std::log2(N) + 1;
    return 0.7 * 288.0 * N * N * p * p * levels;
}

void check_multifrontal_fits_in_memory(int degree, int elements) {
    const double need = 0.5 * estimated_front_bytes(degree, elements);
    const double have = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
    if (have > 0 && need > 0.8 * have) {
        char msg[200];
        std::snprintf(msg, sizeof msg, "N = %d with p = %d needs about %.0f GiB of memory, this machine has %.0f GiB",
                      elements, degree, need / double(1 << 30), have / double(1 << 30));
        throw InputError("", "--elements", msg);
    }
}

FrontTree build_front_tree(const IgaSpace& s) {
    check_multifrontal_elements(s.N);
    FrontTree t;
    t.p = s.p;
    t.N = s.N;
    t.n = s.n;
    const int p = s.p, p1 = p + 1, N = s.N;

    // Leaves.
    {
        FrontLevel leaf;
        leaf.nodes_per_side = N;
        leaf.patch = 1;
        leaf.dof_begin.push_back(0);
        std::vector<int> el, rest, el_local, rest_local;
        for (int ey = 0; ey < N; ++ey)
            for (int ex = 0; ex < N; ++ex) {
                el.clear(), rest.clear(), el_local.clear(), rest_local.clear();
                for (int a = 0; a < p1 * p1; ++a) {
                    const int i = ex + a % p1, j = ey + a / p1, g = s.dof(i, j);
                    if (s.is_dirichlet(g)) continue;
                    const bool inside = support_inside(i, p, N, ex, 1) && support_inside(j, p, N, ey, 1);
                    (inside ? el : rest).push_back(g);
                    (inside ? el_local : rest_local).push_back(a);
                }
                leaf.size.push_back(static_cast<int>(el.size() + rest.size()));
                leaf.elim.push_back(static_cast<int>(el.size()));
                leaf.dofs.insert(leaf.dofs.end(), el.begin(), el.end());
                leaf.dofs.insert(leaf.dofs.end(), rest.begin(), rest.end());
                leaf.local.insert(leaf.local.end(), el_local.begin(), el_local.end());
                leaf.local.insert(leaf.local.end(), rest_local.begin(), rest_local.end());
                leaf.dof_begin.push_back(static_cast<std::int64_t>(leaf.dofs.size()));
            }
        t.levels.push_back(std::move(leaf));
    }

    // Merges of 2 x 2 patches up to the root. pos/stamp: a dof's position in the current parent.
    std::vector<int> stamp(sz(s.dof_count()), -1), pos(sz(s.dof_count()), 0);
    int stamp_id = 0;
    while (t.levels.back().nodes_per_side > 1) {
        const FrontLevel& below = t.levels.back();
        FrontLevel up;
        up.nodes_per_side = below.nodes_per_side / 2;
        up.patch = below.patch * 2;
        up.dof_begin.push_back(0);
        up.map_begin.push_back(0);
        const bool root = up.nodes_per_side == 1;
        std::vector<int> uni, el, rest;
        for (int y = 0; y < up.nodes_per_side; ++y)
            for (int x = 0; x < up.nodes_per_side; ++x) {
                ++stamp_id;
                uni.clear(), el.clear(), rest.clear();
                int kids[4];
                for (int c = 0; c < 4; ++c) {
                    kids[c] = (2 * x + c % 2) + below.nodes_per_side * (2 * y + c / 2);
                    const int kid = kids[c];
                    for (std::int64_t q = below.dof_begin[sz(kid)] + below.elim[sz(kid)];
                         q < below.dof_begin[sz(kid) + 1]; ++q) {
                        const int g = below.dofs[sz(q)];
                        if (stamp[sz(g)] != stamp_id) stamp[sz(g)] = stamp_id, uni.push_back(g);
                    }
                }
                const int x0 = x * up.patch, y0 = y * up.patch;
                for (int g : uni) {
                    const bool inside = root || (support_inside(g % s.n, p, N, x0, up.patch) &&
                                                 support_inside(g / s.n, p, N, y0, up.patch));
                    (inside ? el : rest).push_back(g);
                }
                int q = 0;
                for (int g : el) pos[sz(g)] = q++;
                for (int g : rest) pos[sz(g)] = q++;
                up.size.push_back(q);
                up.elim.push_back(static_cast<int>(el.size()));
                up.dofs.insert(up.dofs.end(), el.begin(), el.end());
                up.dofs.insert(up.dofs.end(), rest.begin(), rest.end());
                up.dof_begin.push_back(static_cast<std::int64_t>(up.dofs.size()));
                for (int c = 0; c < 4; ++c) {
                    const int kid = kids[c];
                    up.children.push_back(kid);
                    for (std::int64_t r = below.dof_begin[sz(kid)] + below.elim[sz(kid)];
                         r < below.dof_begin[sz(kid) + 1]; ++r)
                        up.map.push_back(pos[sz(below.dofs[sz(r)])]);
                    up.map_begin.push_back(static_cast<std::int64_t>(up.map.size()));
                }
            }
        t.levels.push_back(std::move(up));
    }
    for (const FrontLevel& l : t.levels)
        for (int i = 0; i < l.count(); ++i) {
            t.max_front = std::max(t.max_front, l.size[sz(i)]);
            t.factor_flops += front_flops(l.size[sz(i)], l.elim[sz(i)]);
        }
    return t;
}

}  // namespace voxwave::iga
