#include "integration/element_batch.hpp"

namespace voxwave::integration {
namespace {
// SplitMix64: a fixed, portable sequence (std:: distributions differ between libraries).
double unit_random(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return double(z >> 11) * 0x1.0p-53 * 2 - 1;  // [-1, 1)
}
}  // namespace

ElementBatch make_element_batch(ElementType type, std::int64_t m, double size, double distortion, std::uint64_t seed) {
    ElementBatch b;
    b.type = type;
    b.count = m;
    b.vertices = vertex_count(type);
    b.xv.resize(std::size_t(m) * b.vertices * 3);
    const double hex[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    const double prism[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
    std::uint64_t s = seed;
    for (std::int64_t e = 0; e < m; ++e) {
        const double shift[3] = {double(e % 100), double((e / 100) % 100), double(e / 10000)};
        for (int v = 0; v < b.vertices; ++v)
            for (int c = 0; c < 3; ++c) {
                const double ref = type == ElementType::Hexahedron ? hex[v][c] : prism[v][c];
                b.xv[(std::size_t(e) * b.vertices + v) * 3 + c] = size * (shift[c] + ref + distortion * unit_random(s));
            }
    }
    return b;
}

}  // namespace voxwave::integration
