#include "integration/element_modes.hpp"

namespace voxwave::integration {

std::vector<std::array<int, 3>> hex_modes(int p) {
    std::vector<std::array<int, 3>> m;
    // Vertices: r, s, t end functions (0 = -1 side, 1 = +1 side) in the local node order of
    // docs/architecture.md#wave-numerics.
    const int vr[4] = {0, 1, 1, 0}, vs[4] = {0, 0, 1, 1};
    for (int t = 0; t < 2; ++t)
        for (int v = 0; v < 4; ++v) m.push_back({vr[v], vs[v], t});
    // Edges: one bubble index along the edge's direction, the other two select the edge.
    for (int dir = 0; dir < 3; ++dir)
        for (int e = 0; e < 4; ++e)
            for (int n = 2; n <= p; ++n) {
                std::array<int, 3> idx{};
                idx[dir] = n;
                idx[(dir + 1) % 3] = e & 1;
                idx[(dir + 2) % 3] = (e >> 1) & 1;
                m.push_back(idx);
            }
    // Faces: the face normal's index selects the side, two bubbles with m + n <= p.
    for (int normal = 0; normal < 3; ++normal)
        for (int side = 0; side < 2; ++side)
            for (int a = 2; a <= p; ++a)
                for (int b = 2; a + b <= p; ++b) {
                    std::array<int, 3> idx{};
                    idx[normal] = side;
                    idx[(normal + 1) % 3] = a;
                    idx[(normal + 2) % 3] = b;
                    m.push_back(idx);
                }
    // Interior: l + m + n <= p.
    for (int l = 2; l <= p; ++l)
        for (int a = 2; l + a <= p; ++a)
            for (int b = 2; l + a + b <= p; ++b) m.push_back({l, a, b});
    return m;
}

int hex_shape_count(int p) {
    const int faces_per = p >= 4 ? (p - 2) * (p - 3) / 2 : 0;
    const int interior = p >= 6 ? (p - 3) * (p - 4) * (p - 5) / 6 : 0;
    return 8 + 12 * (p - 1) + 6 * faces_per + interior;
}

int triangle_shape_count(int p) { return (p + 1) * (p + 2) / 2; }
int prism_shape_count(int p) { return triangle_shape_count(p) * (p + 1); }

int shape_count(ElementType type, int p) {
    return type == ElementType::Hexahedron ? hex_shape_count(p) : prism_shape_count(p);
}

int vertex_count(ElementType type) { return type == ElementType::Hexahedron ? 8 : 6; }

}  // namespace voxwave::integration
