// The kernels of the element-parallel ("scatter") CUDA SEM step (sem_stepper_cuda.hpp states the
// design, sem_step_schedule.hpp when it runs instead of the column sweep), in a header of their
// own so that test_sem_scatter_emulated.cpp can run these very kernel bodies on the CPU (a thread a
// CUDA thread, a barrier for __syncthreads, a lock for atomicAdd) against the CPU stepper.
//
// One or two launches a step instead of the sweep's eight colours: one block takes 4 to 12 solid
// elements of the whole model at once, (p + 1)^2 threads an element, and adds the element forces
// K_e w_e into a force buffer f (atomics at the element's face, edge and corner nodes, a plain
// store at its inner nodes, which no other element touches); the central-difference update from
// the complete force then runs in the next step's element launch (SemScatterFused) or in a node
// kernel that also clears f. Why: the sweep's colour launches each run a z sweep of cells whose
// element planes follow one another, so its step costs about 8 x (planes + 1/4) element-plane
// latencies however few cells a colour has; a small model cannot fill the device with them, and
// this step's work is spread over every element at once (on an H100 it also beats the sweep's
// latency-bound step on large models at p = 2 and 4: sem_step_schedule.hpp). The element arithmetic is
// sem_element_kernel.hpp's sum-factorised form (Hooke's law its sem_weighted_stress), the update
// central_difference.hpp's, as the CPU stepper's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "core/grid_dependency.hpp"
#include "core/host_device.hpp"
#include "model/voxel_grid.hpp"
#include "wave/central_difference.hpp"
#include "wave/sem_cell_sweep_kernel.cuh"
#include "wave/sem_element_kernel.hpp"
#include "wave/sem_points_kernel.cuh"

