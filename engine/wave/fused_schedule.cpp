#include "wave/fused_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"

namespace voxwave {

std::vector<std::uint8_t> fused_live_mtiles(const FusedTiling& t, const std::vector<std::uint8_t>& ids) {
    const std::size_t nx = std::size_t(t.nx), ny = std::size_t(t.ny);
    if (ids.size() != nx * ny * std::size_t(t.nz))
        throw RuntimeError("fused_live_mtiles: " + std::to_string(ids.size()) + " material ids for " +
                           std::to_string(nx * ny * std::size_t(t.nz)) + " elements");
    if (t.tile_y < 3 || t.tile_y - 1 > 127) throw RuntimeError("fused_live_mtiles: tile_y must be 3..128");
    const int tiles_x = t.tiles_x(), tiles_y = t.tiles_y();
    std::vector<std::uint8_t> live(std::size_t(t.columns()) * std::size_t(t.nz), 0);
#pragma omp parallel for schedule(static)
    for (int k = 0; k < t.nz; ++k)
        for (int cy = 0; cy < tiles_y; ++cy)
            for (int cx = 0; cx < tiles_x; ++cx) {
                int count = 0;
                // Thread (tx, ty) of the tile computes element (cx 30 - 1 + tx, cy (tile_y - 2) - 1 + ty)
                // when tx < 31, ty < tile_y - 1 and the element is inside the model (fused_step.cuh).
                for (int ty = 0; ty < t.tile_y - 1; ++ty) {
                    const int ej = cy * (t.tile_y - 2) - 1 + ty;
                    if (ej < 0 || ej >= t.ny) continue;
                    const std::uint8_t* row = ids.data() + (std::size_t(k) * ny + std::size_t(ej)) * nx;
                    for (int mt = 0; mt < 2; ++mt) {
                        const int lo = std::max(cx * 30 - 1 + 16 * mt, 0);
                        const int hi = std::min({cx * 30 - 1 + 16 * mt + 15, cx * 30 - 1 + 30, t.nx - 1});
                        bool any = false;
                        for (int ei = lo; ei <= hi && !any; ++ei) any = row[ei] != 0;
                        count += any;
                    }
                }
                live[(std::size_t(cy) * std::size_t(tiles_x) + std::size_t(cx)) * std::size_t(t.nz) + std::size_t(k)] =
                    static_cast<std::uint8_t>(count);
            }
    return live;
}

FusedCostModel fused_cost_model_from_env(FusedCostModel fallback) {
    const char* v = std::getenv("VOXWAVE_FUSED_COST");
    if (!v || !*v) return fallback;
    FusedCostModel m;
    char* end = nullptr;
    m.base = std::strtod(v, &end);
    const bool colon = end && *end == ':';
    if (colon) m.per_mtile = std::strtod(end + 1, &end);
    if (!colon || *end != '\0' || !std::isfinite(m.base) || !std::isfinite(m.per_mtile) || m.base < 0 ||
        m.per_mtile < 0 || m.base + m.per_mtile <= 0)
        throw InputError("", "VOXWAVE_FUSED_COST",
                         std::string("'") + v + "' is not BASE:PER_MTILE (two numbers >= 0, not both 0)");
    return m;
}

std::vector<int> fused_cost_balanced_starts(const FusedTiling& t, const std::vector<std::uint8_t>& live_mtiles,
                                            const FusedCostModel& cost, int blocks) {
    const std::size_t n = std::size_t(t.columns()) * std::size_t(t.nz);
    if (live_mtiles.size() != n) throw RuntimeError("fused_cost_balanced_starts: wrong number of column-planes");
    if (blocks < 1) throw RuntimeError("fused_cost_balanced_starts: needs at least one block");
    if (n >= (std::size_t(1) << 31)) throw RuntimeError("fused_cost_balanced_starts: more than 2^31 column-planes");
    // prefix[s] = cost of column-planes [0, s).
    std::vector<double> prefix(n + 1, 0.0);
    for (std::size_t s = 0; s < n; ++s) prefix[s + 1] = prefix[s] + cost.base + cost.per_mtile * live_mtiles[s];
    std::vector<int> starts(std::size_t(blocks) + 1, 0);
    for (int b = 1; b < blocks; ++b) {
        // The first offset whose prefix reaches b / blocks of the total: block b - 1 then costs
        // its share to within the one column-plane that straddles the boundary.
        const double target = prefix[n] * double(b) / double(blocks);
        starts[std::size_t(b)] = int(std::lower_bound(prefix.begin(), prefix.end(), target) - prefix.begin());
    }
    starts[std::size_t(blocks)] = int(n);
    return starts;
}

}  // namespace voxwave
