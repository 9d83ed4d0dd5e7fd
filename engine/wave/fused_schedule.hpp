// Cost-balanced work for the fused CUDA step's persistent blocks (host only, no CUDA: the CPU
// tests check it). Why: on the paper model at 2 mm the default schedule (wave-filling chunks,
// fused_step.cuh) gives every block the same planes of one tile column, but tile columns differ
// in work. The TCOVFEM forces of a column-plane are done per m-tile of 16 elements, and an
// m-tile with no element skips its conversion and products; on that model the last x tile's
// second m-tile lies past the edge in every row and the last y tile has two empty rows. With
// one wave of blocks the step lasts as long as the busiest SM, so equal planes per block leave
// the cheap columns' SMs idle at the end. Here each block gets a range of the kernel's
// column-plane sequence with the same estimated cost.
#pragma once

#include <cstdint>
#include <vector>

namespace voxwave {

// The kernel's tiling: 32 x tile_y threads own 30 x (tile_y - 2) nodes; the threads of the last
// column and row, and those past the model's edge, compute no element.
struct FusedTiling {
    int nx = 0, ny = 0, nz = 0;  // elements
    int tile_y = 8;
    int tiles_x() const { return (nx + 1 + 32 - 3) / (32 - 2); }
    int tiles_y() const { return (ny + 1 + tile_y - 3) / (tile_y - 2); }
    long long columns() const { return static_cast<long long>(tiles_x()) * tiles_y(); }
};

// Estimated cost of one column-plane: base + per_mtile * (m-tiles of 16 elements that hold at
// least one element with a nonzero material id).
struct FusedCostModel {
    double base = 0, per_mtile = 1;
};

// The benchmark knob VOXWAVE_FUSED_COST = "BASE:PER_MTILE" (two numbers >= 0, not both 0), or
// `fallback` when unset. A bad value throws InputError naming the knob.
FusedCostModel fused_cost_model_from_env(FusedCostModel fallback);

// Non-empty m-tiles of every column-plane, in the kernel's order s = column nz + k with
// column = tile x + tiles_x tile y. ids: the grid's material ids (x fastest, then y, then z;
// 0 = void). Throws InputError when ids has the wrong size.
std::vector<std::uint8_t> fused_live_mtiles(const FusedTiling& t, const std::vector<std::uint8_t>& ids);

// blocks + 1 offsets into that sequence, 0 first and columns nz last, nondecreasing: block b
// sweeps [starts[b], starts[b + 1]). Each block's estimated cost is within one column-plane's
// cost of total / blocks.
std::vector<int> fused_cost_balanced_starts(const FusedTiling& t, const std::vector<std::uint8_t>& live_mtiles,
                                            const FusedCostModel& cost, int blocks);

}  // namespace voxwave
