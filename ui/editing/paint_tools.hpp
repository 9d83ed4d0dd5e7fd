// Which voxels of one slice a painting tool touches. Pure functions (no widgets), so every tool
// is tested voxel by voxel.
#pragma once

#include <QPoint>
#include <cstddef>
#include <vector>

#include "model/voxel_grid.hpp"
#include "wave/wave_session.hpp"

namespace voxwave::ui {

enum class PaintTool { Brush, Eraser, Rectangle, Ellipse, Line, Fill };

// A slice of the voxel model: plane, and the element layer along its normal.
struct SliceRef {
    SlicePlane plane = SlicePlane::XZ;
    int layer = 0;
};

// Element counts along the slice's two axes (a, b) and along its normal.
std::array<int, 3> slice_element_extent(const VoxelGrid& g, SlicePlane plane);
// Element index of slice cell (a, b); a, b must be inside the slice.
std::size_t slice_element_index(const VoxelGrid& g, const SliceRef& s, int a, int b);

// Disk of diameter `size` cells centred on cell c (size 1: the cell alone).
std::vector<std::size_t> brush_cells(const VoxelGrid& g, const SliceRef& s, QPoint c, int size);
// Filled axis-aligned rectangle with corners p and q (inclusive).
std::vector<std::size_t> rectangle_cells(const VoxelGrid& g, const SliceRef& s, QPoint p, QPoint q);
// Filled ellipse inscribed in the rectangle with corners p and q (cell centres inside).
std::vector<std::size_t> ellipse_cells(const VoxelGrid& g, const SliceRef& s, QPoint p, QPoint q);
// A line from p to q (Bresenham), each point painted with a brush of `size`.
std::vector<std::size_t> line_cells(const VoxelGrid& g, const SliceRef& s, QPoint p, QPoint q, int size);
// The 4-connected region of cells with the material of cell c, within the slice.
std::vector<std::size_t> fill_cells(const VoxelGrid& g, const SliceRef& s, QPoint c);

}  // namespace voxwave::ui
