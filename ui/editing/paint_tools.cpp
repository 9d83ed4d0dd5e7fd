#include "editing/paint_tools.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace voxwave::ui {

std::array<int, 3> slice_element_extent(const VoxelGrid& g, SlicePlane plane) {
    switch (plane) {
        case SlicePlane::XY:
            return {g.n[0], g.n[1], g.n[2]};
        case SlicePlane::XZ:
            return {g.n[0], g.n[2], g.n[1]};
        case SlicePlane::YZ:
            return {g.n[1], g.n[2], g.n[0]};
    }
    return {0, 0, 0};
}

std::size_t slice_element_index(const VoxelGrid& g, const SliceRef& s, int a, int b) {
    switch (s.plane) {
        case SlicePlane::XY:
            return g.element_index(a, b, s.layer);
        case SlicePlane::XZ:
            return g.element_index(a, s.layer, b);
        case SlicePlane::YZ:
            return g.element_index(s.layer, a, b);
    }
    return 0;
}

namespace {

bool inside(const VoxelGrid& g, const SliceRef& s, int a, int b) {
    const auto e = slice_element_extent(g, s.plane);
    return a >= 0 && b >= 0 && a < e[0] && b < e[1] && s.layer >= 0 && s.layer < e[2];
}

void add(const VoxelGrid& g, const SliceRef& s, int a, int b, std::vector<std::size_t>& out) {
    if (inside(g, s, a, b)) out.push_back(slice_element_index(g, s, a, b));
}

void unique(std::vector<std::size_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

void add_disk(const VoxelGrid& g, const SliceRef& s, QPoint c, int size, std::vector<std::size_t>& out) {
    size = std::max(1, size);
    // Cells whose centre lies within size/2 of the brush centre; the brush centre is the cell's
    // centre for odd sizes and the corner between four cells for even ones, so size n covers a
    // disk n cells across.
    const double r = size / 2.0;
    const double off = (size % 2) ? 0.0 : -0.5;
    const double cx = c.x() + off, cy = c.y() + off;
    const int lo_a = int(std::floor(cx - r)), hi_a = int(std::ceil(cx + r));
    const int lo_b = int(std::floor(cy - r)), hi_b = int(std::ceil(cy + r));
    for (int b = lo_b; b <= hi_b; ++b)
        for (int a = lo_a; a <= hi_a; ++a) {
            const double dx = a - cx, dy = b - cy;
            if (dx * dx + dy * dy <= r * r + 1e-9) add(g, s, a, b, out);
        }
}

}  // namespace

std::vector<std::size_t> brush_cells(const VoxelGrid& g, const SliceRef& s, QPoint c, int size) {
    std::vector<std::size_t> out;
    add_disk(g, s, c, size, out);
    unique(out);
    return out;
}

std::vector<std::size_t> rectangle_cells(const VoxelGrid& g, const SliceRef& s, QPoint p, QPoint q) {
    std::vector<std::size_t> out;
    for (int b = std::min(p.y(), q.y()); b <= std::max(p.y(), q.y()); ++b)
        for (int a = std::min(p.x(), q.x()); a <= std::max(p.x(), q.x()); ++a) add(g, s, a, b, out);
    unique(out);
    return out;
}

std::vector<std::size_t> ellipse_cells(const VoxelGrid& g, const SliceRef& s, QPoint p, QPoint q) {
    std::vector<std::size_t> out;
    const int a0 = std::min(p.x(), q.x()), a1 = std::max(p.x(), q.x());
    const int b0 = std::min(p.y(), q.y()), b1 = std::max(p.y(), q.y());
    const double cx = 0.5 * (a0 + a1), cy = 0.5 * (b0 + b1);
    const double rx = 0.5 * (a1 - a0 + 1), ry = 0.5 * (b1 - b0 + 1);
    for (int b = b0; b <= b1; ++b)
        for (int a = a0; a <= a1; ++a) {
            const double x = (a - cx) / rx, y = (b - cy) / ry;
            if (x * x + y * y <= 1.0) add(g, s, a, b, out);
        }
    unique(out);
    return out;
}

std::vector<std::size_t> line_cells(const VoxelGrid& g, const SliceRef& s, QPoint p, QPoint q, int size) {
    std::vector<std::size_t> out;
    int x0 = p.x(), y0 = p.y();
    const int x1 = q.x(), y1 = q.y();
    const int dx = std::abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    const int dy = -std::abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
        add_disk(g, s, QPoint(x0, y0), size, out);
        if (x0 == x1 && y0 == y1) break;
        const int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
    unique(out);
    return out;
}

std::vector<std::size_t> fill_cells(const VoxelGrid& g, const SliceRef& s, QPoint c) {
    std::vector<std::size_t> out;
    if (!inside(g, s, c.x(), c.y())) return out;
    const auto e = slice_element_extent(g, s.plane);
    const MaterialId target = g.ids[slice_element_index(g, s, c.x(), c.y())];
    std::vector<char> seen(std::size_t(e[0]) * e[1], 0);
    std::vector<QPoint> stack{c};
    seen[std::size_t(c.y()) * e[0] + c.x()] = 1;
    while (!stack.empty()) {
        const QPoint p = stack.back();
        stack.pop_back();
        out.push_back(slice_element_index(g, s, p.x(), p.y()));
        for (QPoint d : {QPoint(1, 0), QPoint(-1, 0), QPoint(0, 1), QPoint(0, -1)}) {
            const QPoint n = p + d;
            if (!inside(g, s, n.x(), n.y())) continue;
            char& flag = seen[std::size_t(n.y()) * e[0] + n.x()];
            if (flag || g.ids[slice_element_index(g, s, n.x(), n.y())] != target) continue;
            flag = 1;
            stack.push_back(n);
        }
    }
    unique(out);
    return out;
}

}  // namespace voxwave::ui
