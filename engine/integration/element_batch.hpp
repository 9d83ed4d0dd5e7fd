// A batch of m elements to integrate: vertex coordinates of distorted hexahedra or prisms,
// reproducible from a seed, so every backend and run integrates the same elements.
#pragma once

#include <cstdint>
#include <vector>

#include "integration/element_modes.hpp"

namespace voxwave::integration {

struct ElementBatch {
    ElementType type = ElementType::Hexahedron;
    std::int64_t count = 0;
    int vertices = 8;
    std::vector<double> xv;  // [(e * vertices + v) * 3 + c], metres
    const double* element(std::int64_t e) const { return &xv[std::size_t(e) * vertices * 3]; }
};

// Element e is the reference cell of size `size` (unit cube [0,h]^3, or the right prism over the
// triangle (0,0), (h,0), (0,h) with height h) shifted to its own place, with every vertex moved
// by up to distortion * h in each direction (0 = undistorted; 0.15 keeps det J > 0).
ElementBatch make_element_batch(ElementType type, std::int64_t m, double size, double distortion,
                                std::uint64_t seed = 7);

}  // namespace voxwave::integration
