// Slices of the wavefield: which node a slice pixel reads and what value it shows. Written once
// for the CPU session and the CUDA slice kernel (docs/architecture.md#layers:
// shared __host__ __device__ physics).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/host_device.hpp"

namespace voxwave {

enum class SlicePlane { XY, XZ, YZ };  // normal z, y, x
enum class SliceQuantity { Ux, Uy, Uz, DisplacementMagnitude, VelocityMagnitude };

// In-plane axes (a, b) and the normal of a slice plane, as indices into x, y, z.
inline std::array<int, 3> plane_axes(SlicePlane p) {
    switch (p) {
        case SlicePlane::XY:
            return {0, 1, 2};
        case SlicePlane::XZ:
            return {0, 2, 1};
        case SlicePlane::YZ:
            return {1, 2, 0};
    }
    return {0, 1, 2};
}

// A plane of nodes: width x height values, row-major, `width` along the plane's first axis
// (XY: x then y; XZ: x then z; YZ: y then z).
struct SliceImage {
    int width = 0, height = 0;
    std::vector<float> values;
    float max_abs() const;
};

// The q-quantile (0..1) of |value| over the non-zero values of `slices`, 0 when all are zero: the
// colour scale of the live views (the peak would be the source point, far above the field around it).
float abs_quantile(const std::vector<const SliceImage*>& slices, double q);
// The quantile the live views' auto gain takes (and a replay's gain, the largest over its frames).
inline constexpr double kColourScaleQuantile = 0.99;

// Node index of slice pixel (a, b) on node plane `index`, for node counts (nx1, ny1) along x, y.
VOXWAVE_HD std::size_t slice_node_index(SlicePlane plane, int index, int a, int b, std::size_t nx1, std::size_t ny1) {
    switch (plane) {
        case SlicePlane::XY:
            return std::size_t(a) + nx1 * (std::size_t(b) + ny1 * std::size_t(index));
        case SlicePlane::XZ:
            return std::size_t(a) + nx1 * (std::size_t(index) + ny1 * std::size_t(b));
        case SlicePlane::YZ:
            return std::size_t(index) + nx1 * (std::size_t(a) + ny1 * std::size_t(b));
    }
    return 0;
}

// The value shown for one node: u[c][node] components, up the previous step (velocity is the
// backward difference (u^n - u^{n-1}) / dt, the only velocity known without another step).
template <class Real>
VOXWAVE_HD double slice_value(SliceQuantity q, const Real* const u[3], const Real* const up[3], std::size_t node,
                              double inv_dt) {
    switch (q) {
        case SliceQuantity::Ux:
            return double(u[0][node]);
        case SliceQuantity::Uy:
            return double(u[1][node]);
        case SliceQuantity::Uz:
            return double(u[2][node]);
        case SliceQuantity::DisplacementMagnitude: {
            const double x = u[0][node], y = u[1][node], z = u[2][node];
            return sqrt(x * x + y * y + z * z);
        }
        case SliceQuantity::VelocityMagnitude: {
            double s = 0;
            for (int c = 0; c < 3; ++c) {
                const double d = (double(u[c][node]) - double(up[c][node])) * inv_dt;
                s += d * d;
            }
            return sqrt(s);
        }
    }
    return 0;
}

}  // namespace voxwave