namespace voxwave::sem_cuda {

// The element kernel's blocks (ScatterBlockShape): warps each holding whole elements of (P + 1)^2
// threads (one a GLL line along each axis): 3, 2 and 1 elements a warp (27, 32 and 25 of its
// lanes). The phases of an element then meet at warp barriers (__syncwarp), and only the block's
// two walks over its rows (the coalesced load and store) need the block's barrier. Measured on an
// H100 against elements packed across warps (block barriers between all phases): within 1-4 %
// either way (p = 4 FP64 24.6 against 25.0 us at 15^3 elements, 186 against 190 at 30^3; p = 2
// FP64 11.1 against 10.2 at 15^3), so the block's barriers were not what bounds the step.
//
// Four warps a block (12, 8 and 4 elements), and as many blocks an SM as `blocks_per_sm` (the
// kernel's __launch_bounds__, which caps the registers at 65,536 / (blocks x threads): 73 at 7
// blocks of 128 threads; ptxas (CUDA 13, sm_90) takes 70-72 without spilling at every order and
// precision) and the shared memory (30 KB a block at p = 3 in FP64, 12 KB at p = 4 in FP32, of an
// SM's 228 KB) allow. Why 7: measured on an H100 at p = 4 FP64 when it too had four-warp blocks
// of 24 KB (it has its own shape now, below), at 15^3, 20^3, 30^3 and 60^3 elements: 8 blocks
// and 64 registers took 23.7, 61.7, 173.1 and 1318.5 us a step, 7 blocks 22.9, 58.4, 156.8
// and 1161.5, 6 blocks (80 registers) 26.1, 57.1, 153.3 and 1184.1: the registers let ptxas keep
// more loads and products in flight, and 7 blocks still take the Stokes run at 16 mm (3,375
// elements, 844 blocks) in one wave of 132 SMs, where 6 need a second. Four warps, not two: two
// (14 blocks an SM) measured 8-17 % slower on an H200 at p = 4 (22.8 against 21.0 us at 15^3,
// 148.9 against 136.5 at 30^3 in FP64): fewer x neighbours a block sum their common faces in
// shared memory, so more of the force goes to f by atomics.
template <int P, class Real>
struct ScatterBlockShape {
    static constexpr int warps = 4, blocks_per_sm = 7;
};
// p = 4 in FP64: eight warps (eight elements, a row of 33 nodes) and four blocks an SM (64
// registers, 48 KB of shared memory a block, the most a block's static shared memory may take).
// The walks' rows are twice as long, so a warp's load or store touches fewer lines of memory, one
// x face in eight instead of four goes to f by atomics, and an SM holds 32 warps instead of 28.
// Measured on an H200 against four warps and seven blocks (bench-sem --steps 100 --schedule scatter,
// us a step): 18.1 / 19.7 at 15^3 elements, 117.3 / 126.5 at 30^3, 860.8 / 920.9 at 60^3; the Stokes
// run at 16 mm 2.72 / 2.94 ms, at 8 mm 34.8 / 37.5 ms. Eight warps and three blocks (80 registers)
// took 20.3, 120.7 and 933.3 us, and 3.09 ms at 16 mm, where 3,375 elements need two waves of
// blocks; six warps and five blocks (64 registers) 18.8, 120.0 and 913.1 us. In FP32 (56 registers
// either way) eight warps measured 5 % slower at 60^3 (619.7 against 590.6 us), so FP32 keeps four.
// Sixteen warps and two blocks (97 KB of dynamic shared memory a block) measured 5 % shorter on the
// one-wave 15^3 model (17.2 against 18.0 us) but 5-10 % longer on the others (123.3 against 117.8 us
// at 30^3, 929.3 against 843.0 at 60^3).
template <>
struct ScatterBlockShape<4, double> {
    static constexpr int warps = 8, blocks_per_sm = 4;
};
template <int P>
constexpr int kScatterElementsPerWarp = 32 / ((P + 1) * (P + 1));
template <int P, class Real>
constexpr int kScatterElementsPerBlock = kScatterElementsPerWarp<P>* ScatterBlockShape<P, Real>::warps;
template <int P, class Real>
constexpr int kScatterElementThreads = 32 * ScatterBlockShape<P, Real>::warps;
constexpr int kScatterNodeThreads = 256;

// How a launch's element blocks split the solid elements of the list: block b takes base + 1 of them
// if b < longer, else base, from scatter_block_first(b) on (blocks = count / E rounded up: base = E
// and longer = 0 where E divides count). Split on the host so that the kernel's prologue does no
// division (with b count / blocks in 64 bits there, the kernel measured 1-4 % slower at 30^3 and
// 60^3 elements on an H200, where that was its only change).
struct ScatterBlockSplit {
    unsigned base = 0, longer = 0;
};
inline ScatterBlockSplit scatter_block_split(unsigned count, unsigned blocks) {
    return blocks == 0 ? ScatterBlockSplit{} : ScatterBlockSplit{count / blocks, count % blocks};
}
VOXWAVE_HD_INLINE unsigned scatter_block_first(unsigned b, ScatterBlockSplit split) {
    return b * split.base + (b < split.longer ? b : split.longer);
}

// The element blocks of the element kernel's grid for `count` solid elements on `sms` SMs that hold
// `per_sm` blocks each, beside `extra` blocks of other work (the receivers' block): full blocks
// (count / kScatterElementsPerBlock, rounded up) where they take more than one wave; where they
// take one (k sms blocks or fewer with the extra ones, k <= per_sm, k least), k sms - extra, the
// elements spread over them (scatter_block_split), so that each SM holds k blocks of about the same
// work instead of some k full blocks and others k - 1. Why: one wave lasts as long as its busiest
// SM takes; the Stokes run at 16 mm (3,375 elements of p = 4 in blocks of 4, 844 full blocks, 924
// places on 132 SMs of 7) leaves about 52 SMs 28 elements and 80 SMs 24, where spread each holds 26 or fewer
// (measured on an H200, bench-sem p = 4 FP64 at 15^3: 19.8 -> 19.4 us a step).
template <int P, class Real>
inline unsigned scatter_element_blocks(unsigned count, int per_sm, int sms, int extra = 0) {
    constexpr long long E = kScatterElementsPerBlock<P, Real>;
    const long long full = (count + E - 1) / E, n = std::max(sms, 1);
    if (full + extra > (long long)std::max(per_sm, 1) * n) return unsigned(full);
    return unsigned(std::min<long long>(n * ((full + extra + n - 1) / n) - extra, count));
}

// The fused form of the element kernel (Fused): the previous step's node update done where the
// elements load their points instead of in sem_scatter_update. The kernel of step n then takes
// u^{n-1} and u^{n-2} (its u and u_prev) and the complete force K u^{n-1} (f_prev), forms u^n at
// each of its points as the update would (central_difference_node; the sources of step n - 1 are
// in f_prev already, put there by the launch of step n - 1), and writes u^n and a zero into
// f_clear at the nodes the element owns
// (each node touched by a solid element is owned by one: the first in the list, sem_scatter_owned
// builds the masks); the force K u^n goes into the kernel's f as before. Three force buffers
// rotate (read, add into, clear), so no launch reads one that another clears or adds into. (The
// zeros at nodes the next launch overwrites, those inside an element or a summed face, are not
// wasted: without them each row of owned nodes leaves partial 32-byte sectors, and the step
// measured 3.5 % longer at 30^3 and 60^3 elements, p = 4 FP64, H200.) Why:
// the update is a pass over every node that reads and writes about 130 bytes a node in FP64, a
// third of the scatter's step on the small models it runs (10 of 30 us at 15^3 elements, p = 4,
// H100), while the elements read their nodes anyway. The nodes inside an element still go through
// f, though their force is complete in the block: writing u+ there at the store walk instead (the
// next launch loading it as is) makes that walk wait on the loads of u^n and u^{n-1} at every step,
// and a proxy of it measured 1.7 times the step at 60^3 elements (p = 4 FP64, H200: 1473.6 against
// 854.4 us). Keeping 2 u - (1 - h) u- of those nodes in shared memory from the load walk instead
// (7 KB more a block of eight elements, four blocks an SM still), u+ written at the store walk for
// every node inside a block's rows (the common faces of its x neighbours too, about half the
// nodes), the next launch loading u^n and u^{n-1} there and no force, every launch of a chain
// updating them ahead and the settling update skipping them: CUDA equal to the CPU stepper, and
// fewer bytes (144 against 170 from DRAM a node-step at 60^3), but longer steps (H200, p = 4 FP64,
// us: 20.0 / 18.1 at 15^3 elements, 147.5 / 117.9 at 30^3, 1048.6 / 850.5 at 60^3; with the two
// kinds of node in branches of their own 1133.0 at 60^3; with their dt^2/m formed in the kernel from
// the elements' masses and every load of the walk unconditional 1077.3). Nsight Compute at 60^3: L2
// at 66 % of its throughput (88.5 % here), DRAM at 40 %, the same occupancy: the step no longer
// waits on the L2 but on latency.
// What each of this step's other parts costs, timed by leaving it out (results then wrong; H200,
// p = 4 FP64 at 60^3 elements, 858.2 us whole): the dt^2/m loads 1 % (850.1), the zeros into
// f_clear 6 % (807.5), the atomics against plain stores 3.5 % (828.0), dt^2/m and the zeros together
// 10 % (774.0, still 2.9 times the memory floor). So even without them the step would not come
// within 2.5 times the floor (662 us on that card); the rest is the loads of u, u- and f_prev at every
// element's points (about twice a node), the force's atomics and stores, and the arithmetic. Nsight
// Compute there names the two units that bound it, each within 12-16 % of its peak: the fabric between
// the L2's two partitions (88.8 %; the L2's tags 56.8 %, its sectors 39.5 %) and the L1's data pipe
// (84.5 %, three quarters of its wavefronts shared memory, 619 an element). So a shorter step needs
// fewer accesses of both; skipping one z face of loads an element (a block that rolls along z) measured
// at most 3.6 % shorter (H200, 60^3: 821.4 against 852.2 us, a proxy).
template <class Real>
struct SemScatterFused {
    const Real* f_prev = nullptr;               // K u^{n-1}, complete
    Real* f_clear = nullptr;                    // zero at the owned nodes after the launch
    Real* u_out = nullptr;                      // u^n at the owned nodes
    const unsigned long long* owned = nullptr;  // two words a solid element (list order): its owned points
    UpdateFactors<Real> upd{};
};

// The owned-point masks of SemScatterFused for the solid elements `elements` (x-fastest indices,
// in the kernel's order) of a grid of ex x ey x ez elements of order P: bit m + (P + 1) (y + (P + 1) z)
// of the element's two words is set where the element is the first of the list at that node.
inline std::vector<unsigned long long> sem_scatter_owned(const std::vector<unsigned>& elements, int P, int ex, int ey,
                                                         int ez) {
    const std::size_t nx = std::size_t(P) * ex + 1, ny = std::size_t(P) * ey + 1, nz = std::size_t(P) * ez + 1;
    std::vector<unsigned char> claimed(nx * ny * nz, 0);
    std::vector<unsigned long long> owned(2 * elements.size(), 0);
    const int N = P + 1;
    for (std::size_t q = 0; q < elements.size(); ++q) {
        const std::size_t el = elements[q], i = el % std::size_t(ex), j = (el / std::size_t(ex)) % std::size_t(ey),
                          k = el / (std::size_t(ex) * std::size_t(ey));
        for (int z = 0; z < N; ++z)
            for (int y = 0; y < N; ++y)
                for (int m = 0; m < N; ++m) {
                    const std::size_t node = P * i + m + nx * (P * j + y + ny * (P * k + z));
                    if (claimed[node]) continue;
                    claimed[node] = 1;
                    const int pt = m + N * (y + N * z);
                    owned[2 * q + std::size_t(pt >> 6)] |= 1ull << (pt & 63);
                }
    }
    return owned;
}

// Where the element kernel puts each source at `nodes` into its force (SemSourceBatch's element
// and point): the first element of the list `elements` (x-fastest indices in ascending order, as
// the engine builds it) at the node and the node's point in it, x-fastest; SemSourceBatch::kNoElement
// where no element of the list has the node (it has no mass, and a source there moves nothing). One
// element a source, so that the force holds it once however many elements share the node. The up to
// eight elements around a node are looked up in the list (binary search), not the list scanned: a
// probe's sources can be many, and a model millions of elements.
struct ScatterSourcePlace {
    unsigned element = SemSourceBatch::kNoElement;
    unsigned short point = 0;
};
inline std::vector<ScatterSourcePlace> sem_scatter_source_places(const std::vector<unsigned>& elements, int P, int ex,
                                                                 int ey, const std::vector<unsigned long long>& nodes) {
    const unsigned long long p = unsigned(P), nx = p * unsigned(ex) + 1, ny = p * unsigned(ey) + 1;
    std::vector<ScatterSourcePlace> places(nodes.size());
    for (std::size_t s = 0; s < nodes.size(); ++s) {
        const unsigned long long node[3] = {nodes[s] % nx, (nodes[s] / nx) % ny, nodes[s] / (nx * ny)};
        // Along each axis the element whose first node this is, and the one before where it is its last.
        unsigned long long lo[3], hi[3];
        for (int d = 0; d < 3; ++d) {
            hi[d] = node[d] / p;
            lo[d] = node[d] % p == 0 && hi[d] > 0 ? hi[d] - 1 : hi[d];
        }
        hi[0] = std::min<unsigned long long>(hi[0], unsigned(ex) - 1ull);
        hi[1] = std::min<unsigned long long>(hi[1], unsigned(ey) - 1ull);
        for (unsigned long long k = lo[2]; k <= hi[2] && places[s].element == SemSourceBatch::kNoElement; ++k)
            for (unsigned long long j = lo[1]; j <= hi[1] && places[s].element == SemSourceBatch::kNoElement; ++j)
                for (unsigned long long i = lo[0]; i <= hi[0]; ++i) {
                    const unsigned long long el = i + unsigned(ex) * (j + unsigned(ey) * k);
                    const auto at = std::lower_bound(elements.begin(), elements.end(), el);
                    if (at == elements.end() || *at != el) continue;
                    const int N = P + 1;
                    places[s] = {
                        unsigned(at - elements.begin()),
                        (unsigned short)(int(node[0] - i * p) + N * (int(node[1] - j * p) + N * int(node[2] - k * p)))};
                    break;
                }
    }
    return places;
}

// `points` of an element launch split as `split`, its sources' elements turned from list indices
// into block slots (SemSourceBatch), which the kernel compares with its own: block b holds the
// list's elements scatter_block_first(b) on. Why slots: a lane then tests the sources with the
// block and thread indices alone and keeps no list index through the element's arithmetic.
// Measured against the list index on an H200 (p = 4 FP64, slots / list index): the Stokes run at
// 8 mm 37.41 / 37.73 ms, at 16 mm 2.954 / 2.944 ms, bench-sem 19.6 / 19.5 us at 15^3 elements,
// 126.0 / 126.8 at 30^3, 934.1 / 937.8 at 60^3.
template <int P, class Real>
inline SemPointWork sem_scatter_launch_sources(SemPointWork points, ScatterBlockSplit split) {
    constexpr unsigned E = kScatterElementsPerBlock<P, Real>;
    SemSourceBatch& s = points.sources;
    const unsigned long long wide = (unsigned long long)split.longer * (split.base + 1);
    for (int i = 0; i < s.count; ++i) {
        const unsigned long long q = s.element[i];
        if (q == SemSourceBatch::kNoElement) continue;
        const unsigned long long b =
            q < wide ? q / (split.base + 1) : split.longer + (split.base ? (q - wide) / split.base : 0ull);
        const unsigned long long slot = b * E + (q - scatter_block_first(unsigned(b), split));
        s.element[i] = slot < SemSourceBatch::kNoElement ? unsigned(slot) : SemSourceBatch::kNoElement;
    }
    return points;
}

// An element's word in the element kernel's tables, 64 bits: the node of its GLL point (0, 0, 0) in
// the low 53 bits, its material id in the next 8, then whether its x neighbour after it is the
// element after it (next merged), whether its x neighbour before it is the element before it
// (merged), and solid (live). Two tables hold such words: the engine's, one a solid element in list
// order (sem_scatter_element_words: live set, the flags about the list), and the block's in shared
// memory, which the kernel makes from it (the flags kept only where both elements are the block's,
// live only for the block's own). Why one word: the walks read the block's table at every point,
// and its separate origins and flags (8-byte and 1-byte words, several a half-warp) were one of the
// two sources of the bank conflicts Nsight Compute counted, with the walks' runs across rows (10-11 %
// of the kernel's shared wavefronts, H200, p = 4 FP64 at 30^3 elements). Measured on an H200
// (bench-sem, p = 4, FP64, us a step, separate tables / one word, two runs): 19.7 / 19.3 and 19.6 /
// 19.3 at 15^3 elements, 131.7 / 128.5 and 132.1 / 128.6 at 30^3, 952.0 / 952.8 and 958.4 / 953.1 at
// 60^3. Why the engine's table of words, not the element list and the ids: the kernel's prologue
// then loads a block element's word and owned-point masks in one round trip, where the list's index,
// its neighbours' indices, the mask and the id behind the index took three one after the other
// (Nsight Compute, H200, p = 4 FP64 at 60^3: 17 % of the launch's warp stall samples in that
// prologue, most of them waiting on those loads). Measured on an H200 (bench-sem, p = 4, us a step,
// list and ids / words): FP64 17.8 / 18.1 at 15^3 elements, 117.0 / 115.4 at 30^3, 838.6 / 834.1 at
// 60^3, FP32 587.6 / 571.4 at 60^3; the Stokes run at 8 mm 34.59-34.63 / 34.15-34.27 ms: the
// prologue's waits were mostly hidden behind the SM's other blocks.
struct ScatterElementWord {
    static constexpr int kIdShift = 53;
    static constexpr unsigned long long kNextMerged = 1ull << 61, kMerged = 1ull << 62, kLive = 1ull << 63,
                                        kOrigin = (1ull << kIdShift) - 1;
    static VOXWAVE_HD_INLINE unsigned long long make(unsigned long long origin, unsigned char id, bool live,
                                                     bool merged, bool next_merged) {
        return origin | ((unsigned long long)id << kIdShift) | (live ? kLive : 0ull) | (merged ? kMerged : 0ull) |
               (next_merged ? kNextMerged : 0ull);
    }
    static VOXWAVE_HD_INLINE std::size_t origin(unsigned long long w) { return std::size_t(w & kOrigin); }
    static VOXWAVE_HD_INLINE unsigned char id(unsigned long long w) { return (unsigned char)(w >> kIdShift); }
    static VOXWAVE_HD_INLINE bool live(unsigned long long w) { return (w & kLive) != 0; }
    static VOXWAVE_HD_INLINE bool merged(unsigned long long w) { return (w & kMerged) != 0; }
    static VOXWAVE_HD_INLINE bool next_merged(unsigned long long w) { return (w & kNextMerged) != 0; }
    // The block's word of slot `e` from the list's word `listed` of its element: merged only where
    // the element before is the block's too (e > 0), next merged only where the one after is
    // (`next_in_block`).
    static VOXWAVE_HD_INLINE unsigned long long in_block(unsigned long long listed, int e, bool next_in_block) {
        return listed & ~((e > 0 ? 0ull : kMerged) | (next_in_block ? 0ull : kNextMerged));
    }
};

// The engine's table of ScatterElementWord, one a solid element of `elements` (x-fastest indices in
// ascending order) of a grid of ex x ey elements of order P whose material ids are `ids` (element
// order): live, the origin and id of the element, merged where the element before it in the list is
// its x neighbour before it, next merged where the one after it is its x neighbour after it.
inline std::vector<unsigned long long> sem_scatter_element_words(const std::vector<unsigned>& elements, int P, int ex,
                                                                 int ey, const std::vector<unsigned char>& ids) {
    const unsigned long long nx = (unsigned long long)P * unsigned(ex) + 1,
                             ny = (unsigned long long)P * unsigned(ey) + 1;
    std::vector<unsigned long long> words(elements.size());
    for (std::size_t q = 0; q < elements.size(); ++q) {
        const unsigned el = elements[q], i = el % unsigned(ex), j = (el / unsigned(ex)) % unsigned(ey),
                       k = el / (unsigned(ex) * unsigned(ey));
        const unsigned long long origin = (unsigned long long)P * i + nx * ((unsigned long long)P * j + ny * P * k);
        if (origin > ScatterElementWord::kOrigin)
            throw std::length_error("sem_scatter_element_words: a node index beyond 2^53");
        const bool merged = q > 0 && i > 0 && elements[q - 1] == el - 1;
        const bool next_merged = q + 1 < elements.size() && i + 1 < unsigned(ex) && elements[q + 1] == el + 1;
        words[q] = ScatterElementWord::make(origin, ids[el], true, merged, next_merged);
    }
    return words;
}

// The scatter's node update of component c at `node` (sem_scatter_update): u+ by
// central_difference_node from u, u_prev and the complete force, then the sources at the node.
// The fused chain has its sources in the force instead (sem_element_scatter), because their lookup
// at every point of the fused load was 9 % of the p = 4 launch's instructions on the Stokes runs
// (one source; ncu, H200).
template <class Real>
VOXWAVE_HD_INLINE Real sem_updated_node(const SemPointWork& points, std::size_t node, int c, Real am, Real mh, Real ih,
                                        Real u, Real u_prev, Real force) {
    const Real next = central_difference_node(u, u_prev, am * force, mh, ih);
    return points.sources.count == 0 ? next : sem_add_node_sources(points.sources, node, c, am * ih, next);
}

// The factors of sem_scatter_update at `node`: dt^2/m, 1 - h, 1 / (1 + h).
template <class Real>
VOXWAVE_HD_INLINE void sem_update_factors(const UpdateFactors<Real>& upd, std::size_t node, Real& am, Real& mh,
                                          Real& ih) {
    am = upd.dt2_inv_mass[node];
    const bool sponge = upd.inv_one_plus_h != nullptr;
    ih = sponge ? upd.inv_one_plus_h[node] : upd.uniform_ih;
    mh = sponge ? upd.one_minus_h[node] : upd.uniform_mh;
}

// The receivers' samples of the element kernel (its grid's last block, which has no elements): u^n
// at each receiver, u itself or, in the fused form, u^n formed from u, u- and the force (the
// sources in it) as the walk forms it. A block of its own, so that no element block waits for these loads: on a model
// of one wave of blocks each block's length is the step's (block 0 sampled them before its elements: the Stokes loop at
// 16 mm, 149 steps, measured 3.042 ms that way and 2.987 ms this on an H200).
template <class Real, bool Fused>
VOXWAVE_HD_INLINE void sem_scatter_sample_receivers(const SemPointWork& points, const SemScatterFused<Real>& fused,
                                                    std::size_t nn, const Real* __restrict u,
                                                    const Real* __restrict u_prev) {
    // In the fused form a thread's first receiver node and its update factors are constants: read
    // before the wait.
    const int i0 = int(threadIdx.x);
    std::size_t node0 = 0;
    Real am0{}, mh0{}, ih0{};
    if constexpr (Fused) {
        if (i0 < points.receiver_count) {
            node0 = points.receivers[i0];
            sem_update_factors(fused.upd, node0, am0, mh0, ih0);
        }
    }
    release_next_and_await_previous_grid();
    for (int i = i0; i < points.receiver_count; i += int(blockDim.x)) {
        if constexpr (Fused) {
            const bool first = i == i0;
            const std::size_t node = first ? node0 : std::size_t(points.receivers[i]);
            Real am = am0, mh = mh0, ih = ih0;
            if (!first) sem_update_factors(fused.upd, node, am, mh, ih);
            for (int c = 0; c < 3; ++c) {
                const std::size_t x = std::size_t(c) * nn + node;
                points.samples[i * 3 + c] =
                    double(central_difference_node(u[x], u_prev[x], am * fused.f_prev[x], mh, ih));
            }
        } else {
            sem_sample_receiver(points, i, nn, u);
        }
    }
}

// Where the element kernel keeps an element's points in shared memory: point (x, y, z) of slot k of
// the block's element e at e element + k slot + x + row y + plane z, one word more from plane `kink`
// on. The strides are the ones of fewest shared-memory wavefronts over the kernel's accesses (a
// warp's lanes on their x, y or z lines, and the walks' runs of x neighbours), counted for 8-byte
// words in 16 bank pairs a half-warp (FP64) and 4-byte words in 32 banks a warp (FP32). Dense (row
// P + 1, plane (P + 1)^2, no padding) at p = 3 a warp's 16 lanes of one element's x or y lines fall
// on 4 bank pairs (4-way conflicts); (5, 20) spreads them (63 % fewer wavefronts counted, 24 % more
// memory, 7 blocks an SM still fit). At p = 4 the walks' elements, 750 = 14 (mod 16) words apart,
// put a half-warp's run of x neighbours on itself; 757 = 5 (mod 16) lays them side by side (6 %
// fewer). At p = 2, (3, 9) and elements of 171 words: 35 % fewer. Nsight Compute (H200, p = 4
// FP64, dense) counted 19 % of the kernel's shared wavefronts as excess, with the L1/shared pipe at
// 87 % of its peak at 30^3 elements. Measured against the dense layout on an H200 (bench-sem
// --steps 100 --schedule scatter, us a step, FP64, dense / this): p = 3 18.3 / 12.1 (15^3), 32.3 /
// 20.7 (20^3), 99.8 / 66.7 (30^3), 720.5 / 436.3 (60^3), FP32 a third shorter too; p = 2 9.9 / 8.6
// (15^3), 37.0 / 28.9 (30^3), 259.0 / 199.5 (60^3), FP32 within 1 %; p = 4 with row 5 and plane 25
// (the elements 757 words apart) 20.9 / 20.9, 48.5 / 48.2, 135.5 / 134.2, 998.6 / 982.3.
//
// p = 4 in FP64 (ScatterSharedLayout<4, double>): no row and plane stride put the 25 lines of every
// pass on at most two of a bank pair's words (5 and 25 leave the y lines 3 wavefronts for 2), but
// one word between planes 2 and 3 does (planes at 0, 25, 50, 76, 101): each of the three passes'
// 25 lines then fall on 16 bank pairs, each at most twice, and the lanes take their x and y lines in
// an order that gives each half-warp one line a bank pair (scatter_line_of_lane). Counted over the
// kernel's accesses, 568 wavefronts an element for 643 (12 % fewer), in the same 757 words an
// element. In FP32 a warp's 25 lanes are one wavefront only where all fall on distinct banks: the
// kink puts two x lines on one bank (392 wavefronts for 368), so FP32 keeps the plain strides.
// Measured on an H200 (bench-sem, FP64, us a step, plain strides / this, two runs): 20.7 / 19.9 and
// 20.8 / 19.8 at 15^3 elements, 134.4 / 132.4 and 134.1 / 132.3 at 30^3, 974.0 / 960.2 and 983.6 /
// 956.1 at 60^3: less than the wavefronts, as the step is not all shared-memory pipe.
template <int P>
struct ScatterSharedStrides;
template <>
struct ScatterSharedStrides<2> {
    static constexpr int row = 3, plane = 9, pad = 9;
};
template <>
struct ScatterSharedStrides<3> {
    static constexpr int row = 5, plane = 20, pad = 2;
};
template <>
struct ScatterSharedStrides<4> {
    static constexpr int row = 5, plane = 25, pad = 7;
};
// The plain strides: no kink (kink past the last plane), the lanes in the plain line order.
template <int P, class Real>
struct ScatterSharedLayout : ScatterSharedStrides<P> {
    static constexpr int kink = P + 1;
    static constexpr bool ordered_lines = false;
};
// p = 4 in FP64: the p = 4 strides with the kink after plane 2 (its word a slot, six an element,
// taken from the pad: the element stays 757 words).
template <>
struct ScatterSharedLayout<4, double> : ScatterSharedStrides<4> {
    static constexpr int kink = 3, pad = 1;
    static constexpr bool ordered_lines = true;
};
template <int P, class Real>
struct ScatterPoints : ScatterSharedLayout<P, Real> {
    using Base = ScatterSharedLayout<P, Real>;
    static VOXWAVE_HD_INLINE constexpr int point(int x, int y, int z) {
        return x + Base::row * y + Base::plane * z + (z >= Base::kink ? 1 : 0);
    }
    static constexpr int slot = point(P, P, P) + 1, element = 6 * slot + Base::pad;
};

// Which of an element's (P + 1)^2 lines along axis `Axis` (line s + (P + 1) t: the x line (m, s, t),
// the y line (s, m, t), the z line (s, t, m)) lane slot r of the element kernel takes. In the plain
// order line r. Where the layout asks for it (ordered_lines, one element a warp), the lines whose
// first word (bank pair: word mod 16) no line before them has take lanes 0 to 15, the others lanes
// 16 on, so that a half-warp's 16 lanes read 16 bank pairs where the pass's lines allow it.
template <int P, class Real>
constexpr int scatter_line_of_lane(int axis, int r) {
    constexpr int N = P + 1, NN = N * N;
    if (!ScatterSharedLayout<P, Real>::ordered_lines) return r;
    using L = ScatterPoints<P, Real>;
    const auto bank = [axis](int line) {
        const int s = line % N, t = line / N;
        return (axis == 0 ? L::point(0, s, t) : axis == 1 ? L::point(s, 0, t) : L::point(s, t, 0)) % 16;
    };
    int first = 0;
    for (int pass = 0; pass < 2; ++pass) {
        unsigned seen = 0;
        for (int line = 0; line < NN; ++line) {
            const unsigned b = 1u << bank(line);
            const bool is_first = (seen & b) == 0;
            seen |= b;
            if (is_first != (pass == 0)) continue;
            if (first == r) return line;
            ++first;
        }
    }
    return -1;
}

// scatter_line_of_lane's lines of lane slots 8 word to 8 word + 7, a byte each.
template <int P, class Real>
constexpr unsigned long long scatter_line_word(int axis, int word) {
    unsigned long long bytes = 0;
    for (int k = 0; k < 8; ++k) {
        const int r = 8 * word + k;
        if (r < (P + 1) * (P + 1)) bytes |= (unsigned long long)scatter_line_of_lane<P, Real>(axis, r) << (8 * k);
    }
    return bytes;
}

// scatter_line_of_lane at run time, from compile-time words (no table in memory).
template <int P, class Real, int Axis>
VOXWAVE_HD_INLINE int scatter_lane_line(int r) {
    if constexpr (!ScatterSharedLayout<P, Real>::ordered_lines) {
        return r;
    } else {
        static_assert((P + 1) * (P + 1) <= 32, "one element a warp");
        constexpr unsigned long long w0 = scatter_line_word<P, Real>(Axis, 0), w1 = scatter_line_word<P, Real>(Axis, 1),
                                     w2 = scatter_line_word<P, Real>(Axis, 2), w3 = scatter_line_word<P, Real>(Axis, 3);
        const unsigned long long w = r < 8 ? w0 : (r < 16 ? w1 : (r < 24 ? w2 : w3));
        return int((w >> (8 * (r & 7))) & 0xffull);
    }
}

// The shared-memory slot of component c of the element force (the kernel's step 4).
VOXWAVE_HD_INLINE constexpr int scatter_force_slot(int comp) { return comp == 0 ? 5 : (comp == 1 ? 3 : 4); }

// f += K_e w_e over the solid elements of `elements` (x-fastest element indices; `split` gives each
// element block its run of them, scatter_block_split), w = keep u - b u_prev (Damped) or u. f must
// hold zero at every node before the launch (the update kernel leaves it so).
//
// Thread (s, t) of element e owns three GLL lines of the element: the x line (m, s, t), the y line
// (s, m, t) and the z line (s, t, m), m = 0 .. P. Each product with D along a line is then P + 1
// values in and P + 1 out with D's entries at compile-time indices (the kernel's parameter bank),
// so the element's data crosses shared memory about 44 times a point and D never does (one
// thread a point reads a row of D and P + 1 neighbours for each of the 18 products of its point).
// An element's points have six slots in shared memory (ss), each value written over another once
// every thread has read the one it replaces:
//   1. w of the block's elements from global memory into slots 0-2, the block's threads walking
//      its rows of points x-fastest (coalesced), then each thread's x line into registers and
//      its x gradient there;
//   2. the z gradient of component c along the z lines into slot 3 + c, its y gradient along
//      the y lines into slot c (w's own, after a barrier);
//   3. at each point of the x line Hooke's law (sem_weighted_stress) on the gradient; t_i0 stays
//      in registers for the x part of the force, t_01, t_11, t_12, t_02, t_22 go into slots 0-4
//      (the point's gradient, read just before by the same thread);
//   4. the z part of the force along the z lines into the force slots 5, 3, 4
//      (scatter_force_slot: slot 5 is free, slots 3 and 4 once read), then the y part along the
//      y lines added;
//   5. the x line's x part added (the element's whole force), then the force into f by step 1's
//      walk: the common face of two x neighbours of the block summed in shared memory, an
//      atomic add at every other face, edge and corner node, a plain store at the element's
//      inner nodes and at the inside of a face so summed (no other element has them).
// Six slots, not nine (w, the gradients and the force each in slots of their own): the block's
// shared memory bounds how many elements an SM holds at once, and on a small model that sets the
// step's length. At p = 4 in FP64 nine slots (45 KB a block of 5 elements) let an SM hold 5
// blocks, so the Stokes run at 16 mm (3,375 elements, 675 blocks) took 1.02 waves of an H100's
// 132 SMs: a second wave of 15 blocks; with six slots (48 KB a block of 8 elements) and at most
// 64 registers (ScatterBlockShape) an SM holds 4 blocks, 32 elements, and the launch is 0.8 of a
// wave.
// The walk's why: the scatter ran at a constant 4 G node-steps/s FP64 on an H100 whatever p and
// size, so its cost follows the nodes, not the flops or the atomics: p = 2 at 60^3 elements and
// p = 4 at 30^3 have the same nodes (f 42 MB, more than L2 keeps beside u) and took 517 and 450 us
// a step, while p = 2 at 30^3 (f 5 MB) added its atomics three times as fast (60 G/s against 21).
// So the cost is most likely f's and u's 32-byte sectors fetched from memory for single nodes:
// along the threads' own x lines a warp's atomic or load instruction touches 25 to 32 lines, one
// node each. The walk's instruction touches runs of consecutive nodes (P + 1 an element, P E + 1
// for a row of x neighbours), about 8 to 10 sectors in FP64, each used whole; and the summed faces
// take the atomics of a block of x neighbours from 98 to 71 points an element at p = 4 (354 of a
// row of 5), 56 to 39 at p = 3 (308 of 8), 26 to 17 at p = 2 (234 of 14).
//
// Fused (SemScatterFused above): u and u_prev are u^{n-1} and u^{n-2}, and the kernel's u^n is
// formed at the load. `points`: where it has receivers, the grid's last block samples u^n there
// (sem_scatter_sample_receivers; the other gridDim.x - 1 blocks take the elements), and
// points.sources (those of the step of the u whose force the launch adds: step n in the fused form)
// go into f as -F at their nodes, once each (SemSourceBatch's element and point), so that the next
// update, u+ = (2 u - (1 - h) u- - dt^2/m (K u - F)) / (1 + h), has them. Why in the force: the
// fused load would otherwise look the sources up at every point of every element, 9 % of the p = 4
// launch's instructions on the Stokes runs, for one node; here one lane of one element adds them,
// and the load's code is half as long. Measured on an H200 against the lookup (p = 4 FP64, force /
// lookup, means of three runs, two A/Bs): the Stokes run at 8 mm 38.06 / 38.97 and 38.06 / 38.95
// ms, at 16 mm 2.966 / 2.945 and 2.964 / 2.929 ms (1 % longer, where the launch is one wave and latency-bound),
// bench-sem 928.6 / 949.0 us at 60^3 elements (FP32 586.5 / 616.4), 128.2 / 130.1 at 30^3, 19.5-19.9 / 19.3-19.4 at
// 15^3.
template <int P, class Real, bool Damped, bool Fused = false>
__global__ void __launch_bounds__(kScatterElementThreads<P, Real>, ScatterBlockShape<P, Real>::blocks_per_sm)
    sem_element_scatter(const unsigned long long* __restrict element_words, ScatterBlockSplit split,
                        const Real* __restrict lambda, const Real* __restrict mu, SemTables<Real> tab, GridShape g,
                        Real half_ds, const Real* __restrict u, const Real* __restrict u_prev, Real keep, Real b,
                        Real* __restrict f, SemPointWork points = SemPointWork{},
                        SemScatterFused<Real> fused = SemScatterFused<Real>{}) {
    constexpr int N = P + 1, NN = N * N, N3 = NN * N, E = kScatterElementsPerBlock<P, Real>,
                  EW = kScatterElementsPerWarp<P>;
    constexpr int T = kScatterElementThreads<P, Real>, kWalk = (E * N3 + T - 1) / T;
    using L = ScatterPoints<P, Real>;
    if (points.receiver_count > 0 && blockIdx.x == gridDim.x - 1) {
        sem_scatter_sample_receivers<Real, Fused>(points, fused, g.nn, u, u_prev);
        return;
    }
    // Six slots an element's point (the slot plan above the kernel).
    __shared__ Real ss_points[E * L::element];
    const auto ss = [&](int el, int k) -> Real* { return ss_points + el * L::element + k * L::slot; };
    __shared__ Real sweight[N];                  // indexed by the thread's own s and t
    __shared__ unsigned long long selement[E];   // ScatterElementWord of each element
    __shared__ unsigned long long sowned[E][2];  // Fused: the element's owned points
    if (threadIdx.x < N) sweight[threadIdx.x] = tab.w[threadIdx.x];
    // Lane l of warp w: element w EW + l / (P + 1)^2, line l mod (P + 1)^2; the lanes past the warp's
    // elements (lane_live false) only meet the barriers.
    const int lane = int(threadIdx.x) % 32, ew = lane / NN;
    const bool lane_live = ew < EW;
    const int e = int(threadIdx.x) / 32 * EW + (lane_live ? ew : EW - 1), r = lane_live ? lane - ew * NN : 0;
    // The lane's x line (m, s, t), y line (ys, m, yt) and z line (zs, zt, m) (scatter_line_of_lane).
    const int line_x = scatter_lane_line<P, Real, 0>(r), line_y = scatter_lane_line<P, Real, 1>(r),
              line_z = scatter_lane_line<P, Real, 2>(r);
    const int s = line_x % N, t = line_x / N, ys = line_y % N, yt = line_y / N, zs = line_z % N, zt = line_z / N;
    const unsigned first = scatter_block_first(blockIdx.x, split), last = scatter_block_first(blockIdx.x + 1, split);
    const std::size_t q = std::size_t(first) + std::size_t(e), nn = g.nn;
    const bool live = lane_live && q < last;
    const std::size_t nx = std::size_t(g.nx), nxy = nx * std::size_t(g.ny);
    if (lane_live && r == 0) {
        const unsigned long long listed = q < last ? element_words[q] : 0ull;
        selement[e] = ScatterElementWord::in_block(listed, e, e + 1 < E && q + 1 < last);
        if constexpr (Fused) {
            sowned[e][0] = q < last ? fused.owned[2 * q] : 0ull;
            sowned[e][1] = q < last ? fused.owned[2 * q + 1] : 0ull;
        }
    }
    // The block's element tables above are constants; u, u- and the forces are read only after the
    // previous step's kernel has completed (a programmatic dependent launch, sem_stepper_cuda.cu:
    // on an H100 the Stokes run at 16 mm is one wave of blocks a step, whose start-up and element
    // tables then overlap the previous step's last blocks).
    release_next_and_await_previous_grid();
    __syncthreads();
    // w of the block's elements into slots 0-2, x-fastest over the block's rows of points (row y, z
    // of every element one after the other), so that a warp reads runs of P + 1 consecutive nodes, a
    // run of the block's x neighbours contiguous, instead of one node of (P + 1)^2 lines. The rows in
    // their plain order: where a half-warp crosses a row its words may share a bank pair (100
    // shared wavefronts a block and slot at p = 4 in FP64, 64 the least), and an order of the rows
    // found to take 68 measured 2-2.5 % slower at 30^3 and 60^3 elements (H200), its warps' rows
    // no longer next to each other in memory.
#pragma unroll
    for (int k = 0; k < kWalk; ++k) {
        const int x = int(threadIdx.x) + k * T, xi = x % (E * N), yz = x / (E * N), e2 = xi / N, m = xi - e2 * N;
        if (x >= E * N3) break;
        const unsigned long long word = selement[e2];
        if (!ScatterElementWord::live(word)) continue;
        // A common face of x neighbours is loaded by both (loading it once, the left element's
        // points writing both slots, measured 1-6 % slower on an H200 at p = 4 with four warps a
        // block, and within 0.5 % with eight: the skipped loads leave the walk step's other round
        // trips as long).
        const std::size_t node =
            ScatterElementWord::origin(word) + std::size_t(m) + nx * std::size_t(yz % N) + nxy * std::size_t(yz / N);
        if constexpr (Fused) {
            const int pt = m + N * yz;
            const bool own = (sowned[e2][pt >> 6] >> (pt & 63)) & 1ull;
            Real am, mh, ih;
            sem_update_factors(fused.upd, node, am, mh, ih);
            // Every load of the point before its stores, through restrict-qualified pointers, so
            // that the next walk step's loads may pass this step's stores (one round trip a walk
            // step instead of one a component: on an H100, p = 4 FP64, 186.6 -> 173.1 us a step
            // at 30^3 elements, 67.4 -> 61.7 at 20^3). ptxas still issues each step's loads after
            // the step before has stored: loading two steps before their stores spilled under the
            // 72-register cap and measured 16-17 % slower (H200, p = 4 FP64, 15^3 to 60^3).
            // Copying u and u- into shared memory asynchronously (cp.async) instead was measured
            // slower at nearly every size and order (on an H200, p = 4 FP64: 24.6 against 22.3 us
            // at 15^3, 1325 against 1140 at 60^3).
            const Real* __restrict f_prev = fused.f_prev;
            Real* __restrict u_out = fused.u_out;
            Real* __restrict f_clear = fused.f_clear;
            Real prev[3], older[3], force[3];
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                const std::size_t at = std::size_t(comp) * nn + node;
                prev[comp] = __ldg(u + at);
                older[comp] = __ldg(u_prev + at);
                force[comp] = __ldg(f_prev + at);
            }
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                const std::size_t at = std::size_t(comp) * nn + node;
                const Real v = central_difference_node(prev[comp], older[comp], am * force[comp], mh, ih);
                if (own) {
                    u_out[at] = v;
                    f_clear[at] = Real(0);
                }
                ss(e2, comp)[L::point(m, yz % N, yz / N)] = Damped ? damped_operand(v, prev[comp], keep, b) : v;
            }
        } else {
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                const Real v = __ldg(u + comp * nn + node);
                ss(e2, comp)[L::point(m, yz % N, yz / N)] =
                    Damped ? damped_operand(v, __ldg(u_prev + comp * nn + node), keep, b) : v;
            }
        }
    }
    __syncthreads();
    Real gx[3][N];
    if (live) {
#pragma unroll
        for (int comp = 0; comp < 3; ++comp) {
            Real wl[N];
#pragma unroll
            for (int m = 0; m < N; ++m) wl[m] = ss(e, comp)[L::point(m, s, t)];
            sem_line_product<P, false>(tab, wl, gx[comp]);
        }
    }
    // The y and z gradients of each component: z into slot 3 + comp (free), y into w's own slot
    // once every thread has read that slot (the barrier inside the loop; the first also closes
    // the x gradients' reads of all three).
