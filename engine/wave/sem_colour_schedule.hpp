// The order in which the spectral voxel elements' forces are summed at a shared GLL node when
// the elements run in eight colours (sem_stepper_cuda.hpp): element (i, j, k) has colour
// (i & 1) + 2 (j & 1) + 4 (k & 1), and the colours run one after the other. Two elements of one
// colour share no node (they differ by at least two along some axis), so within a colour every
// node has at most one writer and needs no atomics; across colours the launches are ordered.
//
// Why roles: the element of a node's lowest colour writes the node's partial force (no clearing
// pass), those in between add to it, and the element of its highest colour, which sees the
// complete force, applies the central-difference update at once (the step is fused: the force
// never makes a round trip through memory for the nodes inside one element, and the nodes on
// faces make one). Void neighbours add nothing and take no role.
#pragma once

#include "core/host_device.hpp"

namespace voxwave {

VOXWAVE_HD_INLINE int sem_element_colour(int i, int j, int k) { return (i & 1) | ((j & 1) << 1) | ((k & 1) << 2); }

struct SemNodeRole {
    bool first;  // no element of a lower colour touches the node: write, do not add
    bool last;   // no element of a higher colour touches the node: the force is complete
};

// The role of element (i, j, k) (not void) at its local node (a, b, c), a, b, c in 0..p, in a
// grid of n[0] x n[1] x n[2] elements; solid(i, j, k) says whether an element in the grid is not
// void. Interior nodes (no index 0 or p) belong to the element alone and read no neighbour.
template <class Solid>
VOXWAVE_HD_INLINE SemNodeRole sem_node_role(int p, const int* n, int i, int j, int k, int a, int b, int c,
                                            const Solid& solid) {
    const int e[3] = {i, j, k}, l[3] = {a, b, c};
    int lo[3], hi[3];
    for (int ax = 0; ax < 3; ++ax) {
        lo[ax] = (l[ax] == 0 && e[ax] > 0) ? -1 : 0;
        hi[ax] = (l[ax] == p && e[ax] < n[ax] - 1) ? 1 : 0;
    }
    const int mine = sem_element_colour(i, j, k);
    int lowest = mine, highest = mine;
    for (int dk = lo[2]; dk <= hi[2]; ++dk)
        for (int dj = lo[1]; dj <= hi[1]; ++dj)
            for (int di = lo[0]; di <= hi[0]; ++di) {
                if ((di | dj | dk) == 0 || !solid(i + di, j + dj, k + dk)) continue;
                const int col = sem_element_colour(i + di, j + dj, k + dk);
                lowest = col < lowest ? col : lowest;
                highest = col > highest ? col : highest;
            }
    return {lowest == mine, highest == mine};
}

}  // namespace voxwave