#pragma unroll
    for (int comp = 0; comp < 3; ++comp) {
        Real gy[N];
        if (live) {
            Real ly[N], lz[N], gz[N];
#pragma unroll
            for (int m = 0; m < N; ++m) {
                ly[m] = ss(e, comp)[L::point(ys, m, yt)];
                lz[m] = ss(e, comp)[L::point(zs, zt, m)];
            }
            sem_line_product<P, false>(tab, ly, gy);
            sem_line_product<P, false>(tab, lz, gz);
#pragma unroll
            for (int a = 0; a < N; ++a) ss(e, 3 + comp)[L::point(zs, zt, a)] = gz[a];
        }
        __syncwarp();
        if (live) {
#pragma unroll
            for (int a = 0; a < N; ++a) ss(e, comp)[L::point(ys, a, yt)] = gy[a];
        }
    }
    __syncwarp();
    Real fx[3][N];
    if (live) {
        const unsigned char id = ScatterElementWord::id(selement[e]);
        const Real lam = __ldg(lambda + id), mu_e = __ldg(mu + id), hst = half_ds * sweight[s] * sweight[t];
        Real tx[3][N];  // t_00, t_10, t_20 along the x line
#pragma unroll
        for (int m = 0; m < N; ++m) {
            const int p = L::point(m, s, t);
            Real gr[3][3], st[6];
#pragma unroll
            for (int comp = 0; comp < 3; ++comp) {
                gr[comp][0] = gx[comp][m];
                gr[comp][1] = ss(e, comp)[p];
                gr[comp][2] = ss(e, 3 + comp)[p];
            }
            sem_weighted_stress<Real>(gr, lam, mu_e, hst * tab.w[m], st);
            tx[0][m] = st[0];
            tx[1][m] = st[3];
            tx[2][m] = st[4];
            ss(e, 0)[p] = st[3];  // t_01
            ss(e, 1)[p] = st[1];  // t_11
            ss(e, 2)[p] = st[5];  // t_12
            ss(e, 3)[p] = st[4];  // t_02
            ss(e, 4)[p] = st[2];  // t_22
        }
#pragma unroll
        for (int comp = 0; comp < 3; ++comp) sem_line_product<P, true>(tab, tx[comp], fx[comp]);
    }
    __syncwarp();
    // The z parts (t_i2: t_02 slot 3, t_12 slot 2, t_22 slot 4) into the force slots
    // scatter_force_slot: 5, 3, 4: comp 0's into the free slot 5 at once, comp 2's after every
    // thread has read slot 4, comp 1's (from slot 2, which the y parts still read) into slot 3
    // after every thread has read that.
    Real fz[N];
    if (live) {
        Real l0[N], l2[N], f0[N];
#pragma unroll
        for (int m = 0; m < N; ++m) {
            l0[m] = ss(e, 3)[L::point(zs, zt, m)];
            l2[m] = ss(e, 4)[L::point(zs, zt, m)];
        }
        sem_line_product<P, true>(tab, l0, f0);
        sem_line_product<P, true>(tab, l2, fz);
#pragma unroll
        for (int a = 0; a < N; ++a) ss(e, 5)[L::point(zs, zt, a)] = f0[a];
    }
    __syncwarp();
    if (live) {
        Real l1[N], f1[N];
#pragma unroll
        for (int m = 0; m < N; ++m) l1[m] = ss(e, 2)[L::point(zs, zt, m)];
        sem_line_product<P, true>(tab, l1, f1);
#pragma unroll
        for (int a = 0; a < N; ++a) {
            ss(e, 3)[L::point(zs, zt, a)] = f1[a];
            ss(e, 4)[L::point(zs, zt, a)] = fz[a];
        }
    }
    __syncwarp();
    // The y parts (t_i1: t_01, t_11, t_12 in slots 0, 1, 2, read only from here) added, each
    // point by its y line's thread alone.
    if (live) {
#pragma unroll
        for (int comp = 0; comp < 3; ++comp) {
            Real ly[N], fy[N];
#pragma unroll
            for (int m = 0; m < N; ++m) ly[m] = ss(e, comp)[L::point(ys, m, yt)];
            sem_line_product<P, true>(tab, ly, fy);
#pragma unroll
            for (int a = 0; a < N; ++a) ss(e, scatter_force_slot(comp))[L::point(ys, a, yt)] += fy[a];
        }
    }
    __syncwarp();
    // The x part added: the element's whole force in the force slots; then the sources whose point
    // is on this lane's x line of this element, -F (the lane wrote those points last).
    if (live) {
#pragma unroll
        for (int comp = 0; comp < 3; ++comp)
#pragma unroll
            for (int m = 0; m < N; ++m) ss(e, scatter_force_slot(comp))[L::point(m, s, t)] += fx[comp][m];
        const unsigned slot = blockIdx.x * unsigned(E) + unsigned(e);
#pragma unroll 1
        for (int i = 0; i < points.sources.count; ++i) {
            if (points.sources.element[i] != slot || points.sources.point[i] / N != line_x) continue;
            const int m = points.sources.point[i] % N;
#pragma unroll
            for (int comp = 0; comp < 3; ++comp)
                ss(e, scatter_force_slot(comp))[L::point(m, s, t)] -= static_cast<Real>(points.sources.force[i][comp]);
        }
    }
    __syncthreads();
    // Into f by the load's x-fastest walk over the block's rows. Where element e is the x
    // neighbour of e - 1 (ScatterElementWord::merged), their common face is summed here: e's
    // x = 0 point takes e - 1's x = P point, which e - 1 then skips, and a point inside that face
    // (no other element has it) is then complete, so a plain store like the elements' inner
    // points; every other point of a face, edge or corner goes to f by an atomic add.
#pragma unroll
    for (int k = 0; k < kWalk; ++k) {
        const int x = int(threadIdx.x) + k * T, xi = x % (E * N), yz = x / (E * N), e2 = xi / N, m = xi - e2 * N;
        if (x >= E * N3) break;
        const unsigned long long word = selement[e2];
        if (!ScatterElementWord::live(word) || (m == P && ScatterElementWord::next_merged(word))) continue;
        const int y = yz % N, z = yz / N;
        const bool merged = m == 0 && ScatterElementWord::merged(word);
        const bool inner = y > 0 && y < P && z > 0 && z < P && ((m > 0 && m < P) || merged);
        const std::size_t node =
            ScatterElementWord::origin(word) + std::size_t(m) + nx * std::size_t(y) + nxy * std::size_t(z);
#pragma unroll
        for (int comp = 0; comp < 3; ++comp) {
            Real force = ss(e2, scatter_force_slot(comp))[L::point(m, y, z)];
            if (merged) force += ss(e2 - 1, scatter_force_slot(comp))[L::point(P, y, z)];
            if (inner)
                f[comp * nn + node] = force;
            else
                atomicAdd(f + comp * nn + node, force);
        }
    }
}

// u_next = u+ at every node from the complete force f (central_difference_node with the sweep's
// factors: dt^2/m, zero at held and massless nodes, so those keep the scheme's extrapolation of a
// zero state), and f back to zero for the next step's element kernel; with the step's point work
// (sem_points_kernel.cuh): thread i samples receiver i, and each node's thread adds the sources
// at its node (pass none where a later pass rewrites u+, as a PML's does).
template <class Real>
__global__ void __launch_bounds__(kScatterNodeThreads)
    sem_scatter_update(unsigned long long nn, const Real* __restrict u, const Real* __restrict u_prev,
                       Real* __restrict f, Real* __restrict u_next, UpdateFactors<Real> upd, SemPointWork points) {
    const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (n < std::size_t(points.receiver_count)) sem_sample_receiver(points, int(n), nn, u);
    if (n >= nn) return;
    Real am, mh, ih;
    sem_update_factors(upd, n, am, mh, ih);
    // Every load before the first store: the three components' round trips overlap.
    Real force[3], un[3], up[3];
#pragma unroll
    for (int comp = 0; comp < 3; ++comp) {
        const std::size_t x = std::size_t(comp) * nn + n;
        force[comp] = f[x];
        un[comp] = u[x];
        up[comp] = u_prev[x];
    }
#pragma unroll
    for (int comp = 0; comp < 3; ++comp) {
        const std::size_t x = std::size_t(comp) * nn + n;
        f[x] = Real(0);
        u_next[x] = sem_updated_node(points, n, comp, am, mh, ih, un[comp], up[comp], force[comp]);
    }
}

// u^n at the receivers from a fused chain's last state (SemScatterFused: u^{n-1}, u^{n-2} and the
// complete K u^{n-1} less the sources of step n - 1) without forming u^n at every node, as the
// element kernel's receivers' block does: one block. Why: a run's last sample closes its last
// velocity, and nothing else reads the final state, so the node pass that forms it all (a full
// read and write of u, u-, u+ and f) would be the run's only use of it.
template <class Real>
__global__ void sem_scatter_sample_formed(SemPointWork points, SemScatterFused<Real> fused, unsigned long long nn,
                                          const Real* __restrict u, const Real* __restrict u_prev) {
    sem_scatter_sample_receivers<Real, true>(points, fused, nn, u, u_prev);
}

}  // namespace voxwave::sem_cuda
